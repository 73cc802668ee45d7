import Foundation
import Synchronization

/// This instance's places to read uploads in: at most `maximum` at once
/// (`UPLOAD_MAX_CONCURRENT`), of which one customer holds at most `perCustomer`
/// (`UPLOAD_MAX_PER_CUSTOMER`). A request holds its place while its body arrives, up to the
/// request timeout, however slowly it comes: without the second bound one customer's stalled
/// requests took every place, refusing every other customer's and the staff's uploads.
/// Like `ConcurrencyLimit`, it never waits.
public final class UploadPlaces: Sendable {
    /// Why no place was taken.
    public enum Refusal: Error, Equatable, Sendable {
        /// Every place of the instance is held.
        case instanceFull
        /// The customer holds `perCustomer` places already.
        case customerFull
    }

    public let maximum: Int
    public let perCustomer: Int
    private let held = Mutex(Holders())

    private struct Holders {
        var total = 0
        var byCustomer: [UUID: Int] = [:]
    }

    public init(maximum: Int, perCustomer: Int) {
        self.maximum = maximum
        self.perCustomer = perCustomer
    }

    /// Takes a place for `customer` (nil: the staff, bound by `maximum` only); the caller calls
    /// `release(for:)` with the same customer when done with it.
    /// - Throws: `Refusal` when no place is free for it.
    public func acquire(for customer: UUID?) throws(Refusal) {
        try held.withLock { (holders: inout Holders) throws(Refusal) in
            if let customer, holders.byCustomer[customer, default: 0] >= perCustomer { throw .customerFull }
            guard holders.total < maximum else { throw .instanceFull }
            holders.total += 1
            if let customer { holders.byCustomer[customer, default: 0] += 1 }
        }
    }

    public func release(for customer: UUID?) {
        held.withLock { holders in
            holders.total -= 1
            guard let customer else { return }
            let left = holders.byCustomer[customer, default: 1] - 1
            holders.byCustomer[customer] = left > 0 ? left : nil
        }
    }
}
