/// Where uploaded bytes become local files on their way to the media API, written on threads of
/// their own: the threads that run requests also wait on database sockets, and a blocking write
/// there would stall both.
public protocol FileSpool: Sendable {
    /// Creates a new file named `name` in the spool's directory and writes to it what `fill`
    /// hands its writer, in order. The file is closed whatever happens and removed when `fill`
    /// throws; the caller removes it once done with it.
    /// - Returns: the file's path.
    /// - Throws: what `fill` throws; file system errors.
    func spool(named name: String, _ fill: (_ write: (ArraySlice<UInt8>) async throws -> Void) async throws -> Void) async throws
        -> String

    /// Removes a spooled file; nothing when it is gone already.
    func remove(_ path: String) async
}
