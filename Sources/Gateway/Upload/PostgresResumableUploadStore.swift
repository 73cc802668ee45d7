import Domain
import Foundation
import Postgres

/// Resumable uploads in `resumable_uploads` and their bytes in `resumable_upload_chunks`
/// (Migrations/0026), where every instance reaches them. `received` moves only by a conditional
/// update in the transaction that stores the chunk, so of two requests appending at one offset
/// one lands and the other is told the new offset.
public struct PostgresResumableUploadStore: ResumableUploadStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    private static let columns = """
        id, customer_id, target, parameters::text AS parameters, max_size, length, received, state, completing_until,
        answer_status, answer_content_type, answer_body, expires_at
        """

    public func create(_ upload: ResumableUpload, maximumOpen: Int, now: Date) async throws {
        let parameters = String(decoding: try JSONEncoder().encode(upload.parameters), as: UTF8.self)
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                // Locks the customer: two uploads started at once count one after the other.
                try await connection.query("SELECT id FROM customers WHERE id = $1 FOR UPDATE", upload.customerID)
                try await connection.query(
                    """
                    INSERT INTO resumable_uploads (id, customer_id, target, parameters, max_size, length, created_at, expires_at)
                    VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8)
                    """, upload.id, upload.customerID, upload.target, parameters, upload.maxSize, upload.length, now,
                    upload.expiresAt)
                // Past the bound, the open ones untouched longest go (their expiry is their last byte's).
                try await connection.query(
                    """
                    DELETE FROM resumable_uploads WHERE id IN (
                        SELECT id FROM resumable_uploads
                        WHERE customer_id = $1 AND state = 'open' AND expires_at > $2
                        ORDER BY expires_at DESC, created_at DESC OFFSET $3)
                    """, upload.customerID, now, maximumOpen)
            }
        }
    }

    public func upload(id: UUID, now: Date) async throws -> ResumableUpload? {
        let rows = try await translatingUnavailable {
            try await database.query("SELECT \(Self.columns) FROM resumable_uploads WHERE id = $1 AND expires_at > $2", id, now).rows
        }
        return try rows.first.map(Self.upload(from:))
    }

    public func append(id: UUID, at offset: Int, bytes: [UInt8], pendingLimit: Int, now: Date, expiresAt: Date) async throws -> Int? {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                // An upload's expiry is its last byte's time and its lifetime: one untouched for
                // `idleAfter` expires at least that long before this one now will.
                try await makeRoom(
                    for: bytes.count, besides: id, within: pendingLimit, idleUntil: expiresAt - ResumableUploadRules.idleAfter,
                    on: connection)
                let moved = try await connection.query(
                    """
                    UPDATE resumable_uploads SET received = received + $3, expires_at = $5
                    WHERE id = $1 AND received = $2 AND state = 'open' AND expires_at > $4
                      AND received + $3 <= COALESCE(length, max_size)
                    RETURNING received
                    """, id, offset, bytes.count, now, expiresAt
                ).rows
                guard let row = moved.first else { return nil }
                // Joined to the last piece while it is small (`joinedBelow`) and both fit in one:
                // a client sending a byte a request adds bytes, not rows, and rewrites little.
                let joined = try await connection.query(
                    """
                    UPDATE resumable_upload_chunks SET bytes = bytes || $2::bytea
                    WHERE upload_id = $1 AND start_offset = (
                        SELECT max(start_offset) FROM resumable_upload_chunks WHERE upload_id = $1)
                      AND length(bytes) < $4 AND length(bytes) + length($2::bytea) <= $3
                    RETURNING start_offset
                    """, id, bytes, ResumableUploadRules.chunkSize, ResumableUploadRules.joinedBelow
                ).rows
                if joined.isEmpty {
                    try await connection.query(
                        "INSERT INTO resumable_upload_chunks (upload_id, start_offset, bytes) VALUES ($1, $2, $3)", id, offset, bytes)
                }
                return try row.decode("received") as Int
            }
        }
    }

    /// Keeps what unfinished uploads hold (expired ones the purge has not reached included: their
    /// bytes are on disk until it does) within `limit` with `count` more bytes: when it would
    /// pass, open uploads expiring by `idleUntil` (untouched for a while) are dropped, those
    /// untouched longest first, as many as make room; when those cannot, none is.
    /// - Throws: `UploadStorageFull` when there is no room even so.
    private func makeRoom(
        for count: Int, besides id: UUID, within limit: Int, idleUntil: Date, on connection: PostgresConnection
    ) async throws {
        let held: Int = try await connection.query(
            "SELECT COALESCE(sum(received), 0)::bigint AS held FROM resumable_uploads WHERE state <> 'done'"
        ).rows[0].decode("held")
        let needed = held + count - limit
        guard needed > 0 else { return }
        let freed = try await connection.query(
            """
            WITH idle AS (
                SELECT id, received, sum(received) OVER (ORDER BY expires_at, id) AS upto FROM resumable_uploads
                WHERE state = 'open' AND id <> $1 AND received > 0 AND expires_at <= $2
            )
            DELETE FROM resumable_uploads WHERE id IN (SELECT id FROM idle WHERE upto - received < $3)
              AND (SELECT max(upto) FROM idle) >= $3
            RETURNING received
            """, id, idleUntil, needed
        ).rows.reduce(0) { $0 + (try $1.decode("received") as Int) }
        guard freed >= needed else { throw UploadStorageFull() }
    }

    public func setLength(id: UUID, length: Int) async throws -> Bool {
        try await translatingUnavailable {
            try await !database.query(
                """
                UPDATE resumable_uploads SET length = $2
                WHERE id = $1 AND state = 'open' AND (length IS NULL OR length = $2) AND received <= $2 AND $2 <= max_size
                RETURNING id
                """, id, length
            ).rows.isEmpty
        }
    }

    public func claimCompletion(id: UUID, now: Date, until: Date) async throws -> UUID? {
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                UPDATE resumable_uploads
                SET state = 'completing', claim_id = gen_random_uuid(), completing_until = $3, expires_at = GREATEST(expires_at, $3)
                WHERE id = $1 AND length = received AND expires_at > $2
                  AND (state = 'open' OR (state = 'completing' AND completing_until <= $2))
                RETURNING claim_id
                """, id, now, until
            ).rows
        }
        return try rows.first?.decode("claim_id")
    }

    public func chunks(id: UUID, from offset: Int, limit: Int) async throws -> [(offset: Int, bytes: [UInt8])] {
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                SELECT start_offset, bytes FROM resumable_upload_chunks
                WHERE upload_id = $1 AND start_offset >= $2 ORDER BY start_offset LIMIT $3
                """, id, offset, limit
            ).rows
        }
        return try rows.map { (try $0.decode("start_offset"), try $0.decode("bytes")) }
    }

    public func finish(id: UUID, claim: UUID, answer: UploadAnswer, expiresAt: Date) async throws {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                let finished = try await connection.query(
                    """
                    UPDATE resumable_uploads SET state = 'done', claim_id = NULL, completing_until = NULL, answer_status = $3,
                        answer_content_type = $4, answer_body = $5, expires_at = $6
                    WHERE id = $1 AND state = 'completing' AND claim_id = $2
                    RETURNING id
                    """, id, claim, answer.status, answer.contentType, answer.body, expiresAt
                ).rows
                if !finished.isEmpty { try await connection.query("DELETE FROM resumable_upload_chunks WHERE upload_id = $1", id) }
            }
        }
    }

    public func releaseCompletion(id: UUID, claim: UUID) async throws {
        try await translatingUnavailable {
            try await database.query(
                """
                UPDATE resumable_uploads SET state = 'open', claim_id = NULL, completing_until = NULL
                WHERE id = $1 AND state = 'completing' AND claim_id = $2
                """, id, claim)
        }
    }

    public func delete(id: UUID, customerID: UUID) async throws -> Bool {
        try await translatingUnavailable {
            try await !database.query(
                "DELETE FROM resumable_uploads WHERE id = $1 AND customer_id = $2 AND state <> 'completing' RETURNING id", id,
                customerID
            ).rows.isEmpty
        }
    }

    public func purgeExpired(now: Date) async throws -> Int {
        // In batches, each well within the statement timeout however much expired at once.
        var purged = 0
        while true {
            let batch = try await translatingUnavailable {
                try await database.query(
                    """
                    DELETE FROM resumable_uploads WHERE id IN (
                        SELECT id FROM resumable_uploads WHERE expires_at <= $1 LIMIT $2)
                    """, now, Self.purgeBatch
                ).affectedRows
            }
            purged += batch
            guard batch == Self.purgeBatch else { return purged }
        }
    }

    /// Uploads deleted by one statement of the purge, each with up to some 40 pieces.
    static let purgeBatch = 100

    static func upload(from row: PostgresRow) throws -> ResumableUpload {
        let parametersText: String = try row.decode("parameters")
        let state = try row.enumeration("state", as: ResumableUpload.State.self)
        guard let parameters = try? JSONDecoder().decode([String: String].self, from: Data(parametersText.utf8)) else {
            throw PostgresError.decoding(column: "parameters", swiftType: "[String: String]", postgresType: "jsonb")
        }
        let status: Int? = try row.decode("answer_status")
        let answer = try status.map {
            UploadAnswer(status: $0, contentType: try row.decode("answer_content_type"), body: try row.decode("answer_body") ?? [])
        }
        return ResumableUpload(
            id: try row.decode("id"), customerID: try row.decode("customer_id"), target: try row.decode("target"),
            parameters: parameters, maxSize: try row.decode("max_size"), length: try row.decode("length"),
            offset: try row.decode("received"), state: state, completingUntil: try row.decode("completing_until"), answer: answer,
            expiresAt: try row.decode("expires_at"))
    }
}
