/// What the item store refuses besides being unreachable.
public enum CatalogError: Error, Equatable, Sendable {
    /// Another item has this SKU (the create's `duplicate_sku` outcome).
    case duplicateSKU(String)
}
