import Domain
import Postgres

/// Runs a generated store's statement, turning PostgreSQL's answers into the domain's errors:
/// an unreachable database into `StoreUnavailable`, a violated `<table>_<column>_key` into
/// `RecordError.duplicate` (or `.duplicateGroup` when `groups` names the fields the constraint
/// keeps unique together, by the column it is named after), a violated `<table>_<column>_fkey`
/// into `RecordError.missingReference`, and another table's violated foreign key (a delete of a row
/// still referred to) into `RecordError.referenced`. The constraint names are the ones scenegen's
/// migrations give.
/// - Throws: those errors, or what `body` throws.
func translatingRecordErrors<T>(table: String, groups: [String: [String]] = [:], _ body: () async throws -> T) async throws -> T {
    do {
        return try await translatingUnavailable(body)
    } catch let error as PostgresError {
        guard let constraint = error.constraint else { throw error }
        // A foreign key of another table's: its rows still refer to the one being deleted.
        if case .foreignKeyViolation(let info) = error, !constraint.hasPrefix(table + "_") {
            throw RecordError.referenced(by: info.table ?? constraint)
        }
        guard constraint.hasPrefix(table + "_") else { throw error }
        let column = constraint.dropFirst(table.count + 1)
        if column.hasSuffix("_fkey") { throw RecordError.missingReference(field: String(column.dropLast(5))) }
        if column.hasSuffix("_key") {
            let field = String(column.dropLast(4))
            if let group = groups[field] { throw RecordError.duplicateGroup(fields: group) }
            throw RecordError.duplicate(field: field)
        }
        throw error
    }
}
