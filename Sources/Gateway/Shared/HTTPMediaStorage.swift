import AsyncHTTPClient
import Domain
import Foundation
import NIOCore
import _NIOFileSystem

/// `MediaStorage` over the media API: multipart `POST {baseURL}/photo` with the file in field
/// `photo`, answered by `{"filename": "..."}`, and `DELETE {baseURL}/photo/{filename}`. The file
/// streams from disk in chunks read on swift-nio's file thread pool, so an upload costs the
/// service a chunk of memory, not the photo's size, and no request thread waits on the disk.
public struct HTTPMediaStorage: MediaStorage {
    static let chunkSize = 64 * 1024

    let baseURL: String
    let client: HTTPClient
    let timeout: Duration

    /// - Parameter baseURL: `MEDIA_API_URL`, such as `http://127.0.0.1:8430`.
    public init(baseURL: String, client: HTTPClient = SharedHTTPClient.client, timeout: Duration = .seconds(30)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.client = client
        self.timeout = timeout
    }

    public func upload(_ file: UploadedFile, filename: String, format: PhotoFormat) async throws -> String {
        do {
            let stored = try await send(file, filename: filename, format: format)
            CallOutcomes.record(service: "media", operation: "POST /photo", outcome: "ok")
            return stored
        } catch {
            CallOutcomes.record(service: "media", operation: "POST /photo", outcome: "unavailable")
            throw error
        }
    }

    public func delete(filename: String) async throws {
        // Only a name this service stored: nothing else reaches the media API's path.
        guard filename.range(of: #"^[A-Za-z0-9._-]{1,255}$"#, options: .regularExpression) != nil, !filename.hasPrefix(".") else {
            throw ExternalServiceError(service: "media", reason: "refused to delete '\(filename.prefix(100))'")
        }
        var request = HTTPClientRequest(url: baseURL + "/photo/" + filename)
        request.method = .DELETE
        do {
            let response = try await client.execute(request, timeout: TimeAmount(timeout))
            _ = try await response.body.collect(upTo: 64 * 1024)
            guard (200..<300).contains(response.status.code) || response.status.code == 404 else {
                throw ExternalServiceError(service: "media", reason: "answered \(response.status.code) to a delete")
            }
            CallOutcomes.record(service: "media", operation: "DELETE /photo", outcome: "ok")
        } catch let error as ExternalServiceError {
            CallOutcomes.record(service: "media", operation: "DELETE /photo", outcome: "refused")
            throw error
        } catch {
            CallOutcomes.record(service: "media", operation: "DELETE /photo", outcome: "unavailable")
            throw ExternalServiceError(service: "media", reason: "\(error)")
        }
    }

    private func send(_ file: UploadedFile, filename: String, format: PhotoFormat) async throws -> String {
        let boundary = "storefront-\(UUID.random().lowercasedText)"
        let head = Array(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(filename)\"\r\n"
                + "Content-Type: \(format.rawValue)\r\n\r\n").utf8)
        let tail = Array("\r\n--\(boundary)--\r\n".utf8)
        let answer: MediaAnswer
        do {
            // The file stays open until the answer is in: the client may still be sending it.
            answer = try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(file.path)) { handle in
                var request = HTTPClientRequest(url: baseURL + "/photo")
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
                let chunks = handle.readChunks(in: 0..<Int64(file.size), chunkLength: .bytes(Int64(Self.chunkSize)))
                request.body = .stream(
                    MultipartFileBody(head: head, file: chunks, tail: tail), length: .known(Int64(head.count + file.size + tail.count)))
                let response = try await client.execute(request, timeout: TimeAmount(timeout))
                let body = try await response.body.collect(upTo: 64 * 1024)
                guard (200..<300).contains(response.status.code) else {
                    throw ExternalServiceError(
                        service: "media", reason: "answered \(response.status.code): \(String(buffer: body).prefix(200))")
                }
                return try JSONDecoder().decode(MediaAnswer.self, from: Data(body.readableBytesView))
            }
        } catch let error as ExternalServiceError {
            throw error
        } catch {
            throw ExternalServiceError(service: "media", reason: "\(error)")
        }
        // The name is stored and shown to clients: only a plain file name is acceptable.
        guard answer.filename.range(of: #"^[A-Za-z0-9._-]{1,255}$"#, options: .regularExpression) != nil, !answer.filename.hasPrefix(".")
        else {
            throw ExternalServiceError(service: "media", reason: "answered an unusable filename '\(answer.filename.prefix(100))'")
        }
        return answer.filename
    }
}

private struct MediaAnswer: Decodable {
    let filename: String
}

/// The multipart head, the file in chunks read as they are sent, then the multipart tail.
struct MultipartFileBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let head: [UInt8]
    let file: _NIOFileSystem.FileChunks
    let tail: [UInt8]

    func makeAsyncIterator() -> Iterator {
        Iterator(head: head, file: file.makeAsyncIterator(), tail: tail)
    }

    struct Iterator: AsyncIteratorProtocol {
        var head: [UInt8]?
        var file: _NIOFileSystem.FileChunks.AsyncIterator?
        var tail: [UInt8]?

        mutating func next() async throws -> ByteBuffer? {
            if let head {
                self.head = nil
                return ByteBuffer(bytes: head)
            }
            if file != nil {
                if let chunk = try await file?.next() { return chunk }
                file = nil
            }
            if let tail {
                self.tail = nil
                return ByteBuffer(bytes: tail)
            }
            return nil
        }
    }
}
