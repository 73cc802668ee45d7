import Foundation

/// The orders a list of items comes in. Each is a keyset order whose last key is the id, so a
/// page after a cursor is exact however many items are added or repriced meanwhile.
public enum ItemSort: String, CaseIterable, Hashable, Sendable {
    /// Newest first (`created_at` descending).
    case newest
    /// Cheapest first, by the item's lowest variant price.
    case priceAsc = "price_asc"
    /// Dearest first, by the item's lowest variant price.
    case priceDesc = "price_desc"
    /// Best rated first (the mean weighed toward three stars by five reviews' worth, exact;
    /// unrated items last).
    case rating
    /// By name, code point by code point.
    case name

    /// Whether the order runs from the largest key down.
    public var descending: Bool { self != .priceAsc && self != .name }
}

/// A key an item is sorted by: a time in microseconds, a number, or a text.
public enum ItemSortKey: Hashable, Sendable {
    case time(Int64)
    case number(Int64)
    case text(String)
}

/// A position in a sorted list of items: the sort, the last item's key in it and its id. A
/// cursor of one sort is refused by another (its key means something else there).
public struct ItemCursor: Hashable, Sendable {
    public let sort: ItemSort
    public let key: ItemSortKey
    public let id: UUID

    public init(sort: ItemSort, key: ItemSortKey, id: UUID) {
        self.sort = sort
        self.key = key
        self.id = id
    }

    /// `nil` unless `token` is one this type produced: `sort|key|id`, the key as its sort writes
    /// it (a name of up to 200 characters of up to 4 bytes each makes the longest token). Split
    /// by scalars, not characters: a name starting with a combining mark joins the `|` before
    /// it into one character, and its cursor was refused.
    public init?(token: String) {
        guard let text = OpaqueToken.decode(token, max: 1200)?.unicodeScalars, let first = text.firstIndex(of: "|"),
            let last = text.lastIndex(of: "|"), first < last, let sort = ItemSort(rawValue: String(text[..<first])),
            let id = UUID(text: String(text[text.index(after: last)...]))
        else { return nil }
        let key = String(text[text.index(after: first)..<last])
        switch sort {
        case .newest:
            guard let micros = Int64(key), PageCursor.validMicros.contains(micros) else { return nil }
            self.init(sort: sort, key: .time(micros), id: id)
        case .priceAsc, .priceDesc, .rating:
            guard let number = Int64(key) else { return nil }
            self.init(sort: sort, key: .number(number), id: id)
        case .name:
            self.init(sort: sort, key: .text(key), id: id)
        }
    }

    public var token: String {
        let key: String
        switch self.key {
        case .time(let micros): key = String(micros)
        case .number(let number): key = String(number)
        case .text(let text): key = text
        }
        return OpaqueToken.encode("\(sort.rawValue)|\(key)|\(id.lowercasedText)")
    }
}
