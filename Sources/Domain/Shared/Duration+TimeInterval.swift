import Foundation

extension Duration {
    /// The duration in seconds, fractions included, for `Date` arithmetic: the configuration's
    /// deadlines and lifetimes are `Duration`s, instants are `Date`s.
    public var timeInterval: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
