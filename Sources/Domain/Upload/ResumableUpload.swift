import Foundation

/// An upload a client may cut and resume (draft-ietf-httpbis-resumable-upload): the bytes
/// received so far at `offset`, for a route that gets the whole file once it is complete.
/// Kept in the database, so any instance continues it.
public struct ResumableUpload: Hashable, Sendable {
    public enum State: String, Hashable, Sendable {
        /// Taking bytes.
        case open
        /// Every byte is in; one instance is handing the file to its route.
        case completing
        /// Handed on; `answer` is what the route answered.
        case done
    }

    public let id: UUID
    public let customerID: UUID
    /// The route the finished file goes to, as its spec names it (`POST /v1/reviews/{id}/photos`).
    public let target: String
    /// The route's path parameters, checked when the upload was created.
    public let parameters: [String: String]
    /// The most bytes the route takes.
    public let maxSize: Int
    /// The whole upload's size, once the client has said it or sent its last byte.
    public let length: Int?
    /// Bytes received so far.
    public let offset: Int
    public let state: State
    public let completingUntil: Date?
    public let answer: UploadAnswer?
    public let expiresAt: Date

    public init(
        id: UUID, customerID: UUID, target: String, parameters: [String: String], maxSize: Int, length: Int?, offset: Int,
        state: State, completingUntil: Date?, answer: UploadAnswer?, expiresAt: Date
    ) {
        self.id = id
        self.customerID = customerID
        self.target = target
        self.parameters = parameters
        self.maxSize = maxSize
        self.length = length
        self.offset = offset
        self.state = state
        self.completingUntil = completingUntil
        self.answer = answer
        self.expiresAt = expiresAt
    }

    /// Whether every byte is in.
    public var isComplete: Bool { length == offset }
}

/// What the route answered for a finished upload: given again, not recomputed, to a client
/// that asks to complete the upload a second time (its first answer lost with a cut connection).
public struct UploadAnswer: Hashable, Sendable {
    public let status: Int
    public let contentType: String?
    public let body: [UInt8]

    public init(status: Int, contentType: String?, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// The rules every resumable upload keeps.
public enum ResumableUploadRules {
    /// Bytes are stored in pieces of at most this many; a request holds up to one piece and
    /// what arrived past it in memory.
    public static let chunkSize = 256 * 1024
    /// Bytes are joined to the last piece only while it holds fewer than this many: a client
    /// sending a byte a request adds rows of at least this size, and no request rewrites more than
    /// this beside its own bytes (joining to a piece of up to `chunkSize` made a one-byte request
    /// rewrite 256 KiB).
    public static let joinedBelow = 8 * 1024
    /// Unfinished uploads one customer keeps (each may hold up to its route's limit): starting
    /// another drops the one untouched longest, so uploads a client lost track of (cut before
    /// it learned where they were) never lock it out.
    public static let maximumOpenPerCustomer = 10
    /// When unfinished uploads hold all the bytes the shop keeps for them, one untouched this long
    /// is dropped to make room for an upload under way: accounts that park uploads and send a
    /// byte now and then cannot keep everyone else's from going on.
    public static let idleAfter: Duration = .seconds(60)
    /// How long one instance holds a finished upload while handing it on before another may.
    public static let completionLease: Duration = .seconds(120)
}

/// The bytes every unfinished resumable upload holds together reached the shop's bound
/// (`RESUMABLE_UPLOAD_MAX_PENDING_MIB`): they live in the primary database, which free accounts'
/// uploads left unfinished would otherwise fill.
public struct UploadStorageFull: Error, Equatable, Sendable {
    public init() {}
}
