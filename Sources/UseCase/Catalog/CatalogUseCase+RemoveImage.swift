// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `DELETE /v1/admin/images/{id}` (auth: admin): the image's row goes, then its file at the
    /// media API. The row goes first: a file the media API could not delete is only an orphan
    /// (counted in the media gateway's metrics), never an image whose file is missing.
    /// - Throws: `StoreUnavailable`.
    public func removeImage(_ input: CatalogRemoveImageInput) async throws -> CatalogRemoveImageOutcome {
        guard let filename = try await images.remove(id: input.id) else { return .notFound(id: input.id) }
        try? await media?.delete(filename: filename)
        return .removed
    }
}
