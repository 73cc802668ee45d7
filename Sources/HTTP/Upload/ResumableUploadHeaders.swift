import Domain
import HTTPTypes
import Presenter

/// The resumable-upload headers of one request (draft-ietf-httpbis-resumable-upload), read
/// strictly: a value this service cannot read is refused, never guessed at.
struct ResumableUploadHeaders: Hashable, Sendable {
    /// The interop versions spoken: 3 (iOS 17's URLSession, `Upload-Incomplete`), 5 and 6
    /// (`Upload-Complete`; 6 sends appended bytes as `application/partial-upload`).
    static let versions = [3, 5, 6]

    let version: Int
    /// Whether the request's bytes end the upload (`nil`: not said).
    let complete: Bool?
    let offset: Int?
    let length: Int?

    /// The headers, or `nil` when the request does not speak the protocol (no
    /// `Upload-Draft-Interop-Version`).
    /// - Throws: `ProblemError` 400 naming the header it cannot read.
    static func read(_ fields: HTTPFields) throws -> ResumableUploadHeaders? {
        guard let versionText = fields[.uploadDraftInteropVersion] else { return nil }
        guard let version = StructuredField.integer(versionText), versions.contains(version) else {
            throw malformed("Upload-Draft-Interop-Version", "must be 3, 5 or 6")
        }
        let completeName: HTTPField.Name = version >= 5 ? .uploadComplete : .uploadIncomplete
        var complete: Bool?
        if let text = fields[completeName] {
            guard let flag = StructuredField.boolean(text) else { throw malformed(completeName.rawName, "must be ?0 or ?1") }
            complete = version >= 5 ? flag : !flag
        }
        return ResumableUploadHeaders(
            version: version, complete: complete, offset: try size(.uploadOffset, in: fields),
            length: try size(.uploadLength, in: fields))
    }

    /// The version a request that may leave it out (`HEAD`, `DELETE`) speaks: the latest unless it says.
    /// - Throws: `ProblemError` 400 for headers it cannot read.
    static func version(of fields: HTTPFields) throws -> Int {
        try read(fields)?.version ?? versions[versions.count - 1]
    }

    /// A header holding a byte count: a non-negative structured-field integer.
    private static func size(_ name: HTTPField.Name, in fields: HTTPFields) throws -> Int? {
        guard let text = fields[name] else { return nil }
        guard let value = StructuredField.integer(text), value >= 0 else {
            throw malformed(name.rawName, "must be a non-negative integer")
        }
        return value
    }

    static func malformed(_ header: String, _ message: String) -> ProblemError {
        ProblemError(Problem.badRequest("The header \(header) \(message).", errors: [FieldError(header, message)]))
    }
}

/// Structured field items (RFC 9651) of the two kinds the upload headers use. An item may carry
/// parameters (`;name=value`), which these headers do not define: they are ignored.
enum StructuredField {
    /// `?1` or `?0`.
    static func boolean(_ text: String) -> Bool? {
        switch bareItem(text) {
        case "?1": return true
        case "?0": return false
        default: return nil
        }
    }

    /// An integer of at most 15 digits, with an optional leading `-`.
    static func integer(_ text: String) -> Int? {
        let item = bareItem(text)
        let digits = item.hasPrefix("-") ? item.dropFirst() : item[...]
        guard (1...15).contains(digits.count), digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int(item)
    }

    /// The item without surrounding spaces and parameters.
    private static func bareItem(_ text: String) -> Substring {
        var item = Substring(text)
        while item.first == " " { item.removeFirst() }
        while item.last == " " { item.removeLast() }
        if let semicolon = item.firstIndex(of: ";") { item = item[..<semicolon] }
        return item
    }
}

extension HTTPField.Name {
    static let uploadDraftInteropVersion = Self("Upload-Draft-Interop-Version")!
    static let uploadComplete = Self("Upload-Complete")!
    static let uploadIncomplete = Self("Upload-Incomplete")!
    static let uploadOffset = Self("Upload-Offset")!
    static let uploadLength = Self("Upload-Length")!
    /// Set by `UploadResumptionAnnouncer` only (a client's is removed): the id the interim
    /// answer gave the upload a request creates.
    static let storefrontUploadID = Self("Storefront-Upload-ID")!
}
