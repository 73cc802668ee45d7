import Foundation
import Presenter
import PropertyBased
import Testing

@testable import HTTP

/// Timestamps clients send: RFC 3339 in the years 1583 to 9999, each written back as it came; any
/// other is a 422 naming the field (year 10000 parsed, and came back as no RFC 3339 at all; before
/// 1583 the service's calendar and PostgreSQL's counted days apart).
@Suite("Timestamp input")
struct TimestampInputTests {
    @Test func theYears1583To9999AreTakenAndNoOthers() throws {
        for text in ["1583-01-01T00:00:00Z", "2026-11-22T10:00:00Z", "2026-11-22T10:00:00.123Z", "9999-12-31T23:59:59.999Z"] {
            #expect(try RequestParsing.timestamp(text, field: "at") != nil, "\(text)")
        }
        for text in [
            "0000-12-31T23:59:59Z", "0002-01-01T00:00:00Z", "1582-10-10T00:00:00Z", "1582-12-31T23:59:59Z", "10000-01-01T00:00:00Z",
            "99999-01-01T00:00:00Z", "yesterday", "",
        ] {
            let error = #expect(throws: ProblemError.self, "\(text)") { try RequestParsing.timestamp(text, field: "at") }
            #expect(error?.presentation.status == 422)
        }
        #expect(try RequestParsing.timestamp(nil, field: "at") == nil)
    }

    /// A date or time no calendar has is refused, never moved: `2026-02-30` parsed as March 2nd
    /// and `T24:00:00` as the next day. Any fields are taken exactly when the calendar has them,
    /// and come back as the same day and time.
    @Test func fieldsOffTheCalendarAreRefusedAndTheOthersKept() async throws {
        await propertyCheck(count: 300, input: Gen.int(in: 1583...9999), Gen.int(in: 0...13), Gen.int(in: 0...32), Gen.int(in: 0...24)) {
            year, month, day, hour in
            let (minute, second) = (year % 61, (year / 61) % 61)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, hour, minute, second)
            let onCalendar =
                (1...12).contains(month) && day >= 1 && day <= RFC3339Fields.days(in: month, of: year) && hour <= 23 && minute <= 59
                && second <= 59
            let parsed = try? RequestParsing.timestamp(text, field: "at")
            #expect((parsed != nil) == onCalendar, "\(text)")
            if let parsed {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: "UTC")!
                let fields = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: parsed)
                #expect(
                    [fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second] == [
                        year, month, day, hour, minute, second,
                    ], "\(text)")
            }
        }
        for text in [
            "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T10:60:00Z",
            "2026-11-22T10:00:00+24:00", "2026-11-22T10:00:00.Z", "2026-11-22 10:00:00Z", "2026-11-22T10:15:60Z",
        ] {
            #expect(throws: ProblemError.self, "\(text)") { try RequestParsing.timestamp(text, field: "at") }
        }
        #expect(try RequestParsing.timestamp("2024-02-29T00:00:00+09:00", field: "at") != nil)
        #expect(try RequestParsing.timestamp("2026-11-22T10:00:00.5-03:30", field: "at") != nil)
    }
}
