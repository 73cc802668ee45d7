import Foundation
import HTTPTypes
import Presenter
import PropertyBased
import Testing

@testable import HTTP

/// The resumable-upload headers are read strictly: every value the grammar allows is read as
/// written, nothing else is read at all, and no input crashes the reader.
@Suite("Resumable upload headers")
struct ResumableUploadHeaderTests {
    @Test("every integer of at most 15 digits reads as itself, with or without parameters and spaces around it")
    func integers() async {
        await propertyCheck(count: 500, input: Gen.int(in: -999_999_999_999_999...999_999_999_999_999), Gen.bool, Gen.bool) {
            n, spaced, parameter in
            let text = (spaced ? "  " : "") + String(n) + (parameter ? ";a=1" : "") + (spaced ? " " : "")
            #expect(StructuredField.integer(text) == n)
        }
    }

    @Test("text that is not an integer of at most 15 digits reads as nothing, whatever it holds")
    func notIntegers() async {
        for text in ["", "-", "+1", "1.0", "0x10", "1e3", "1 2", "١٢", "1234567890123456", "--1", "?1", "1,2", " "] {
            #expect(StructuredField.integer(text) == nil, "\(text)")
        }
        let junk = Gen.character(in: "\u{0}"..."\u{2FF}").string(of: 0...20)
        await propertyCheck(count: 500, input: junk) { text in
            guard let value = StructuredField.integer(text) else { return }
            // Read only when it is one: digits, an optional minus, 15 digits at most.
            let bare = text.trimmingCharacters(in: .init(charactersIn: " ")).split(separator: ";", omittingEmptySubsequences: false)[0]
            #expect(String(value) == bare || (bare.hasPrefix("-0") && value == 0) || Int(bare) == value)
        }
    }

    @Test("?1 and ?0 read as true and false; nothing else reads")
    func booleans() async {
        #expect(StructuredField.boolean("?1") == true && StructuredField.boolean(" ?0;x") == false)
        for text in ["", "?", "1", "0", "true", "?2", "?10", "? 1", "?1?"] { #expect(StructuredField.boolean(text) == nil, "\(text)") }
        await propertyCheck(count: 500, input: Gen.character(in: "\u{0}"..."\u{7F}").string(of: 0...6)) { text in
            if let value = StructuredField.boolean(text) {
                let bare = text.trimmingCharacters(in: .init(charactersIn: " ")).split(separator: ";", omittingEmptySubsequences: false)[0]
                #expect(bare == (value ? "?1" : "?0"))
            }
        }
    }

    @Test("version 3 says Upload-Incomplete, 5 and 6 Upload-Complete; other versions and unreadable values are 400s")
    func reading() throws {
        let v3 = try ResumableUploadHeaders.read([.uploadDraftInteropVersion: "3", .uploadIncomplete: "?1", .uploadOffset: "10"])
        #expect(v3 == ResumableUploadHeaders(version: 3, complete: false, offset: 10, length: nil))
        let v6 = try ResumableUploadHeaders.read([.uploadDraftInteropVersion: "6", .uploadComplete: "?1", .uploadLength: "7"])
        #expect(v6 == ResumableUploadHeaders(version: 6, complete: true, offset: nil, length: 7))
        // Version 6 ignores version 3's header, and the other way round.
        #expect(try ResumableUploadHeaders.read([.uploadDraftInteropVersion: "6", .uploadIncomplete: "?1"])?.complete == nil)
        #expect(try ResumableUploadHeaders.read([.contentLength: "5"]) == nil)
        let refused: [HTTPFields] = [
            [.uploadDraftInteropVersion: "4"], [.uploadDraftInteropVersion: "six"],
            [.uploadDraftInteropVersion: "6", .uploadComplete: "1"], [.uploadDraftInteropVersion: "6", .uploadOffset: "-5"],
            [.uploadDraftInteropVersion: "5", .uploadLength: "1e6"],
        ]
        for fields in refused {
            #expect(throws: ProblemError.self, "\(fields)") { try ResumableUploadHeaders.read(fields) }
        }
    }

    @Test("a route pattern matches its own paths only: one segment per parameter, the query ignored")
    func routeMatching() {
        let target = ResumableUploadTarget(route: "POST /v1/reviews/{id}/photos", field: "photo", maxSize: 1) { _, _ in .noContent }
        #expect(target.matches(method: .post, path: "/v1/reviews/abc/photos"))
        #expect(target.matches(method: .post, path: "/v1/reviews/abc/photos?x=1"))
        for path in ["/v1/reviews//photos", "/v1/reviews/a/b/photos", "/v1/reviews/abc/photos/", "/v1/reviews/abc", "/v1/items/a/photos"] {
            #expect(!target.matches(method: .post, path: path[...]), "\(path)")
        }
        #expect(!target.matches(method: .put, path: "/v1/reviews/abc/photos"))
    }
}
