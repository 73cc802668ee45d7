import Foundation

/// Where resumable uploads and their bytes are kept, reachable from every instance.
public protocol ResumableUploadStore: Sendable {
    /// Records a new upload with no bytes; when its customer then holds more than `maximumOpen`
    /// unfinished ones (unexpired at `now`), removes those untouched longest.
    /// - Throws: `StoreUnavailable`.
    func create(_ upload: ResumableUpload, maximumOpen: Int, now: Date) async throws

    /// The upload, unless it does not exist or expired before `now`.
    /// - Throws: `StoreUnavailable`.
    func upload(id: UUID, now: Date) async throws -> ResumableUpload?

    /// Appends `bytes` (at most `ResumableUploadRules.chunkSize`) at `offset` if the upload is
    /// open, unexpired and holds exactly `offset` bytes (a conditional update: of two requests
    /// appending at once, one lands), and moves its expiry to `expiresAt`; joins them to the
    /// last stored piece when it holds fewer than `ResumableUploadRules.joinedBelow` and both
    /// fit in one. The new offset, or `nil` when it did not land.
    /// - Parameter pendingLimit: the most bytes every unfinished upload of the shop may hold
    ///   together, these included (uploads racing may pass it by their pieces, never more); to
    ///   stay within it, other open uploads untouched for `ResumableUploadRules.idleAfter` are
    ///   removed, those untouched longest first.
    /// - Throws: `UploadStorageFull` when even so these bytes would pass it, nothing stored or
    ///   removed; `StoreUnavailable`.
    func append(id: UUID, at offset: Int, bytes: [UInt8], pendingLimit: Int, now: Date, expiresAt: Date) async throws -> Int?

    /// Records the whole upload's size if the upload is open and it agrees with what is known
    /// (no size yet or the same, and no fewer bytes than are in). `false` when it does not.
    /// - Throws: `StoreUnavailable`.
    func setLength(id: UUID, length: Int) async throws -> Bool

    /// Takes the finished upload to hand it on until `until` (and keeps it at least that long):
    /// it is complete and open, or another instance's lease ran out before `now`. The claim's
    /// id, or `nil` when another holds it or it is done.
    /// - Throws: `StoreUnavailable`.
    func claimCompletion(id: UUID, now: Date, until: Date) async throws -> UUID?

    /// The stored pieces from `offset` on, in order, at most `limit` of them.
    /// - Throws: `StoreUnavailable`.
    func chunks(id: UUID, from offset: Int, limit: Int) async throws -> [(offset: Int, bytes: [UInt8])]

    /// Marks the upload done with the route's answer and drops its bytes, if `claim` still
    /// holds it.
    /// - Throws: `StoreUnavailable`.
    func finish(id: UUID, claim: UUID, answer: UploadAnswer, expiresAt: Date) async throws

    /// Gives a completion claim back (the route failed), if `claim` still holds it: the next
    /// request to complete the upload tries again.
    /// - Throws: `StoreUnavailable`.
    func releaseCompletion(id: UUID, claim: UUID) async throws

    /// Removes the customer's upload with its bytes, unless an instance is handing it on;
    /// `false` when they hold no such upload or it is being handed on.
    /// - Throws: `StoreUnavailable`.
    func delete(id: UUID, customerID: UUID) async throws -> Bool

    /// Removes every upload that expired before `now`; how many.
    /// - Throws: `StoreUnavailable`.
    func purgeExpired(now: Date) async throws -> Int
}
