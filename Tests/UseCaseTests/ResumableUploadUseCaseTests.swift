import Domain
import Foundation
import PropertyBased
import Scenes
import Synchronization
import Testing
import UseCase

/// Resumable uploads on an in-memory store that keeps the store's rules (an append lands only
/// at the offset the upload holds): cut anywhere and resumed, a file arrives whole; it is handed
/// on once; limits hold.
@Suite("Resumable uploads")
struct ResumableUploadUseCaseTests {
    final class Store: ResumableUploadStore {
        struct Row {
            var upload: ResumableUpload
            var chunks: [(offset: Int, bytes: [UInt8])] = []
            var claim: UUID?
        }
        let rows = Mutex<[UUID: Row]>([:])

        func create(_ upload: ResumableUpload, maximumOpen: Int, now: Date) async throws {
            rows.withLock { rows in
                rows[upload.id] = Row(upload: upload)
                let open = rows.values.map(\.upload).filter { $0.customerID == upload.customerID && $0.state == .open }
                for dropped in open.sorted(by: { $0.expiresAt > $1.expiresAt }).dropFirst(maximumOpen) { rows[dropped.id] = nil }
            }
        }
        func upload(id: UUID, now: Date) async throws -> ResumableUpload? {
            rows.withLock { $0[id]?.upload }.flatMap { $0.expiresAt > now ? $0 : nil }
        }
        func append(id: UUID, at offset: Int, bytes: [UInt8], pendingLimit: Int, now: Date, expiresAt: Date) async throws -> Int? {
            try rows.withLock { rows in
                let held = rows.values.filter { $0.upload.state != .done }.map(\.upload.offset).reduce(0, +)
                guard held + bytes.count <= pendingLimit else { throw UploadStorageFull() }
                guard var row = rows[id], row.upload.state == .open, row.upload.offset == offset,
                    offset + bytes.count <= (row.upload.length ?? row.upload.maxSize)
                else { return nil }
                row.chunks.append((offset, bytes))
                row.upload = row.upload.with(offset: offset + bytes.count, expiresAt: expiresAt)
                rows[id] = row
                return offset + bytes.count
            }
        }
        func setLength(id: UUID, length: Int) async throws -> Bool {
            rows.withLock { rows in
                guard var row = rows[id], row.upload.state == .open, row.upload.length == nil || row.upload.length == length,
                    row.upload.offset <= length, length <= row.upload.maxSize
                else { return false }
                row.upload = row.upload.with(length: length)
                rows[id] = row
                return true
            }
        }
        func claimCompletion(id: UUID, now: Date, until: Date) async throws -> UUID? {
            rows.withLock { rows in
                guard var row = rows[id], row.upload.isComplete,
                    row.upload.state == .open || (row.upload.state == .completing && row.upload.completingUntil! <= now)
                else { return nil }
                row.upload = row.upload.with(state: .completing, until: until)
                row.claim = UUID()
                rows[id] = row
                return row.claim
            }
        }
        func chunks(id: UUID, from offset: Int, limit: Int) async throws -> [(offset: Int, bytes: [UInt8])] {
            Array((rows.withLock { $0[id]?.chunks } ?? []).filter { $0.offset >= offset }.prefix(limit))
        }
        func finish(id: UUID, claim: UUID, answer: UploadAnswer, expiresAt: Date) async throws {
            rows.withLock { rows in
                guard let row = rows[id], row.upload.state == .completing, row.claim == claim else { return }
                rows[id] = Row(upload: row.upload.with(state: .done, until: .some(nil), answer: answer))
            }
        }
        func releaseCompletion(id: UUID, claim: UUID) async throws {
            rows.withLock { rows in
                guard var row = rows[id], row.upload.state == .completing, row.claim == claim else { return }
                row.upload = row.upload.with(state: .open, until: .some(nil))
                rows[id] = row
            }
        }
        func delete(id: UUID, customerID: UUID) async throws -> Bool {
            rows.withLock { rows in
                guard rows[id]?.upload.customerID == customerID, rows[id]?.upload.state != .completing else { return false }
                rows[id] = nil
                return true
            }
        }
        func purgeExpired(now: Date) async throws -> Int {
            rows.withLock { rows in
                let expired = rows.filter { $0.value.upload.expiresAt <= now }.map(\.key)
                for id in expired { rows[id] = nil }
                return expired.count
            }
        }
    }

