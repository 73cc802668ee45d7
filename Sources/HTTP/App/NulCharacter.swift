import Domain
import Foundation
import Presenter

/// U+0000 in a request. No text the service stores or searches can hold it (PostgreSQL's text
/// cannot, and the database client refuses it rather than cut the text short), so a request that
/// carries one is refused with 422 naming where it is, instead of failing later as a 500.
enum NulCharacter {
    private static let message = "must not contain the NUL character (U+0000)"

    /// The 422 for U+0000 in `field`.
    static func problem(in field: String) -> ProblemError {
        ProblemError(Problem.validation(ValidationError([FieldError(field, message)])))
    }

    /// Where the first member name or string of `json` that holds U+0000 is (`content`,
    /// `lines[0].name`; `body` for the whole body), or nil. The bytes are scanned for a `\u0000`
    /// escape first, so a body without one costs no second parse; a body that is no JSON at all is
    /// left to the decoder to refuse.
    static func field(inJSON json: Data) -> String? {
        guard containsEscapedNul(json), let value = try? JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
        else { return nil }
        return path(to: value, at: "")
    }

    /// Whether `json` has a `\u0000` escape (JSON can carry U+0000 no other way), skipping escaped
    /// backslashes so that `\\u0000`, a backslash and "u0000", is not one.
    static func containsEscapedNul(_ json: Data) -> Bool {
        let bytes = [UInt8](json)
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                if bytes[index + 1] == UInt8(ascii: "u"), bytes[(index + 2)...].prefix(4).elementsEqual("0000".utf8) { return true }
                index += 2
            } else {
                index += 1
            }
        }
        return false
    }

    private static func path(to value: Any, at path: String) -> String? {
        switch value {
        case let text as String:
            return text.utf8.contains(0) ? (path.isEmpty ? "body" : path) : nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = Self.path(to: element, at: "\(path)[\(index)]") { return found }
            }
            return nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let member = path.isEmpty ? key : "\(path).\(key)"
                if key.utf8.contains(0) { return member }
                if let found = Self.path(to: object[key]!, at: member) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
