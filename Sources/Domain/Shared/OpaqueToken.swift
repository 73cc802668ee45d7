import Foundation

/// The text of a cursor as clients see it: URL-safe base64 without padding, so it goes into a
/// query string as it is and says nothing a client should build on.
enum OpaqueToken {
    static func encode(_ text: String) -> String {
        let base64 = Data(text.utf8).base64EncodedString()
        let urlSafe = base64.utf8.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        return String(decoding: urlSafe, as: UTF8.self)
    }

    /// The text `encode` made, or `nil` for anything else (at most `max` characters are read).
    /// Text holding U+0000 is refused: no token the service issues holds it, and a cursor's text
    /// key is bound as PostgreSQL text, which cannot.
    static func decode(_ token: String, max: Int = 100) -> String? {
        guard token.utf8.count <= max else { return nil }
        // URL-safe base64 back to the standard alphabet, padded. (One pass over the bytes: three
        // `replacingOccurrences` cost more than the rest of a page's translation.)
        var base64 = token.utf8.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0 }
        base64 += repeatElement(UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: Data(base64)) else { return nil }
        guard !data.contains(0) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
