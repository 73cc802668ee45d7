import Foundation
import Synchronization

/// This instance's places to read clients' uploads in: at most `maximum` at once
/// (`UPLOAD_MAX_CONCURRENT`), of which one customer holds at most `perCustomer`
/// (`UPLOAD_MAX_PER_CUSTOMER`) and one client address at most `perAddress`
/// (`UPLOAD_MAX_PER_ADDRESS`). A request holds its place while its body arrives, up to the
/// request timeout, however slowly it comes: without the second bound one customer's stalled
/// requests took every place, and without the third a few free accounts' did, refusing every
/// other customer's uploads. The staff's uploads have `staffMaximum` places of their own (a
/// quarter as many, at least one), so no customer's keep them from the catalog's images. Like
/// `ConcurrencyLimit`, it never waits.
public final class UploadPlaces: Sendable {
    /// Whose upload it is: a client's from its address (a signed-in customer's, or no one's on a
    /// public route), or the staff's.
    public enum Holder: Hashable, Sendable {
        case client(customer: UUID?, address: String)
        case staff
    }

    /// Why no place was taken.
    public enum Refusal: Error, Equatable, Sendable {
        /// Every place of the instance is held.
        case instanceFull
        /// The customer holds `perCustomer` places already.
        case customerFull
        /// The upload's client address holds `perAddress` places already.
        case addressFull
    }

    public let maximum: Int
    public let perCustomer: Int
    public let perAddress: Int
    public var staffMaximum: Int { max(1, maximum / 4) }
    private let held = Mutex(Holders())

    private struct Holders {
        var clients = 0
        var staff = 0
        var byCustomer: [UUID: Int] = [:]
        var byAddress: [String: Int] = [:]
    }

    public init(maximum: Int, perCustomer: Int, perAddress: Int) {
        self.maximum = maximum
        self.perCustomer = perCustomer
        self.perAddress = perAddress
    }

    /// Takes a place for `holder`; the caller calls `release(for:)` with the same holder when
    /// done with it.
    /// - Throws: `Refusal` when no place is free for it.
    public func acquire(for holder: Holder) throws(Refusal) {
        try held.withLock { (holders: inout Holders) throws(Refusal) in
            switch holder {
            case .staff:
                guard holders.staff < staffMaximum else { throw .instanceFull }
                holders.staff += 1
            case .client(let customer, let address):
                if let customer, holders.byCustomer[customer, default: 0] >= perCustomer { throw .customerFull }
                guard holders.byAddress[address, default: 0] < perAddress else { throw .addressFull }
                guard holders.clients < maximum else { throw .instanceFull }
                holders.clients += 1
                if let customer { holders.byCustomer[customer, default: 0] += 1 }
                holders.byAddress[address, default: 0] += 1
            }
        }
    }

    public func release(for holder: Holder) {
        held.withLock { holders in
            switch holder {
            case .staff:
                holders.staff -= 1
            case .client(let customer, let address):
                holders.clients -= 1
                if let customer { Self.decrement(&holders.byCustomer, customer) }
                Self.decrement(&holders.byAddress, address)
            }
        }
    }

    private static func decrement<Key: Hashable>(_ counts: inout [Key: Int], _ key: Key) {
        let left = counts[key, default: 1] - 1
        counts[key] = left > 0 ? left : nil
    }
}
