/// A file a client uploaded (a multipart part), spooled to a local file while it was read so
/// that no upload sits in memory whole; the route that read it removes it after the use case.
public struct UploadedFile: Hashable, Sendable {
    public static let leadingByteCount = 16

    public let path: String
    public let size: Int
    /// The first `UploadedFile.leadingByteCount` bytes (fewer for a shorter file): enough to tell
    /// a file's format by its signature (`PhotoFormat.sniff`).
    public let leadingBytes: [UInt8]

    public init(path: String, size: Int, leadingBytes: [UInt8]) {
        self.path = path
        self.size = size
        self.leadingBytes = leadingBytes
    }
}
