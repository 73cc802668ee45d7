import Domain
import Foundation
import _NIOFileSystem

/// `FileSpool` over swift-nio's file system: every open, write, close and removal runs on its
/// thread pool, never on the thread that called. Handles are scoped (`withFileHandle`), so none
/// outlives its request, whatever the request does.
public struct NIOFileSpool: FileSpool {
    let directory: String

    /// - Parameter directory: created when missing.
    public init(directory: URL) {
        self.directory = directory.path
    }

    public func spool(named name: String, _ fill: (_ write: (ArraySlice<UInt8>) async throws -> Void) async throws -> Void)
        async throws -> String
    {
        _ = try? await FileSystem.shared.createDirectory(at: FilePath(directory), withIntermediateDirectories: true)
        let path = FilePath(directory).appending(name)
        do {
            try await FileSystem.shared.withFileHandle(forWritingAt: path, options: .newFile(replaceExisting: false)) { handle in
                var offset: Int64 = 0
                try await fill { bytes in
                    offset += try await handle.write(contentsOf: bytes, toAbsoluteOffset: offset)
                }
            }
        } catch {
            _ = try? await FileSystem.shared.removeItem(at: path)
            throw error
        }
        return path.string
    }

    public func remove(_ path: String) async {
        _ = try? await FileSystem.shared.removeItem(at: FilePath(path))
    }
}
