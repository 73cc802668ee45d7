import NIOCore

extension TimeAmount {
    /// A Swift `Duration` as NIO's time amount, to the nanosecond: AsyncHTTPClient takes
    /// deadlines in NIO's type.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
