/// What the item store refuses besides being unreachable.
public enum CatalogError: Error, Equatable, Sendable {
    /// Another item has this SKU (the create's `duplicate_sku` outcome).
    case duplicateSKU(String)
    /// A price or stock change addressed to an item with this many variants, which have a price
    /// and a stock each (the edit's `item_has_variants` outcome).
    case itemHasVariants(Int)
}
