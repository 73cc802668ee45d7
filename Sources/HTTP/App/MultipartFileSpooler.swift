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

    /// The boundary of a `multipart/form-data` content type.
    /// - Throws: `ProblemError` 415 for any other content type, 400 without a boundary.
    static func boundary(of request: Request) throws -> String {
        let contentType = request.headers[.contentType] ?? ""
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else {
            throw ProblemError(
                Problem.make(415, "unsupported-media-type", "Unsupported media type", detail: "Send the file as multipart/form-data."))
        }
        for parameter in parameters.dropFirst() where parameter.lowercased().hasPrefix("boundary=") {
            let value = parameter.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if (1...70).contains(value.utf8.count) { return value }
        }
        throw ProblemError(Problem.badRequest("The multipart/form-data content type has no valid boundary."))
    }

    /// Spools the file part of `body` into `directory`.
    /// - Returns: the spooled file, or `nil` when the body has no part named `field`. The caller
    ///   removes the file.
    /// - Throws: `TooLarge` once the file part passes `limit`, `ProblemError` 400 for a malformed
    ///   body or 422 for a second file part.
    func spool<Body: AsyncSequence>(_ body: Body, into directory: URL) async throws -> UploadedFile? where Body.Element == ByteBuffer {
        var parser = MultipartParser(boundary: boundary)
        var sink: FileSink?
        var finished: UploadedFile?
        do {
            for try await chunk in body {
                try parser.feed(Array(chunk.readableBytesView)) { event in
                    switch event {
                    case .partStarted(let name):
                        guard name == field else { return }
                        guard sink == nil, finished == nil else {
                            throw ProblemError(
                                Problem.validation(ValidationError([FieldError(field, "must hold one file; send one photo per request")])))
                        }
                        sink = try FileSink(directory: directory)
                    case .bytes(let bytes):
                        guard let open = sink else { return }
                        try open.write(bytes)
                        if open.received > limit { throw TooLarge() }
                    case .partEnded:
                        if let open = sink {
                            finished = open.close()
                            sink = nil
                        }
                    }
                }
                if parser.isDone { break }
            }
            guard parser.isDone else { throw ProblemError(Problem.badRequest("The multipart body ends before its closing boundary.")) }
        } catch {
            sink?.discard()
            if let finished { try? FileManager.default.removeItem(atPath: finished.path) }
            if error is MultipartParser.Malformed { throw ProblemError(Problem.badRequest("The multipart/form-data body is malformed.")) }
            throw error
        }
        return finished
    }

    /// The file part passed the limit; reading stopped there.
    struct TooLarge: Error {}
}

/// An open temporary file receiving one part, counting its bytes and keeping its first ones.
/// The file part on its way to disk, its metadata dropped as it passes (`PhotoMetadataFilter`:
/// no photo we publish carries the position it was taken at).
private final class FileSink {
    let path: String
    let handle: FileHandle
    /// Bytes the client sent, which the size limit counts.
    private(set) var received = 0
    /// Bytes written.
    private(set) var size = 0
    private(set) var leadingBytes: [UInt8] = []
    private var metadata = PhotoMetadataFilter()

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("upload-\(UUID.random().uuidString.lowercased())").path
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        self.handle = handle
    }

    func write(_ bytes: ArraySlice<UInt8>) throws {
        received += bytes.count
        try keep(metadata.filter(bytes)[...])
    }

    private func keep(_ bytes: ArraySlice<UInt8>) throws {
        if leadingBytes.count < UploadedFile.leadingByteCount {
            leadingBytes += bytes.prefix(UploadedFile.leadingByteCount - leadingBytes.count)
        }
        size += bytes.count
        try handle.write(contentsOf: bytes)
    }

    func close() -> UploadedFile {
        try? keep(metadata.finish()[...])
        try? handle.close()
        return UploadedFile(path: path, size: size, leadingBytes: leadingBytes)
    }

    func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: path)
    }
}
