import Foundation

/// Lines naming order lines (a shipment's, a return's, a refund's) name each variant once: a
/// variant named twice is refused wherever it comes, rather than merged in one place and
/// refused by a limit it did not break in another. A variant the order did not buy is refused
/// by the same field and words everywhere too (`notOrdered`).
public enum DistinctLines {
    /// The message of `lines[i].variant_id` naming a variant the order did not buy.
    public static let notOrdered = "is not a variant this order bought"

    /// `lines[i].variant_id: appears twice` for every repeat of an earlier line's variant.
    public static func errors(_ variantIDs: [UUID]) -> [FieldError] {
        var seen = Set<UUID>()
        return variantIDs.enumerated().compactMap { index, id in
            seen.insert(id).inserted ? nil : FieldError("lines[\(index)].variant_id", "appears twice")
        }
    }
}
