import Foundation

/// Reads and writes PostgreSQL's ISO timestamp text without `DateFormatter` (slow, and not needed
/// for one fixed format). Proleptic Gregorian calendar, microsecond precision.
enum PostgresTimestamp {
    /// Parses `YYYY-MM-DD[ HH:MM:SS[.ffffff][+HH[:MM[:SS]]]][ BC]` (four or more year digits, as
    /// PostgreSQL writes years past 9999) and `infinity` / `-infinity`; without an offset the value
    /// is UTC.
    static func parse(_ text: String) -> Date? {
        switch text {
        case "infinity": return Date(timeIntervalSince1970: .infinity)
        case "-infinity": return Date(timeIntervalSince1970: -.infinity)
        default: break
        }
        var bytes = Array(text.utf8)
        let beforeChrist = bytes.count > 3 && bytes.suffix(3) == Array(" BC".utf8)
        if beforeChrist { bytes.removeLast(3) }
        var scanner = DigitScanner(bytes)
        guard var year = scanner.number(minimumDigits: 4, maximumDigits: 6), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        // 1 BC is the astronomical year 0.
        if beforeChrist { year = 1 - year }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day) * 86_400)
        if scanner.atEnd { return Date(timeIntervalSince1970: seconds) }
        guard scanner.skip(" ") || scanner.skip("T"),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2), scanner.skip(":"),
            let second = scanner.number(digits: 2)
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60 + second)
        if scanner.skip(".") {
            var fraction = 0
            var scale = 1
            while let digit = scanner.digit() {
                if scale < 1_000_000 {
                    fraction = fraction * 10 + digit
                    scale *= 10
                }
            }
            seconds += Double(fraction) / Double(scale)
        }
        if scanner.skip("Z") { return scanner.atEnd ? Date(timeIntervalSince1970: seconds) : nil }
        if !scanner.atEnd {
            let sign: Int
            if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
            guard let offsetHours = scanner.number(digits: 2) else { return nil }
            var offset = offsetHours * 3600
            if scanner.skip(":"), let minutes = scanner.number(digits: 2) { offset += minutes * 60 }
            if scanner.skip(":"), let secs = scanner.number(digits: 2) { offset += secs }
            guard scanner.atEnd else { return nil }
            seconds -= Double(sign * offset)
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// `2026-11-22T20:40:49.123456Z`: RFC 3339, which PostgreSQL also reads; years before 1 in
    /// PostgreSQL's `BC` notation. Total over `Date`: an instant whose microseconds do not fit in
    /// an `Int64` is written `infinity` or `-infinity` (what PostgreSQL calls them) instead of
    /// trapping; one PostgreSQL cannot hold is refused by PostgreSQL (SQLSTATE 22008), not here.
    static func format(_ date: Date) -> String {
        let exact = (date.timeIntervalSince1970 * 1_000_000).rounded()
        // Double(Int64.max) is 2^63, the first value `Int64(_:)` would trap on.
        guard exact < Double(Int64.max) else { return exact.isNaN ? "-infinity" : "infinity" }
        guard exact >= Double(Int64.min) else { return "-infinity" }
        let micros = Int64(exact)
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civilFromDays(Int(days))
        let era = year > 0 ? "" : " BC"
        return pad(year > 0 ? year : 1 - year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(Int(secondOfDay / 3600), 2) + ":" + pad(Int(secondOfDay / 60 % 60), 2) + ":"
            + pad(Int(secondOfDay % 60), 2) + "." + pad(Int(fraction), 6) + "Z" + era
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Howard Hinnant's days_from_civil: days since 1970-01-01.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse of `daysFromCivil`.
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A cursor over ASCII bytes for the fixed-width fields above.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int? {
        guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - 48)
    }

    mutating func number(digits: Int) -> Int? {
        number(minimumDigits: digits, maximumDigits: digits)
    }

    /// A number of `minimumDigits` to `maximumDigits` digits, as many as there are.
    mutating func number(minimumDigits: Int, maximumDigits: Int) -> Int? {
        var value = 0
        var count = 0
        while count < maximumDigits, let digit = digit() {
            value = value * 10 + digit
            count += 1
        }
        return count >= minimumDigits ? value : nil
    }
}
