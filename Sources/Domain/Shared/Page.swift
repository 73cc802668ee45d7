/// One page of a list and where the next one starts (`nil` on the last page).
public struct Page<Element: Sendable>: Sendable {
    public let items: [Element]
    public let nextCursor: PageCursor?

    public init(items: [Element], nextCursor: PageCursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// So an outcome answering a page (`case page(Page<ItemPhoto>)`) is as comparable as its rows.
extension Page: Equatable where Element: Equatable {}
extension Page: Hashable where Element: Hashable {}
