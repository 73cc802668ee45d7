/// How many rows a page holds: 1...`maximum`, `default` when the client gives none.
public struct PageLimit: Sendable {
    public let value: Int

    /// - Throws: `ValidationError` for `limit` outside 1...maximum.
    public init(_ requested: Int?, default defaultValue: Int = 20, maximum: Int = 100) throws(ValidationError) {
        let value = requested ?? defaultValue
        guard (1...maximum).contains(value) else {
            throw ValidationError([FieldError("limit", "must be between 1 and \(maximum)")])
        }
        self.value = value
    }
}
