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
        let sort = ItemSort(rawValue: input.sort.rawValue) ?? .newest
        var errors = FieldErrors()
        let cursor = input.cursor.map(ItemCursor.init(token:))
        errors.require(cursor != .some(nil), "cursor", "is not a cursor this service issued", malformed: true)
        if let cursor = cursor ?? nil {
            errors.require(cursor.sort == sort, "cursor", "belongs to sort=\(cursor.sort.rawValue): start again without it")
        }
        if let min = input.priceMin, let max = input.priceMax { errors.require(min <= max, "price_max", "must be at least price_min") }
        for name in input.option.keys.sorted() where !VariantRules.isOptionName(name) {
            errors.add("option.\(name)", "must name an option as items do: a lowercase key (option.size=M)")
        }
        try errors.throwIfAny()
        let search = input.q?.trimmingCharacters(in: .whitespacesAndNewlines)
        let filter = ItemFilter(
            search: search?.isEmpty == false ? search : nil, category: input.category, priceMin: input.priceMin,
            priceMax: input.priceMax, inStock: input.inStock ?? false, options: input.option)
        let limit = input.limit ?? 20
        let found = try await store.items(matching: filter, sort: sort, after: cursor ?? nil, limit: limit + 1)
        let shown = found.prefix(limit)
        let next = found.count > limit ? shown.last?.cursor.token : nil
        return .page(ItemPage(data: shown.map(\.item), nextCursor: next))
    }
}
