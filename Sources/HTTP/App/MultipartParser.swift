import Foundation

/// An incremental `multipart/form-data` parser (RFC 7578): bytes go in as they arrive, events
/// come out (a part starts with its field name, its bytes, it ends). It keeps at most one
/// delimiter's length of a part's bytes back, so memory stays bounded whatever the part's size.
/// It depends on nothing but Foundation, so `Tools/fuzz-decoders` builds it into its fuzzer.
struct MultipartParser {
    /// The body is not `multipart/form-data` as RFC 7578 writes it.
    struct Malformed: Error {}

    enum Event {
        case partStarted(name: String?)
        case bytes(ArraySlice<UInt8>)
        case partEnded
    }

    private enum State { case preamble, afterDelimiter, headers, body, done }

    /// Part headers longer than this are refused.
    static let maxHeaderBytes = 8 * 1024
    /// What may follow a boundary before its line ends (RFC 2046's transport padding).
    static let maxBoundaryLineBytes = 256

    private let delimiter: [UInt8]
    private var state = State.preamble
    private var buffer: [UInt8]

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        // The body's first boundary has no CRLF before it: start as if one had been read.
        buffer = Array("\r\n".utf8)
    }

    var isDone: Bool { state == .done }

    /// Consumes `bytes`, calling `handle` for each event they complete.
    /// - Throws: `Malformed`, or what `handle` throws.
    mutating func feed(_ bytes: [UInt8], _ handle: (Event) throws -> Void) throws {
        guard state != .done else { return }
        buffer += bytes
        var index = 0
        parsing: while true {
            switch state {
            case .preamble, .body:
                if let found = Self.find(delimiter, in: buffer, from: index) {
                    if state == .body {
                        if found > index { try handle(.bytes(buffer[index..<found])) }
                        try handle(.partEnded)
                    }
                    index = found + delimiter.count
                    state = .afterDelimiter
                } else {
                    let safe = max(index, buffer.count - (delimiter.count - 1))
                    if state == .body && safe > index { try handle(.bytes(buffer[index..<safe])) }
                    index = safe
                    break parsing
                }
            case .afterDelimiter:
                guard buffer.count - index >= 2 else { break parsing }
                if buffer[index] == UInt8(ascii: "-") && buffer[index + 1] == UInt8(ascii: "-") {
                    state = .done
                    index = buffer.count
                    break parsing
                }
                // The same limit whether the line's end has arrived or not (allowing for the "\r" of
                // an end still arriving), so how the body is cut into chunks never changes the outcome.
                guard let end = Self.find(Array("\r\n".utf8), in: buffer, from: index) else {
                    guard buffer.count - index <= Self.maxBoundaryLineBytes else { throw Self.malformed }
                    break parsing
                }
                guard end - index < Self.maxBoundaryLineBytes else { throw Self.malformed }
                index = end + 2
                state = .headers
            case .headers:
                // As above: up to three bytes of the blank line may be waiting for the fourth.
                guard let end = Self.find(Array("\r\n\r\n".utf8), in: buffer, from: index) else {
                    guard buffer.count - index <= Self.maxHeaderBytes + 3 else { throw Self.malformed }
                    break parsing
                }
                guard end - index <= Self.maxHeaderBytes else { throw Self.malformed }
                let headers = String(decoding: buffer[index..<end], as: UTF8.self)
                try handle(.partStarted(name: Self.fieldName(headers)))
                index = end + 4
                state = .body
            case .done:
                break parsing
            }
        }
        buffer.removeFirst(index)
    }

    private static let malformed = Malformed()

    /// The `name` of a part's `Content-Disposition: form-data; name="..."` header.
    static func fieldName(_ headers: String) -> String? {
        for line in headers.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            for parameter in parts[1].split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2 && pair[0].lowercased() == "name" {
                    return pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2
                        ? String(pair[1].dropFirst().dropLast()) : pair[1]
                }
            }
        }
        return nil
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count - start >= needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
