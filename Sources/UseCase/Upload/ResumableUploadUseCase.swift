import Domain
import Foundation

/// Resumable uploads (draft-ietf-httpbis-resumable-upload) over a store every instance reaches:
/// an upload is started by its route, takes bytes at the offset it holds (from any instance, in
/// as many requests as the client's connection needs), and once complete is assembled into one
/// file and handed to its route exactly once. The protocol's headers are the HTTP layer's.
public struct ResumableUploadUseCase: Sendable {
    let store: any ResumableUploadStore
    /// Where a finished upload is assembled into one file.
    let spool: any FileSpool
    let system: SystemContext
    /// How long an upload lives after its last byte (`RESUMABLE_UPLOAD_TTL_SECONDS`); a finished
    /// one keeps its answer as long.
    public let lifetime: Duration
    /// The most bytes all unfinished uploads hold together (`RESUMABLE_UPLOAD_MAX_PENDING_MIB`).
    let pendingLimit: Int

    public init(store: any ResumableUploadStore, spool: any FileSpool, system: SystemContext, lifetime: Duration, pendingLimit: Int) {
        self.store = store
        self.spool = spool
        self.system = system
        self.lifetime = lifetime
        self.pendingLimit = pendingLimit
    }

    public enum Start: Hashable, Sendable {
        case started(ResumableUpload)
        /// The announced size is past the route's limit.
        case tooLarge(limit: Int)
    }

    /// Starts an upload for `target` (its route's `parameters` already checked) with no bytes;
    /// past `ResumableUploadRules.maximumOpenPerCustomer` unfinished ones, the customer's
    /// upload untouched longest is dropped.
    /// - Parameter id: chosen before the request reached the route (the interim answer that
    ///   told the client where to resume went out with it).
    /// - Throws: `StoreUnavailable`.
    public func start(
        id: UUID, customerID: UUID, target: String, parameters: [String: String], maxSize: Int, length: Int?
    ) async throws -> Start {
        if let length, length > maxSize { return .tooLarge(limit: maxSize) }
        let now = system.now()
        let upload = ResumableUpload(
            id: id, customerID: customerID, target: target, parameters: parameters, maxSize: maxSize, length: length,
            offset: 0, state: .open, completingUntil: nil, answer: nil, expiresAt: now + lifetime)
        try await store.create(upload, maximumOpen: ResumableUploadRules.maximumOpenPerCustomer, now: now)
        return .started(upload)
    }

    /// Seconds until the upload expires unless it gets another byte.
    public func secondsLeft(_ upload: ResumableUpload) -> Int {
        max(0, Int(upload.expiresAt.timeIntervalSince(system.now())))
    }

    /// The customer's upload, unexpired; `nil` for anyone else's.
    /// - Throws: `StoreUnavailable`.
    public func upload(id: UUID, customerID: UUID) async throws -> ResumableUpload? {
        guard let upload = try await store.upload(id: id, now: system.now()), upload.customerID == customerID else { return nil }
        return upload
    }

    public enum Receipt: Hashable, Sendable {
        /// Every byte of the request is stored; the upload as it now stands (complete once the
        /// client said this was the last request).
        case received(ResumableUpload)
        case notFound
        /// The request did not start at the upload's offset, or the upload is no longer
        /// open (finished, or being finished), or another request moved it meanwhile.
        case conflict(offset: Int, complete: Bool)
        /// The bytes go past the route's limit or the announced size: the upload is removed.
        case tooLarge(limit: Int)
        /// The client said the upload is complete at a size other than the one it announced.
        case lengthMismatch(announced: Int, received: Int)
        /// Unfinished uploads hold all the bytes the shop keeps for them (`UploadStorageFull`):
        /// the upload keeps the `offset` bytes stored before, to be resumed later.
        case storageFull(offset: Int)
    }

    /// The request's body ended before the client said it would (the connection was cut):
    /// what arrived is stored.
    public struct BodyCut: Error {
        public let underlying: any Error
    }

