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
    /// The customer keeps as many records of this kind as one may (`max_per_owner`).
    case limitReached(entity: String, limit: Int)
    /// Rows of another table still refer to the record, so it cannot be deleted.
    case referenced(by: String)
}
