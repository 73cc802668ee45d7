/// One problem with one field of the input, named as the client named it (`price.amount`).
public struct FieldError: Hashable, Sendable {
    public let field: String
    public let message: String
    /// The value cannot be read as what the field holds at all (a page cursor this service never
    /// issued), as opposed to a readable value that breaks a rule. It makes the request a bad one
    /// (400) rather than an invalid one (422).
    public let malformed: Bool

    public init(_ field: String, _ message: String, malformed: Bool = false) {
        self.field = field
        self.message = message
        self.malformed = malformed
    }
}

/// Input that breaks the rules; carries every problem found, not just the first.
public struct ValidationError: Error, Hashable, Sendable {
    public let fields: [FieldError]

    public init(_ fields: [FieldError]) {
        self.fields = fields
    }

    /// Whether a field could not be read at all (see `FieldError.malformed`).
    public var isMalformed: Bool { fields.contains(where: \.malformed) }
}

/// Collects field errors while a use case checks its input, then throws them all at once.
public struct FieldErrors: Sendable {
    public private(set) var all: [FieldError] = []

    public init() {}

    public mutating func add(_ field: String, _ message: String, malformed: Bool = false) {
        all.append(FieldError(field, message, malformed: malformed))
    }

    /// Records `message` for `field` unless `condition` holds.
    public mutating func require(_ condition: Bool, _ field: String, _ message: String, malformed: Bool = false) {
        if !condition { add(field, message, malformed: malformed) }
    }

    /// Records the errors of a part of the input under its place: `quantity` of the element
    /// `lines[0]` becomes `lines[0].quantity`.
    public mutating func add(_ error: ValidationError, under place: String) {
        for field in error.fields { add("\(place).\(field.field)", field.message, malformed: field.malformed) }
    }

    /// - Throws: `ValidationError` when anything was recorded.
    public func throwIfAny() throws(ValidationError) {
        if !all.isEmpty { throw ValidationError(all) }
    }
}
