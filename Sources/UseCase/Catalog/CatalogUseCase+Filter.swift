import Domain
import Foundation

extension CatalogUseCase {
    /// The filter of a list or of its facets, from what the client sent: a blank search searches
    /// nothing; bounds the wrong way round and options that are not keys are field errors.
    static func filter(
        q: String?, category: String?, priceMin: Int64?, priceMax: Int64?, inStock: Bool?, options: [String: String],
        into errors: inout FieldErrors
    ) -> ItemFilter {
        if let min = priceMin, let max = priceMax { errors.require(min <= max, "price_max", "must be at least price_min") }
        for name in options.keys.sorted() where !VariantRules.isOptionName(name) {
            errors.add("option.\(name)", "must name an option as items do: a lowercase key (option.size=M)")
        }
        let search = q?.trimmingCharacters(in: .whitespacesAndNewlines)
        return ItemFilter(
            search: search?.isEmpty == false ? search : nil, category: category, priceMin: priceMin, priceMax: priceMax,
            inStock: inStock ?? false, options: options)
    }
}
