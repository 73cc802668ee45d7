import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// `HTTPMediaStorage` against the real media server `./Tools/test` starts on loopback.
@Suite("HTTPMediaStorage against Tools/media-server")
struct HTTPMediaStorageTests {
    func media() throws -> (storage: HTTPMediaStorage, directory: URL) {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["STOREFRONT_TEST_MEDIA_URL"], let directory = environment["STOREFRONT_TEST_MEDIA_DIRECTORY"] else {
            throw TestSetupError("STOREFRONT_TEST_MEDIA_URL is not set: run the media tests through ./Tools/test")
        }
        return (HTTPMediaStorage(baseURL: url), URL(fileURLWithPath: directory))
    }

    /// A file of `size` bytes starting with a PNG signature.
    static func file(size: Int) throws -> UploadedFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("media-test-\(UUID())").path
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += (0..<(size - bytes.count)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return UploadedFile(path: path, size: size, leadingBytes: Array(bytes.prefix(12)))
    }

    @Test func uploadsTheFileByteForByteInChunks() async throws {
        let (storage, directory) = try media()
        // Larger than several chunks, and not a multiple of the chunk size.
        let file = try Self.file(size: 300_001)
        defer { try? FileManager.default.removeItem(atPath: file.path) }
        let name = try await storage.upload(file, filename: "\(UUID().uuidString.lowercased()).png", format: .png)
        let stored = try Data(contentsOf: directory.appendingPathComponent(name))
        #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: file.path))))
    }

    @Test func anUnreachableAPIIsAnExternalServiceError() async throws {
        let file = try Self.file(size: 100)
        defer { try? FileManager.default.removeItem(atPath: file.path) }
        let storage = HTTPMediaStorage(baseURL: "http://127.0.0.1:\(freePort())")
        await #expect(throws: ExternalServiceError.self) { try await storage.upload(file, filename: "a.png", format: .png) }
    }
}
