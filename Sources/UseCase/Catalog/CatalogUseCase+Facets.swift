// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `GET /v1/items/facets` (auth: public): for the list's filter, how many items it shows,
    /// and how many each refinement would: per category, per value of each option (one live
    /// variant holding it and meeting the filter), per band of the lowest price
    /// (`PriceBands.bounds`).
    /// - Throws: `ValidationError` for bounds the wrong way round or an option that is not a
    ///   key; `StoreUnavailable`.
    public func facets(_ input: CatalogFacetsInput) async throws -> CatalogFacetsOutcome {
        var errors = FieldErrors()
        let filter = Self.filter(
            q: input.q, category: input.category, priceMin: input.priceMin, priceMax: input.priceMax, inStock: input.inStock,
            options: input.option, into: &errors)
        try errors.throwIfAny()
        return .facets(try await store.facets(matching: filter, bands: PriceBands.bounds))
    }
}
