import Foundation

/// A file a client uploaded (a multipart part, or a resumable upload's bytes once complete),
/// spooled to a local file so that no upload sits in memory whole; the route that read it
/// removes it after the use case.
public struct UploadedFile: Hashable, Sendable {
    public static let leadingByteCount = 16

    public let path: String
    public let size: Int
    /// The first `UploadedFile.leadingByteCount` bytes (fewer for a shorter file): enough to tell
    /// a file's format by its signature (`PhotoFormat.sniff`).
    public let leadingBytes: [UInt8]
    /// A resumable upload's id, the same each time its file is handed on (once more after an
    /// instance died handing it on): logic that records the file under this id records it once.
    /// `nil` for a multipart upload, which is handed on once.
    public let id: UUID?

    public init(path: String, size: Int, leadingBytes: [UInt8], id: UUID? = nil) {
        self.path = path
        self.size = size
        self.leadingBytes = leadingBytes
        self.id = id
    }
}
