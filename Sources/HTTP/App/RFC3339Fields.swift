/// The fields of an RFC 3339 timestamp as written (`2026-02-28T23:59:59.5+09:00`), checked
/// against the calendar: Foundation's ISO 8601 parser takes `2026-02-30` as March 2nd and `24:00`
/// as the next day, moving a campaign's window by days without a word.
enum RFC3339Fields {
    /// Whether `text` has RFC 3339's layout (`T` between date and time, `Z` or an offset last,
    /// as the parser takes them) and every field is within its range: months 1 to 12, the
    /// month's days (29 in February of a leap year), hours 0 to 23, minutes and seconds 0 to 59
    /// (a leap second's 60 would be moved to the next minute), offsets up to 23:59 (the parser
    /// itself takes up to 18:00).
    static func areOnTheCalendar(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]), let second = number(bytes[17..<19])
        else { return false }
        guard (1...12).contains(month), (1...days(in: month, of: year)).contains(day), hour <= 23, minute <= 59, second <= 59
        else { return false }
        var rest = bytes[19...]
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty else { return false }
            rest = rest.dropFirst(1 + digits.count)
        }
        if rest.elementsEqual([UInt8(ascii: "Z")]) { return true }
        guard rest.count == 6, rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-"),
            rest[rest.startIndex + 3] == UInt8(ascii: ":"),
            let hours = number(rest.dropFirst().prefix(2)), let minutes = number(rest.suffix(2))
        else { return false }
        return hours <= 23 && minutes <= 59
    }

    static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Decimal digits only, as a number.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
