// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `PATCH /v1/admin/images/{id}` (auth: admin): an image's alt text, or its place among its
    /// item's images (0 is first; past the last is last; the others keep their order).
    /// - Throws: `ValidationError` for a body that changes nothing; `StoreUnavailable`.
    public func editImage(_ input: CatalogEditImageInput) async throws -> CatalogEditImageOutcome {
        if input.alt == nil && input.position == nil {
            throw ValidationError([FieldError("body", "must change at least one of alt, position")])
        }
        guard let image = try await images.update(id: input.id, alt: input.alt, position: input.position) else {
            return .notFound(id: input.id)
        }
        return .image(image)
    }
}
