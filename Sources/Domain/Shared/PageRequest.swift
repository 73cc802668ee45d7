/// The paging part of a list request, checked: at most `limit` rows after `after`.
public struct PageRequest: Hashable, Sendable {
    public let limit: Int
    public let after: PageCursor?

    /// - Throws: `ValidationError` naming `limit` and/or `cursor`.
    public init(limit: Int?, cursor: String?, defaultLimit: Int = 20) throws(ValidationError) {
        var errors = FieldErrors()
        let request = Self.read(limit: limit, cursor: cursor, defaultLimit: defaultLimit, into: &errors)
        try errors.throwIfAny()
        self = request!
    }

    private init(limit: Int, after: PageCursor?) {
        self.limit = limit
        self.after = after
    }

    /// The request, or `nil` with its problems added to `errors`, for a use case that checks
    /// more parameters and reports them all at once.
    public static func read(limit: Int?, cursor: String?, defaultLimit: Int = 20, into errors: inout FieldErrors) -> PageRequest? {
        var pageLimit: PageLimit?
        do { pageLimit = try PageLimit(limit, default: defaultLimit) } catch { errors.add("limit", error.fields[0].message) }
        let position = cursor.map(PageCursor.init(token:))
        errors.require(position != .some(nil), "cursor", "is not a cursor this service issued", malformed: true)
        guard let pageLimit, position != .some(nil) else { return nil }
        return PageRequest(limit: pageLimit.value, after: position ?? nil)
    }

    /// How many rows to fetch: one more than the page shows, to learn whether a next page exists.
    public var fetchLimit: Int { limit + 1 }
}

extension Page {
    /// The page of `fetched` rows (asked for with `request.fetchLimit`): the extra row, if any,
    /// only says that a next page starts after the last row shown.
    public init(fetched: [Element], request: PageRequest, position: (Element) -> PageCursor) {
        let items = Array(fetched.prefix(request.limit))
        let next = fetched.count > request.limit ? items.last.map(position) : nil
        self.init(items: items, nextCursor: next)
    }
}