    struct Cut: Error {}

    static let customer = UUID()
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resumable-tests-\(UUID())")

    /// `pieces` as a request body, failing after them when `cut` (the connection dropped).
    static func body(_ pieces: [[UInt8]], cut: Bool = false) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish(throwing: cut ? Cut() : nil)
        }
    }

    static func useCase(_ store: Store, now: @escaping @Sendable () -> Date = { Date() }) -> ResumableUploadUseCase {
        UploadContainer(
            store: store, spool: Spool(), system: SystemContext(now: now, newID: { UUID() }), lifetime: .seconds(3600),
            pendingLimit: 1 << 30
        ).useCase
    }

    /// Files in a directory of the test's own, written with Foundation.
    struct Spool: FileSpool {
        func spool(named name: String, _ fill: (_ write: (ArraySlice<UInt8>) async throws -> Void) async throws -> Void)
            async throws -> String
        {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent(name).path
            var bytes: [UInt8] = []
            try await fill { bytes += $0 }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        func remove(_ path: String) async { try? FileManager.default.removeItem(atPath: path) }
    }

    static func start(_ useCase: ResumableUploadUseCase, maxSize: Int = 10_000_000, length: Int? = nil) async throws -> ResumableUpload {
        let start = try await useCase.start(
            id: UUID(), customerID: customer, target: "POST /v1/things/{id}/files", parameters: ["id": "x"], maxSize: maxSize,
            length: length)
        guard case .started(let upload) = start else { throw Cut() }
        return upload
    }

    /// Splits `bytes` into pieces of the given sizes (cycled), as a connection delivers them.
    static func split(_ bytes: ArraySlice<UInt8>, sizes: [Int]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var rest = bytes
        var index = 0
        while !rest.isEmpty {
            let size = max(1, sizes[index % sizes.count])
            pieces.append(Array(rest.prefix(size)))
            rest = rest.dropFirst(size)
            index += 1
        }
        return pieces
    }

    @Test("an upload cut at any bytes, any number of times, and resumed from the offset the store holds arrives whole, handed on once")
    func cutAndResumed() async throws {
        let sizes = Gen.int(in: 1...300_000).array(of: 1...4)
        let cuts = Gen.int(in: 0...1000).array(of: 0...5)
        await propertyCheck(count: 40, input: Gen.int(in: 0...700_000), sizes, cuts) { length, pieceSizes, cutPoints in
            let store = Store()
            let uploads = Self.useCase(store)
            let file = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            let upload = try await Self.start(uploads)
            // Each cut stops a request at a point of the bytes still to send, in thousandths.
            for point in cutPoints {
                let offset = try #require(try await uploads.upload(id: upload.id, customerID: Self.customer)).offset
                let end = offset + (length - offset) * point / 1000
                let body = Self.body(Self.split(file[offset..<end], sizes: pieceSizes), cut: true)
                await #expect(throws: ResumableUploadUseCase.BodyCut.self) {
                    _ = try await uploads.receive(
                        id: upload.id, customerID: Self.customer, at: offset, bytes: body, complete: true, length: nil)
                }
                // Everything sent before the cut is kept.
                #expect(try await uploads.upload(id: upload.id, customerID: Self.customer)?.offset == end)
            }
            let offset = try #require(try await uploads.upload(id: upload.id, customerID: Self.customer)).offset
            let receipt = try await uploads.receive(
                id: upload.id, customerID: Self.customer, at: offset, bytes: Self.body(Self.split(file[offset...], sizes: pieceSizes)),
                complete: true, length: nil)
            guard case .received(let stored) = receipt else { Issue.record("not received: \(receipt)"); return }
            #expect(stored.isComplete && stored.offset == length)
            let delivered = Mutex<[[UInt8]]>([])
            for _ in 0..<2 {
                let completion = try await uploads.complete(stored) { uploaded in
                    let bytes = FileManager.default.contents(atPath: uploaded.path).map(Array.init) ?? []
                    delivered.withLock { $0.append(bytes) }
                    #expect(uploaded.id == upload.id && uploaded.size == length)
                    #expect(uploaded.leadingBytes == Array(file.prefix(UploadedFile.leadingByteCount)))
                    return UploadAnswer(status: 201, contentType: "application/json", body: Array("{}".utf8))
                }
                #expect(completion == .answered(UploadAnswer(status: 201, contentType: "application/json", body: Array("{}".utf8))))
            }
            #expect(delivered.withLock { $0 } == [file])
        }
    }

    @Test("a request that does not start at the upload's offset is refused with the offset, and stores nothing")
    func conflict() async throws {
        let store = Store()
        let uploads = Self.useCase(store)
        let upload = try await Self.start(uploads)
        _ = try await uploads.receive(
            id: upload.id, customerID: Self.customer, at: 0, bytes: Self.body([[1, 2, 3]]), complete: false, length: nil)
        for offset in [0, 2, 4] {
            let receipt = try await uploads.receive(
                id: upload.id, customerID: Self.customer, at: offset, bytes: Self.body([[9]]), complete: false, length: nil)
            #expect(receipt == .conflict(offset: 3, complete: false))
        }
        let someoneElse = try await uploads.receive(
            id: upload.id, customerID: UUID(), at: 3, bytes: Self.body([[9]]), complete: false, length: nil)
        #expect(someoneElse == .notFound)
    }

    @Test("bytes past the route's limit or the announced length remove the upload; a complete at another length is refused")
    func limits() async throws {
        let uploads = Self.useCase(Store())
        let small = try await Self.start(uploads, maxSize: 10)
        let over = try await uploads.receive(
            id: small.id, customerID: Self.customer, at: 0,
            bytes: Self.body([[UInt8](repeating: 1, count: 6), [UInt8](repeating: 2, count: 5)]),
            complete: true, length: nil)
        #expect(over == .tooLarge(limit: 10))
        #expect(try await uploads.upload(id: small.id, customerID: Self.customer) == nil)

        let announced = try await Self.start(uploads, maxSize: 100, length: 4)
        let past = try await uploads.receive(
            id: announced.id, customerID: Self.customer, at: 0, bytes: Self.body([[1, 2, 3, 4, 5]]), complete: true, length: nil)
        #expect(past == .tooLarge(limit: 4))

        let short = try await Self.start(uploads, maxSize: 100, length: 4)
        let mismatch = try await uploads.receive(
            id: short.id, customerID: Self.customer, at: 0, bytes: Self.body([[1, 2, 3]]), complete: true, length: nil)
        #expect(mismatch == .lengthMismatch(announced: 4, received: 3))

        let start = try await uploads.start(
            id: UUID(), customerID: Self.customer, target: "t", parameters: [:], maxSize: 10, length: 11)
        #expect(start == .tooLarge(limit: 10))
    }

    @Test("a customer keeps ResumableUploadRules.maximumOpenPerCustomer unfinished uploads: another drops the one untouched longest")
    func openUploads() async throws {
        let store = Store()
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let uploads = Self.useCase(store) {
            clock.withLock {
                $0 += 1; return $0
            }
        }
        var started: [ResumableUpload] = []
        for _ in 0..<ResumableUploadRules.maximumOpenPerCustomer { started.append(try await Self.start(uploads)) }
        // The first one gets a byte: the second is now the one untouched longest.
        _ = try await uploads.receive(
            id: started[0].id, customerID: Self.customer, at: 0, bytes: Self.body([[1]]), complete: false, length: nil)
        let other = try await uploads.start(id: UUID(), customerID: UUID(), target: "t", parameters: [:], maxSize: 10, length: nil)
        guard case .started = other else { Issue.record("another customer's upload was refused"); return }
        _ = try await Self.start(uploads)
        #expect(try await uploads.upload(id: started[1].id, customerID: Self.customer) == nil)
        #expect(try await uploads.upload(id: started[0].id, customerID: Self.customer) != nil)
        let open = store.rows.withLock { $0.values.filter { $0.upload.customerID == Self.customer }.count }
        #expect(open == ResumableUploadRules.maximumOpenPerCustomer)
    }

    @Test("two completions at once hand the file on once; an answer of 500 or more is not kept, and the next one tries again")
    func completion() async throws {
        let store = Store()
        let uploads = Self.useCase(store)
        let upload = try await Self.start(uploads)
        guard
            case .received(let stored) = try await uploads.receive(
                id: upload.id, customerID: Self.customer, at: 0, bytes: Self.body([[0xFF, 0xD8, 0xFF]]), complete: true, length: nil)
        else { Issue.record("not received"); return }
        let failing = try await uploads.complete(stored) { _ in UploadAnswer(status: 502, contentType: nil, body: []) }
        #expect(failing == .answered(UploadAnswer(status: 502, contentType: nil, body: [])))
        #expect(try await uploads.upload(id: upload.id, customerID: Self.customer)?.state == .open)

        final class Calls: Sendable { let count = Mutex(0) }
        let calls = Calls()
        let answers = try await withThrowingTaskGroup(of: ResumableUploadUseCase.Completion.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await uploads.complete(stored) { _ in
                        calls.count.withLock { $0 += 1 }
                        try? await Task.sleep(for: .milliseconds(50))
                        return UploadAnswer(status: 201, contentType: nil, body: [1])
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(calls.count.withLock { $0 } == 1)
        #expect(answers.filter { $0 == .answered(UploadAnswer(status: 201, contentType: nil, body: [1])) }.count >= 1)
        #expect(answers.allSatisfy { $0 == .inProgress || $0 == .answered(UploadAnswer(status: 201, contentType: nil, body: [1])) })
    }

    @Test("an instance that died handing the file on holds it only until its lease ends")
    func lease() async throws {
        let store = Store()
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let uploads = Self.useCase(store) { clock.withLock { $0 } }
        let upload = try await Self.start(uploads)
        guard
            case .received(let stored) = try await uploads.receive(
                id: upload.id, customerID: Self.customer, at: 0, bytes: Self.body([[1]]), complete: true, length: nil)
        else { Issue.record("not received"); return }
        let now = clock.withLock { $0 }
        let stale = try #require(
            try await store.claimCompletion(id: upload.id, now: now, until: now + ResumableUploadRules.completionLease))
        let held = try await uploads.complete(stored) { _ in UploadAnswer(status: 201, contentType: nil, body: []) }
        #expect(held == .inProgress)
        clock.withLock { $0 = $0 + ResumableUploadRules.completionLease + .seconds(1) }
        let retried = try await uploads.complete(stored) { _ in UploadAnswer(status: 201, contentType: nil, body: []) }
        #expect(retried == .answered(UploadAnswer(status: 201, contentType: nil, body: [])))
        // The instance that lost its lease records nothing over the answer kept.
        try await store.finish(id: upload.id, claim: stale, answer: UploadAnswer(status: 409, contentType: nil, body: []), expiresAt: now)
        try await store.releaseCompletion(id: upload.id, claim: stale)
        let kept = try await uploads.upload(id: upload.id, customerID: Self.customer)
        #expect(kept?.state == .done && kept?.answer?.status == 201)
    }
}

extension ResumableUpload {
    fileprivate func with(
        offset: Int? = nil, length: Int? = nil, state: State? = nil, until: Date?? = nil, answer: UploadAnswer? = nil,
        expiresAt: Date? = nil
    ) -> ResumableUpload {
        ResumableUpload(
            id: id, customerID: customerID, target: target, parameters: parameters, maxSize: maxSize, length: length ?? self.length,
            offset: offset ?? self.offset, state: state ?? self.state, completingUntil: until ?? completingUntil,
            answer: answer ?? self.answer, expiresAt: expiresAt ?? self.expiresAt)
    }
}
