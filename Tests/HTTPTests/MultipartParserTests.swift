import Foundation
import Gateway
import HTTPTestSupport
import NIOCore
import Testing

@testable import HTTP

/// The streaming multipart parser gives the same parts however the body is cut into chunks.
@Suite("Multipart parsing, chunk by chunk")
struct MultipartParserTests {
    static let boundary = "b0undary"
    static let file: [UInt8] = Array("\r\n--b0undar not quite a boundary \r\n-b0undary\r\n".utf8) + (0..<300).map { UInt8($0 % 256) }
    static var body: [UInt8] {
        Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhi\r\n".utf8)
            + Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
                    .utf8)
            + file + Array("\r\n--\(boundary)--\r\nepilogue".utf8)
    }

    /// The parts of `body` fed in chunks of `size` bytes: (field name, bytes).
    static func parts(chunk size: Int) throws -> [(String?, [UInt8])] {
        var parser = MultipartParser(boundary: boundary)
        var parts: [(String?, [UInt8])] = []
        let body = Self.body
        var start = 0
        while start < body.count {
            let chunk = Array(body[start..<min(body.count, start + size)])
            try parser.feed(chunk) { event in
                switch event {
                case .partStarted(let name): parts.append((name, []))
                case .bytes(let bytes): parts[parts.count - 1].1 += bytes
                case .partEnded: break
                }
            }
            start += size
        }
        #expect(parser.isDone)
        return parts
    }

    @Test(arguments: [1, 2, 7, 13, 64, 100_000])
    func theSamePartsWhateverTheChunkSize(size: Int) throws {
        let parts = try Self.parts(chunk: size)
        #expect(parts.map(\.0) == ["caption", "photo"])
        #expect(parts[0].1 == Array("hi".utf8))
        #expect(parts[1].1 == Self.file)
    }

    @Test func fieldNamesComeFromContentDisposition() {
        #expect(MultipartParser.fieldName("Content-Disposition: form-data; filename=\"name.jpg\"; name=\"photo\"") == "photo")
        #expect(MultipartParser.fieldName("content-disposition: form-data; name=photo") == "photo")
        #expect(MultipartParser.fieldName("Content-Type: image/png") == nil)
    }

    /// Found by the decoder fuzzer (Tools/fuzz-decoders): a boundary line or part headers past
    /// their limit were refused when they arrived in small chunks but accepted when their end came
    /// in the same chunk. Now the outcome never depends on the chunking.
    @Test(arguments: [
        Array("--b".utf8) + [UInt8](repeating: 0x20, count: 300) + Array("\r\n\r\n".utf8),
        Array("--b\r\nX: ".utf8) + [UInt8](repeating: 0x41, count: 8200) + Array("\r\n\r\nbody".utf8),
    ])
    func limitsHoldHoweverTheBodyIsCut(body: [UInt8]) {
        for size in [1, 3, 100, body.count] {
            var parser = MultipartParser(boundary: "b")
            #expect(throws: MultipartParser.Malformed.self, "chunks of \(size)") {
                var start = 0
                while start < body.count {
                    try parser.feed(Array(body[start..<min(body.count, start + size)])) { _ in }
                    start += size
                }
            }
        }
    }

    @Test func aBodyWithoutBoundariesIsMalformed() {
        var parser = MultipartParser(boundary: Self.boundary)
        #expect(throws: MultipartParser.Malformed.self) {
            try parser.feed(Array("--\(Self.boundary)\r\n".utf8) + [UInt8](repeating: 65, count: 9000)) { _ in }
        }
    }

    /// A body whose length was not announced (chunked) is bounded as an announced one is: a part
    /// beside the file, however large, stops the reading once the body passes the file's limit
    /// and the overhead (it went on for 100 MiB before).
    @Test func anUnannouncedBodyIsBoundedWhateverItsPartsHold() async throws {
        let spooler = MultipartFileSpooler(boundary: "b", field: "photo", limit: 1000)
        func body(filler: Int) -> AsyncStream<ByteBuffer> {
            let bytes =
                Array("--b\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\n".utf8) + [UInt8](repeating: 65, count: filler)
                + Array("\r\n--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\r\nxyz\r\n--b--\r\n".utf8)
            return AsyncStream { continuation in
                for start in stride(from: 0, to: bytes.count, by: 4096) {
                    continuation.yield(ByteBuffer(bytes: bytes[start..<min(bytes.count, start + 4096)]))
                }
                continuation.finish()
            }
        }
        let spool = NIOFileSpool(directory: FileManager.default.temporaryDirectory.appendingPathComponent("spooler-\(UUID())"))
        await #expect(throws: MultipartFileSpooler.TooLarge.self) {
            _ = try await spooler.spool(body(filler: spooler.bodyLimit), into: spool)
        }
        let file = try #require(try await spooler.spool(body(filler: 1000), into: spool))
        #expect(file.size == 3)
        await spool.remove(file.path)
    }
}
