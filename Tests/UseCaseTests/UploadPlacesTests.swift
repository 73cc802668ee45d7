import Domain
import Foundation
import Synchronization
import Testing

/// The places to read uploads in, raced: however many clients ask at once, no customer and no
/// address ever holds more than its share and the clients never more than the instance's
/// maximum, the staff's places are their own, and every place released is free again.
@Suite("Upload places")
struct UploadPlacesTests {
    static func client(_ customer: UUID?, _ address: String = "192.0.2.1") -> UploadPlaces.Holder {
        .client(customer: customer, address: address)
    }

    @Test func aCustomerAndAnAddressHoldAtMostTheirShare() throws {
        let places = UploadPlaces(maximum: 4, perCustomer: 2, perAddress: 3)
        let (ann, bob, cid) = (UUID(), UUID(), UUID())
        try places.acquire(for: Self.client(ann))
        try places.acquire(for: Self.client(ann))
        #expect(throws: UploadPlaces.Refusal.customerFull) { try places.acquire(for: Self.client(ann, "198.51.100.7")) }
        try places.acquire(for: Self.client(bob))
        #expect(throws: UploadPlaces.Refusal.addressFull) { try places.acquire(for: Self.client(cid)) }
        #expect(throws: UploadPlaces.Refusal.addressFull) { try places.acquire(for: Self.client(nil)) }
        try places.acquire(for: Self.client(cid, "198.51.100.7"))
        #expect(throws: UploadPlaces.Refusal.instanceFull) { try places.acquire(for: Self.client(nil, "203.0.113.9")) }
        places.release(for: Self.client(ann))
        try places.acquire(for: Self.client(nil, "203.0.113.9"))
        places.release(for: Self.client(bob))
        try places.acquire(for: Self.client(ann))
    }

    /// Before, the staff's image uploads took the clients' places and were refused with them.
    @Test func theStaffHaveTheirOwnPlaces() throws {
        let places = UploadPlaces(maximum: 8, perCustomer: 8, perAddress: 8)
        for _ in 0..<8 { try places.acquire(for: Self.client(UUID(), "192.0.2.1")) }
        try places.acquire(for: .staff)
        try places.acquire(for: .staff)
        #expect(places.staffMaximum == 2)
        #expect(throws: UploadPlaces.Refusal.instanceFull) { try places.acquire(for: .staff) }
        #expect(throws: UploadPlaces.Refusal.instanceFull) { try places.acquire(for: Self.client(UUID(), "192.0.2.3")) }
        places.release(for: .staff)
        try places.acquire(for: .staff)
    }

    @Test func racingClientsNeverExceedAnyBound() async throws {
        let places = UploadPlaces(maximum: 8, perCustomer: 2, perAddress: 3)
        let customers = (0..<6).map { _ in UUID() }
        let held = HeldCounts()
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<3000 {
                let holder: UploadPlaces.Holder =
                    round.isMultiple(of: 7) ? .staff : Self.client(customers[round % 6], "192.0.2.\(round % 4)")
                group.addTask {
                    guard (try? places.acquire(for: holder)) != nil else { return }
                    held.enter(holder)
                    await Task.yield()
                    held.leave(holder)
                    places.release(for: holder)
                }
            }
        }
        let peaks = held.peaks
        #expect(peaks.clients <= 8 && peaks.staff <= 2 && peaks.perCustomer <= 2 && peaks.perAddress <= 3, "\(peaks)")
        // Everything released: every place is free again.
        for (index, customer) in customers.prefix(4).enumerated() {
            try places.acquire(for: Self.client(customer, "198.51.100.\(index)"))
            try places.acquire(for: Self.client(customer, "198.51.100.\(index)"))
        }
        #expect(throws: UploadPlaces.Refusal.instanceFull) { try places.acquire(for: Self.client(customers[4], "203.0.113.1")) }
    }
}

/// What the racing tasks hold, and the most they held at once.
private final class HeldCounts: Sendable {
    struct Peaks: CustomStringConvertible {
        var clients = 0, staff = 0, perCustomer = 0, perAddress = 0
        var description: String { "clients \(clients), staff \(staff), per customer \(perCustomer), per address \(perAddress)" }
    }

    private struct State {
        var clients = 0, staff = 0
        var byCustomer: [UUID: Int] = [:]
        var byAddress: [String: Int] = [:]
        var peaks = Peaks()
    }

    private let state = Mutex(State())

    var peaks: Peaks { state.withLock { $0.peaks } }

    func enter(_ holder: UploadPlaces.Holder) { count(holder, by: 1) }

    func leave(_ holder: UploadPlaces.Holder) { count(holder, by: -1) }

    private func count(_ holder: UploadPlaces.Holder, by step: Int) {
        state.withLock { state in
            switch holder {
            case .staff:
                state.staff += step
            case .client(let customer, let address):
                state.clients += step
                if let customer { state.byCustomer[customer, default: 0] += step }
                state.byAddress[address, default: 0] += step
                state.peaks.perCustomer = max(state.peaks.perCustomer, customer.map { state.byCustomer[$0]! } ?? 0)
                state.peaks.perAddress = max(state.peaks.perAddress, state.byAddress[address]!)
            }
            state.peaks.clients = max(state.peaks.clients, state.clients)
            state.peaks.staff = max(state.peaks.staff, state.staff)
        }
    }
}
