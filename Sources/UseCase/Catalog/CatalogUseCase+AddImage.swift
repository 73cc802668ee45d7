// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// An item holds at most this many images.
    static let maxImages = 20

    /// Whether an image may be uploaded to the item now, asked before a byte of it is read: the
    /// item exists and has room.
    /// - Throws: `StoreUnavailable`.
    public func addImageBeforeUpload(_ input: CatalogAddImageInput) async throws -> CatalogAddImageOutcome? {
        guard let count = try await images.count(itemID: input.id) else { return .notFound(id: input.id) }
        return count < Self.maxImages ? nil : .tooManyImages(limit: Self.maxImages)
    }

    /// `POST /v1/admin/items/{id}/images?alt=&variant_id=` (auth: admin): checks the file by its
    /// leading bytes, stores it at the media API under a name of our own, then records it after
    /// the item's other images (the count checked again under the item's lock). A file the
    /// record then refuses is deleted from the media API again; one the store failed to record
    /// is left there, since a failure at its commit may have recorded it after all (an orphan
    /// file, never an image without its file).
    /// - Throws: `ExternalServiceError` (no media API, or it failed), `StoreUnavailable`.
    public func addImage(_ input: CatalogAddImageInput, upload: UploadedFile) async throws -> CatalogAddImageOutcome {
        guard upload.size > 0 else { return .imageEmpty }
        guard let format = PhotoFormat.sniff(upload.leadingBytes) else { return .imageUnrecognized }
        guard let media else { throw ExternalServiceError(service: "media", reason: "MEDIA_API_URL is not set") }
        let id = system.newID()
        let stored = try await media.upload(upload, filename: "\(id.lowercasedText).\(format.fileExtension)", format: format)
        let image = NewItemImage(
            id: id, itemID: input.id, variantID: input.variantID, filename: stored, format: format, size: upload.size,
            alt: input.alt ?? "", createdAt: system.now())
        let addition = try await images.add(image, limit: Self.maxImages)
        let refusal: CatalogAddImageOutcome
        switch addition {
        case .added(let added): return .added(added)
        case .itemNotFound: refusal = .notFound(id: input.id)
        case .notAVariantOfTheItem(let variantID): refusal = .notAVariantOfTheItem(id: input.id, variantID: variantID)
        case .full: refusal = .tooManyImages(limit: Self.maxImages)
        }
        try? await media.delete(filename: stored)
        return refusal
    }
}
