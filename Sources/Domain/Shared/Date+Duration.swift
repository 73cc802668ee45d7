import Foundation

/// Deadlines, lifetimes and leases are `Duration`s, instants are `Date`s: these move an instant by
/// a duration (fractions of a second included).
extension Date {
    public static func + (date: Date, duration: Duration) -> Date { date.addingTimeInterval(duration.seconds) }

    public static func - (date: Date, duration: Duration) -> Date { date.addingTimeInterval(-duration.seconds) }
}

extension Duration {
    /// The duration in seconds, fractions included.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
