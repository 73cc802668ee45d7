/// What the item store refuses besides being unreachable.
public enum CatalogError: Error, Equatable, Sendable {
    /// Another item has this SKU (the create's `duplicate_sku` outcome).
    case duplicateSKU(String)
    /// A price change addressed to an item with this many variants, which have a price each
    /// (the edit's `item_has_variants` outcome).
    case itemHasVariants(Int)
    /// A live sibling already has the new variant's values.
    case duplicateCombination
    /// The item's options are no longer those the new variant was checked against.
    case itemChanged
    /// The variant to remove is its item's last live one.
    case lastVariant
    /// A change named a variant that is not one of the item's live variants (its place in the
    /// request's `variants`).
    case unknownVariant(index: Int)
    /// New options that do not fit the item's live variants, each reason by its place.
    case optionsIncompatible([FieldError])
    /// A stock change would leave less than nothing: only this many are in stock.
    case insufficientStock(available: Int)
    /// A stock change would take the stock past `ItemRules.maxStock`: this many are in stock.
    case stockLimit(available: Int)
}
