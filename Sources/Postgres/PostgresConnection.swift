import CLibPQ
import Dispatch
import Foundation

/// One libpq connection in non-blocking mode. A statement is sent from the calling task's own
/// thread; the task then parks on `PostgresEventLoop` until the server's answer arrives and reads it,
/// so no thread blocks in libpq and no query hops to a thread of its own (measured: see
/// `Benchmarks/README.md`). Only opening and re-opening a link block; they run on a dispatch
/// thread, off Swift's cooperative pool.
///
/// A connection is used by one task at a time, handed out by the pool: its mutable state needs no
/// lock because the pool's mutex orders one borrower's accesses before the next one's.
public final class PostgresConnection: PostgresExecutor, @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements = StatementCache()
    /// False behind a transaction pooler (see `PostgresConnectionSettings.behindTransactionPooler`):
    /// every statement is then sent unnamed, parsed with its values in one round trip.
    private let namesStatements: Bool
    /// Set when the pool lends the connection out; the next statement first checks the link.
    private var needsHealthCheck = false

    private init(handle: OpaquePointer, namesStatements: Bool) {
        self.handle = handle
        self.namesStatements = namesStatements
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Opens a connection.
    /// - Throws: `PostgresError.connection` with libpq's own message.
    static func connect(_ settings: PostgresConnectionSettings) async throws -> PostgresConnection {
        let handle = try await runBlocking { () throws(PostgresError) in UnsafeSendable(try settings.open()) }.value
        // The object frees the handle if the next line throws.
        let connection = PostgresConnection(handle: handle, namesStatements: !settings.behindTransactionPooler)
        try setNonBlocking(handle)
        return connection
    }

    public func query(_ sql: String, binds: [any PostgresEncodable]) async throws -> PostgresResult {
        let parameters = binds.map(PostgresParameter.init)
        if let index = parameters.firstIndex(where: \.holdsNulInText) { throw PostgresError.nulInParameter(index + 1) }
        if let index = parameters.firstIndex(where: \.isTooLong) { throw PostgresError.parameterTooLong(index + 1) }
        try await ensureHealthy()
        // Only a statement prepared before this call can have changed under it: 0A000 is the
        // whole class "feature not supported", which a new statement's own mistakes answer too.
        let preparedBefore = namesStatements && statements.isPrepared(sql)
        do {
            return try await send(sql, parameters)
        } catch let error as PostgresError where preparedBefore && error.info?.sqlState == Self.cachedPlanChanged {
            // A migration under a running instance changed what the prepared statement returns:
            // PostgreSQL refuses to run it again. It is prepared anew, and run again at once
            // outside a transaction; inside one, which the refusal aborted, the transaction is.
            statements.forget(sql)
            guard let handle, PQtransactionStatus(handle) == PQTRANS_IDLE else { throw PostgresError.statementChanged(error.info!) }
            return try await send(sql, parameters)
        }
    }

    /// SQLSTATE 0A000, answered to a prepared statement whose result's columns changed.
    static let cachedPlanChanged = "0A000"

    private func send(_ sql: String, _ parameters: [PostgresParameter]) async throws -> PostgresResult {
        let handle = try liveHandle()
        let sent: Int32
        // Bytes are declared bytea, so that the server never reads them as the binary form of
        // whatever type it would infer for their place (16 bytes are a valid uuid).
        let types = parameters.declaredTypes
        if namesStatements {
            let name = try await prepared(sql, types: types, on: handle)
            sent = parameters.withCValues { values, lengths, formats in
                PQsendQueryPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0)
            }
        } else {
            let declared = types + Array(repeating: 0, count: parameters.count - types.count)
            sent = parameters.withCValues { values, lengths, formats in
                PQsendQueryParams(handle, sql, Int32(parameters.count), declared.isEmpty ? nil : declared, values, lengths, formats, 0)
            }
        }
        let result = try await answer(to: sent, on: handle)
        defer { PQclear(result) }
        // A statement's shape changes only with the schema (a migration under a running instance):
        // then its columns are read anew.
        if let columns = statements.columns(of: sql, matching: result) {
            return Self.read(result, columns: columns)
        }
        let columns = Self.columns(of: result)
        statements.remember(columns, for: sql)
        return Self.read(result, columns: columns)
    }

    /// Runs trusted SQL text with no parameters through the simple-query protocol: transaction
    /// control and migration files (which may hold many statements). Never pass it user input.
    /// - Throws: `PostgresError`.
    public func executeScript(_ sql: String) async throws {
        try await ensureHealthy()
        try await runScript(sql)
    }

    /// Called by the pool as it lends the connection out: the next statement first makes the
    /// connection fit for a new unit of work (`ensureHealthy`).
    func markLent() {
        needsHealthCheck = true
    }

    /// Closes the link; the object is unusable afterwards.
    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    func liveHandle() throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw .connection(message: "connection is closed") }
        return handle
    }

    /// Reads what the server sent while the connection sat idle (a shutdown notice, say) and, if
    /// the link is broken, re-opens it with `PQreset`. A reset forgets the prepared statements,
    /// which lived in the old session.
    /// - Throws: `PostgresError.connection` when the server still cannot be reached.
    private func ensureHealthy() async throws {
        guard needsHealthCheck else { return }
        needsHealthCheck = false
        let handle = try liveHandle()
        if PQstatus(handle) == CONNECTION_OK { _ = PQconsumeInput(handle) }
        if PQstatus(handle) != CONNECTION_OK {
            statements.forgetSession()
            let reopened = UnsafeSendable(handle)
            try await Self.runBlocking { () throws(PostgresError) in
                PQreset(reopened.value)
                guard PQstatus(reopened.value) == CONNECTION_OK else {
                    throw .connection(message: Self.errorMessage(reopened.value))
                }
            }
            try Self.setNonBlocking(handle)
        }
        // A unit of work that ended without COMMIT/ROLLBACK (a cancelled task) must not leak.
        if PQtransactionStatus(handle) != PQTRANS_IDLE { try await runScript("ROLLBACK") }
        let givenUp = statements.takeGivenUp()
        if !givenUp.isEmpty { try await runScript(givenUp.map { "DEALLOCATE \($0)" }.joined(separator: "; ")) }
    }

    /// The name of the statement for `sql`, prepared on the server the first time this session
    /// sees it, with `types` declared for its first parameters (0: the server infers it).
    private func prepared(_ sql: String, types: [Oid], on handle: OpaquePointer) async throws(PostgresError) -> String {
        if let name = statements.name(of: sql) { return name }
        let sent = PQsendPrepare(handle, statements.nextName, sql, Int32(types.count), types.isEmpty ? nil : types)
        PQclear(try await answer(to: sent, on: handle))
        return statements.addName(for: sql)
    }

    private func runScript(_ sql: String) async throws(PostgresError) {
        let handle = try liveHandle()
        let sent = PQsendQuery(handle, sql)
        PQclear(try await answer(to: sent, on: handle))
    }

    /// Waits for the answer to the command just sent (`sent` is what the `PQsend...` call
    /// returned) and returns its last result, which the caller clears. A script's statements
    /// each leave a result; the first failed one is thrown, after all are read, so the
    /// connection is ready for the next command either way.
    private func answer(to sent: Int32, on handle: OpaquePointer) async throws(PostgresError) -> OpaquePointer {
        guard sent == 1 else { throw .connection(message: Self.errorMessage(handle)) }
        try await flush(handle)
        var last: OpaquePointer?
        var failure: PostgresError?
        while true {
            while PQisBusy(handle) == 1 {
                await PostgresEventLoop.shared.wait(for: PQsocket(handle), .readable)
                guard PQconsumeInput(handle) == 1 else {
                    if let last { PQclear(last) }
                    throw .connection(message: Self.errorMessage(handle))
                }
            }
            guard let result = PQgetResult(handle) else { break }
            if failure == nil {
                do throws(PostgresError) { try Self.check(result, handle) } catch { failure = error }
            }
            if let last { PQclear(last) }
            last = result
        }
        if let failure {
            if let last { PQclear(last) }
            throw failure
        }
        guard let last else { throw .connection(message: Self.errorMessage(handle)) }
        return last
    }

    /// Sends what libpq still holds of the command. While the socket is full the server may be
    /// sending to us, so input is read too (as libpq's documentation asks).
    private func flush(_ handle: OpaquePointer) async throws(PostgresError) {
        while true {
            switch PQflush(handle) {
            case 0: return
            case 1:
                await PostgresEventLoop.shared.wait(for: PQsocket(handle), .readableOrWritable)
                guard PQconsumeInput(handle) == 1 else { throw .connection(message: Self.errorMessage(handle)) }
            default: throw .connection(message: Self.errorMessage(handle))
            }
        }
    }

    private static func setNonBlocking(_ handle: OpaquePointer) throws(PostgresError) {
        guard PQsetnonblocking(handle, 1) == 0 else { throw .connection(message: errorMessage(handle)) }
    }

    /// Runs a blocking libpq call (opening or re-opening a link) on a dispatch thread, so that it
    /// never holds one of the cooperative pool's few threads.
    private static func runBlocking<T: Sendable>(
        _ work: @escaping @Sendable () throws(PostgresError) -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { () throws(PostgresError) in try work() })
            }
        }
    }
}

