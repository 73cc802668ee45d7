import Foundation

/// What can go wrong with a stored record besides invalid input; the errors of every scene
/// scenegen generates.
public enum RecordError: Error, Hashable, Sendable {
    /// No record of this kind has this id, or it belongs to another customer.
    case notFound(entity: String, id: UUID)
    /// The value of a unique field is taken (the field as clients name it).
    case duplicate(field: String)
    /// Fields unique together have values another record has; the last is the one to change.
    case duplicateGroup(fields: [String])
    /// A reference field names a row that does not exist.
    case missingReference(field: String)
}

/// A money amount as a client sends it, before the currency code is checked.
public struct MoneyInput: Hashable, Sendable {
    public var amount: Int64
    public var currency: String

    public init(amount: Int64, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}
