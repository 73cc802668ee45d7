// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `GET /v1/items` (auth: public): one page of items in the order asked (`sort`, newest
    /// first by default) whose name or description holds every word of `q`, of `category`, and
    /// with one live variant priced within `price_min`...`price_max`, in stock (`in_stock`) and
    /// holding every `option.<name>` value, all at once. A cursor belongs to its sort.
    /// - Throws: `ValidationError` for a cursor this service did not issue or issued for another
    ///   sort, bounds the wrong way round or an option that is not a key; `StoreUnavailable`.
    public func list(_ input: CatalogListInput) async throws -> CatalogListOutcome {
        let sort = input.sort
        var errors = FieldErrors()
        let cursor = input.cursor.map(ItemCursor.init(token:))
        errors.require(cursor != .some(nil), "cursor", "is not a cursor this service issued", malformed: true)
        if let cursor = cursor ?? nil {
            errors.require(cursor.sort == sort, "cursor", "belongs to sort=\(cursor.sort.rawValue): start again without it")
        }
        let filter = Self.filter(
            q: input.q, category: input.category, priceMin: input.priceMin, priceMax: input.priceMax, inStock: input.inStock,
            options: input.option, into: &errors)
        try errors.throwIfAny()
        let limit = input.limit ?? 20
        let found = try await store.items(matching: filter, sort: sort, after: cursor ?? nil, limit: limit + 1)
        let shown = found.prefix(limit)
        let next = found.count > limit ? shown.last?.cursor.token : nil
        return .page(ItemPage(data: shown.map(\.item), nextCursor: next))
    }
}
