import Domain
import Foundation
import Hummingbird
import Presenter

/// Reads a `multipart/form-data` body as it arrives and writes the one file part named `field`
/// to a temporary file, so an upload costs a chunk of memory whatever its size. Other parts are
/// read and dropped. The client's file name and content type are ignored.
struct MultipartFileSpooler {
    let boundary: String
    let field: String
    /// The file part may hold at most this many bytes; one more and reading stops with 413.
    let limit: Int
    /// The whole body may hold at most this many bytes (the file and what surrounds it), also
    /// when its length was not announced (chunked): one more and reading stops with 413.
    var bodyLimit: Int { limit + UploadReceiver.maxMultipartOverhead }

    /// The boundary of a `multipart/form-data` content type.
    /// - Throws: `ProblemError` 415 for any other content type, 400 without a boundary.
    static func boundary(of request: Request) throws -> String {
        let contentType = request.headers[.contentType] ?? ""
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else {
            throw ProblemError(Problem.unsupportedMediaType("Send the file as multipart/form-data."))
        }
        for parameter in parameters.dropFirst() where parameter.lowercased().hasPrefix("boundary=") {
            let value = parameter.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if (1...70).contains(value.utf8.count) { return value }
        }
        throw ProblemError(Problem.badRequest("The multipart/form-data content type has no valid boundary."))
    }

    /// Spools the file part of `body` through `spool` (written off the request's thread).
    /// - Returns: the spooled file, or `nil` when the body has no part named `field`. The caller
    ///   removes the file.
    /// - Throws: `TooLarge` once the file part passes `limit` or the body `bodyLimit`, `ProblemError` 400 for a malformed
    ///   body or 422 for a second file part.
    func spool<Body: AsyncSequence>(_ body: Body, into spool: any FileSpool) async throws -> UploadedFile?
    where Body.Element == ByteBuffer {
        var parser = MultipartParser(boundary: boundary)
        var sink = FileSink()
        var read = 0
        let path: String
        do {
            path = try await spool.spool(named: "upload-\(UUID.random().lowercasedText)") { write in
                for try await chunk in body {
                    read += chunk.readableBytes
                    if read > bodyLimit { throw TooLarge() }
                    var events: [MultipartParser.Event] = []
                    try parser.feed(Array(chunk.readableBytesView)) { events.append($0) }
                    for event in events {
                        switch event {
                        case .partStarted(let name):
                            guard name == field else { continue }
                            guard sink.state == .waiting else {
                                throw ProblemError(
                                    Problem.validation(
                                        ValidationError([FieldError(field, "must hold one file; send one photo per request")])))
                            }
                            sink.state = .open
                        case .bytes(let bytes):
                            guard sink.state == .open else { continue }
                            try await write(sink.filter(bytes)[...])
                            if sink.received > limit { throw TooLarge() }
                        case .partEnded:
                            guard sink.state == .open else { continue }
                            try await write(sink.finish()[...])
                            sink.state = .closed
                        }
                    }
                    if parser.isDone { break }
                }
                guard parser.isDone else { throw ProblemError(Problem.badRequest("The multipart body ends before its closing boundary.")) }
            }
        } catch is MultipartParser.Malformed {
            throw ProblemError(Problem.badRequest("The multipart/form-data body is malformed."))
        }
        guard sink.state == .closed else {
            await spool.remove(path)
            return nil
        }
        return UploadedFile(path: path, size: sink.size, leadingBytes: sink.leadingBytes)
    }

    /// The file part passed the limit; reading stopped there.
    struct TooLarge: Error {}
}

/// The file part on its way to disk: its metadata dropped as it passes (`PhotoMetadataFilter`:
/// no photo we publish carries the position it was taken at), its bytes counted and its first
/// ones kept.
private struct FileSink {
    enum State { case waiting, open, closed }
    var state = State.waiting
    /// Bytes the client sent, which the size limit counts.
    private(set) var received = 0
    /// Bytes written.
    private(set) var size = 0
    private(set) var leadingBytes: [UInt8] = []
    private var metadata = PhotoMetadataFilter()

    /// What of `bytes` goes to the file.
    mutating func filter(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        received += bytes.count
        return kept(metadata.filter(bytes))
    }

    /// What the filter held back, at the part's end.
    mutating func finish() -> [UInt8] {
        kept(metadata.finish())
    }

    private mutating func kept(_ bytes: [UInt8]) -> [UInt8] {
        if leadingBytes.count < UploadedFile.leadingByteCount {
            leadingBytes += bytes.prefix(UploadedFile.leadingByteCount - leadingBytes.count)
        }
        size += bytes.count
        return bytes
    }
}
