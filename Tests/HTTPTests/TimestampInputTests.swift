import Foundation
import Presenter
import Testing

@testable import HTTP

/// Timestamps clients send: RFC 3339 in the years 1 to 9999, each written back as it came; any
/// other is a 422 naming the field (year 10000 parsed, and came back as no RFC 3339 at all).
@Suite("Timestamp input")
struct TimestampInputTests {
    @Test func theYears1To9999AreTakenAndNoOthers() throws {
        for text in ["1000-01-01T00:00:00Z", "2026-11-22T10:00:00Z", "2026-11-22T10:00:00.123Z", "9999-12-31T23:59:59.999Z"] {
            #expect(try RequestParsing.timestamp(text, field: "at") != nil, "\(text)")
        }
        for text in ["0000-12-31T23:59:59Z", "10000-01-01T00:00:00Z", "99999-01-01T00:00:00Z", "yesterday", ""] {
            let error = #expect(throws: ProblemError.self, "\(text)") { try RequestParsing.timestamp(text, field: "at") }
            #expect(error?.presentation.status == 422)
        }
        #expect(try RequestParsing.timestamp(nil, field: "at") == nil)
    }
}
