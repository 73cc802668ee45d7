// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `POST /v1/admin/variants/{id}/stock` (auth: admin): the variant's stock changed by
    /// `delta`, never set, so a checkout taking stock at the same moment is never undone; the
    /// change is recorded with its reason.
    /// - Throws: `ValidationError` for a delta of 0 or a blank reason; `StoreUnavailable`.
    public func adjustStock(_ input: CatalogAdjustStockInput) async throws -> CatalogAdjustStockOutcome {
        var errors = FieldErrors()
        errors.require(input.delta != 0, "delta", "must not be 0")
        ItemRules.checkNotBlank(input.reason, field: "reason", into: &errors)
        try errors.throwIfAny()
        do {
            guard
                let movement = try await store.adjustStock(variantID: input.id, delta: input.delta, reason: input.reason, at: system.now())
            else { return .notFound(id: input.id) }
            return .adjusted(movement)
        } catch CatalogError.insufficientStock(let available) {
            return .insufficientStock(id: input.id, available: available)
        } catch CatalogError.stockLimit(let available) {
            return .stockLimit(id: input.id, available: available)
        }
    }
}