    /// Stores `bytes` at `offset`, a piece at a time as they arrive, so a request cut at any
    /// byte keeps all it delivered: when `bytes` fails (the connection was cut), what arrived is
    /// stored and `BodyCut` thrown.
    /// - Parameters:
    ///   - complete: the client says these are the upload's last bytes.
    ///   - length: the whole upload's size, when the client announced it.
    /// - Throws: `BodyCut`, `StoreUnavailable`.
    public func receive<Bytes: AsyncSequence>(
        id: UUID, customerID: UUID, at offset: Int, bytes: Bytes, complete: Bool, length: Int?
    ) async throws -> Receipt where Bytes.Element == [UInt8] {
        guard var upload = try await upload(id: id, customerID: customerID) else { return .notFound }
        guard upload.state == .open, upload.offset == offset else {
            return .conflict(offset: upload.offset, complete: upload.isComplete)
        }
        if let length {
            if let refusal = try await announce(length, of: upload) { return refusal }
        }
        let limit = min(upload.maxSize, length ?? upload.length ?? upload.maxSize)
        var appender = Appender(useCase: self, id: id, offset: offset)
        var pieces = bytes.makeAsyncIterator()
        do {
            while true {
                let next: [UInt8]?
                do {
                    next = try await pieces.next()
                } catch {
                    _ = try? await appender.flush(all: true)
                    throw BodyCut(underlying: error)
                }
                guard let piece = next else { break }
                guard appender.offset + appender.pending.count + piece.count <= limit else {
                    _ = try await store.delete(id: id, customerID: customerID)
                    return .tooLarge(limit: limit)
                }
                appender.pending += piece
                // Whole pieces only while the body lasts: its end stores the rest.
                guard try await appender.flush(all: false) else { return try await conflict(id: id) }
            }
            guard try await appender.flush(all: true) else { return try await conflict(id: id) }
        } catch is UploadStorageFull {
            return .storageFull(offset: appender.offset)
        }
        upload = try await self.upload(id: id, customerID: customerID) ?? upload
        if complete {
            if let announced = upload.length, announced != upload.offset {
                return .lengthMismatch(announced: announced, received: upload.offset)
            }
            guard try await store.setLength(id: id, length: upload.offset) else { return try await conflict(id: id) }
            upload = try await self.upload(id: id, customerID: customerID) ?? upload
        }
        return .received(upload)
    }

    /// Records an announced size, refused when it contradicts what is known.
    private func announce(_ length: Int, of upload: ResumableUpload) async throws -> Receipt? {
        guard length <= upload.maxSize else {
            _ = try await store.delete(id: upload.id, customerID: upload.customerID)
            return .tooLarge(limit: upload.maxSize)
        }
        guard try await store.setLength(id: upload.id, length: length) else {
            return .lengthMismatch(announced: upload.length ?? length, received: upload.offset)
        }
        return nil
    }

    private func conflict(id: UUID) async throws -> Receipt {
        guard let upload = try await store.upload(id: id, now: system.now()) else { return .notFound }
        return .conflict(offset: upload.offset, complete: upload.isComplete)
    }

    /// The bytes of one request not stored yet, and where they go.
    private struct Appender {
        let useCase: ResumableUploadUseCase
        let id: UUID
        var offset: Int
        var pending: [UInt8] = []

        init(useCase: ResumableUploadUseCase, id: UUID, offset: Int) {
            self.useCase = useCase
            self.id = id
            self.offset = offset
        }

        /// Stores what is pending in pieces of `chunkSize`, and with `all` the shorter rest too;
        /// `false` when another request moved the upload first.
        mutating func flush(all: Bool) async throws -> Bool {
            while pending.count >= (all ? 1 : ResumableUploadRules.chunkSize) {
                let piece = Array(pending.prefix(ResumableUploadRules.chunkSize))
                let now = useCase.system.now()
                guard
                    let stored = try await useCase.store.append(
                        id: id, at: offset, bytes: piece, pendingLimit: useCase.pendingLimit, now: now,
                        expiresAt: now + useCase.lifetime)
                else { return false }
                offset = stored
                pending.removeFirst(piece.count)
            }
            return true
        }
    }