/// A libpq handle crossing to or from the dispatch thread that opens or resets it; no one else
/// uses the handle meanwhile (its borrower is awaiting that work).
private struct UnsafeSendable: @unchecked Sendable {
    let value: OpaquePointer
    init(_ value: OpaquePointer) { self.value = value }
}

/// A bound value as it travels: text, binary or SQL NULL.
private enum PostgresParameter {
    case null
    case text(String)
    case binary([UInt8])

    init(_ value: any PostgresEncodable) {
        if let bytes = value.postgresBinary {
            self = .binary(bytes)
        } else if let text = value.postgresText {
            self = .text(text)
        } else {
            self = .null
        }
    }

    /// Text is handed to C NUL-terminated, so a NUL inside it would cut it short.
    var holdsNulInText: Bool {
        if case .text(let text) = self { return text.utf8.contains(0) }
        return false
    }

    /// Longer than a value can be (and than `paramLengths`' `int` could say, for bytes).
    var isTooLong: Bool {
        switch self {
        case .null: return false
        case .text(let text): return text.utf8.count >= 1 << 30
        case .binary(let bytes): return bytes.count >= 1 << 30
        }
    }
}

extension Array where Element == PostgresParameter {
    /// bytea's OID for each binary parameter, 0 for the others, up to the last binary one (none
    /// declared when there is none: the statement's parameters stay as many as it names).
    fileprivate var declaredTypes: [Oid] {
        guard let last = lastIndex(where: { if case .binary = $0 { return true } else { return false } }) else { return [] }
        return self[...last].map { if case .binary = $0 { return PostgresType.bytea.rawValue } else { return 0 } }
    }

    /// Lends the values to C as libpq's `paramValues`, `paramLengths` and `paramFormats`: NULL
    /// pointers for SQL NULL, NUL-terminated text (format 0), bytes with their length (format 1).
    fileprivate func withCValues<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        if isEmpty { return body(nil, nil, nil) }
        var pointers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        pointers.reserveCapacity(count)
        for parameter in self {
            switch parameter {
            case .null:
                pointers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .text(let text):
                pointers.append(strdup(text))
                lengths.append(0)
                formats.append(0)
            case .binary(let bytes):
                let copy = malloc(Swift.max(bytes.count, 1))!
                bytes.withUnsafeBytes { source in
                    if let base = source.baseAddress { memcpy(copy, base, bytes.count) }
                }
                pointers.append(copy.assumingMemoryBound(to: CChar.self))
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: count) { values in
                body(values, lengths, formats)
            }
        }
    }
}
