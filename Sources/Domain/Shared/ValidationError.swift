/// One problem with one field of the input, named as the client named it (`price.amount`).
public struct FieldError: Hashable, Sendable {
    public let field: String
    public let message: String

    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }
}

/// Input that breaks the rules; carries every problem found, not just the first.
public struct ValidationError: Error, Hashable, Sendable {
    public let fields: [FieldError]

    public init(_ fields: [FieldError]) {
        self.fields = fields
    }
}

/// Collects field errors while a use case checks its input, then throws them all at once.
public struct FieldErrors: Sendable {
    public private(set) var all: [FieldError] = []

    public init() {}

    public mutating func add(_ field: String, _ message: String) {
        all.append(FieldError(field, message))
    }

    /// Records `message` for `field` unless `condition` holds.
    public mutating func require(_ condition: Bool, _ field: String, _ message: String) {
        if !condition { add(field, message) }
    }

    /// - Throws: `ValidationError` when anything was recorded.
    public func throwIfAny() throws(ValidationError) {
        if !all.isEmpty { throw ValidationError(all) }
    }
}