    public enum Completion: Hashable, Sendable {
        /// What the route answered, now or the first time.
        case answered(UploadAnswer)
        /// Another instance is handing it on at this moment.
        case inProgress
        /// It is not complete (or no longer exists).
        case notReady
    }

    /// Hands a complete upload to its route once: assembles its bytes into one file (`spool`),
    /// runs `deliver` on it and keeps the answer, which a second call gives again.
    /// An answer of 500 or more is not kept: the upload stays complete and the next call tries
    /// again (as after an instance died while delivering, once its lease has run out).
    /// - Throws: `StoreUnavailable`; file system errors.
    public func complete(_ upload: ResumableUpload, deliver: (UploadedFile) async -> UploadAnswer) async throws -> Completion {
        if upload.state == .done, let answer = upload.answer { return .answered(answer) }
        guard upload.isComplete else { return .notReady }
        let now = system.now()
        guard let claim = try await store.claimCompletion(id: upload.id, now: now, until: now + ResumableUploadRules.completionLease)
        else {
            guard let current = try await store.upload(id: upload.id, now: now) else { return .notReady }
            if current.state == .done, let answer = current.answer { return .answered(answer) }
            return .inProgress
        }
        let file: UploadedFile
        do {
            file = try await assemble(upload)
        } catch {
            try? await store.releaseCompletion(id: upload.id, claim: claim)
            throw error
        }
        let answer = await deliver(file)
        await spool.remove(file.path)
        if answer.status >= 500 {
            try await store.releaseCompletion(id: upload.id, claim: claim)
        } else {
            try await store.finish(id: upload.id, claim: claim, answer: answer, expiresAt: system.now() + lifetime)
        }
        return .answered(answer)
    }

    /// Writes the upload's pieces, in order, to a file of its own, its metadata dropped on the way
    /// as a multipart upload's is (`PhotoMetadataFilter`): the route gets the same file either
    /// way. One piece is read at a time: a piece's row arrives as hex text twice its size, so
    /// four at once (1 MiB) made completing uploads the largest use of memory per upload.
    private func assemble(_ upload: ResumableUpload) async throws -> UploadedFile {
        var metadata = PhotoMetadataFilter()
        var size = 0
        var leading: [UInt8] = []
        let path = try await spool.spool(named: "resumable-\(upload.id.lowercasedText)-\(system.newID())") { write in
            func keep(_ bytes: [UInt8]) async throws {
                if leading.count < UploadedFile.leadingByteCount { leading += bytes.prefix(UploadedFile.leadingByteCount - leading.count) }
                size += bytes.count
                try await write(bytes[...])
            }
            var offset = 0
            while offset < upload.offset {
                let chunks = try await store.chunks(id: upload.id, from: offset, limit: 1)
                guard chunks.first?.offset == offset else { throw UploadCorrupt(id: upload.id, offset: offset) }
                for chunk in chunks {
                    guard chunk.offset == offset else { throw UploadCorrupt(id: upload.id, offset: offset) }
                    try await keep(metadata.filter(chunk.bytes[...]))
                    offset += chunk.bytes.count
                }
            }
            try await keep(metadata.finish())
        }
        return UploadedFile(path: path, size: size, leadingBytes: leading, id: upload.id)
    }

    /// The stored pieces do not cover the upload up to its offset (a bug, or rows removed by hand).
    struct UploadCorrupt: Error {
        let id: UUID
        let offset: Int
    }

    /// Cancels the customer's upload and drops its bytes; `false` when they hold no such upload.
    /// - Throws: `StoreUnavailable`.
    public func cancel(id: UUID, customerID: UUID) async throws -> Bool {
        try await store.delete(id: id, customerID: customerID)
    }

    /// Removes uploads past their expiry (abandoned ones, and finished ones' kept answers).
    /// - Throws: `StoreUnavailable`.
    public func purgeExpired() async throws -> Int {
        try await store.purgeExpired(now: system.now())
    }
}
