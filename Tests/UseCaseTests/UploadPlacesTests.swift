import Domain
import Foundation
import Synchronization
import Testing

/// The places to read uploads in, raced: however many customers and staff uploads ask at once, no
/// customer ever holds more than their share and the instance never more than its maximum, and
/// every place released is free again.
@Suite("Upload places")
struct UploadPlacesTests {
    @Test func aCustomerHoldsAtMostTheirShareAndTheStaffOnlyTheInstancesBound() throws {
        let places = UploadPlaces(maximum: 3, perCustomer: 2)
        let (ann, bob) = (UUID(), UUID())
        try places.acquire(for: ann)
        try places.acquire(for: ann)
        #expect(throws: UploadPlaces.Refusal.customerFull) { try places.acquire(for: ann) }
        try places.acquire(for: nil)
        #expect(throws: UploadPlaces.Refusal.instanceFull) { try places.acquire(for: bob) }
        places.release(for: ann)
        try places.acquire(for: bob)
        #expect(throws: UploadPlaces.Refusal.instanceFull) { try places.acquire(for: ann) }
        places.release(for: nil)
        try places.acquire(for: ann)
    }

    @Test func racingCustomersNeverExceedEitherBound() async throws {
        let places = UploadPlaces(maximum: 8, perCustomer: 2)
        let customers = (0..<5).map { _ in UUID() }
        let held = HeldCounts()
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<2000 {
                let customer = round.isMultiple(of: 7) ? nil : customers[round % customers.count]
                group.addTask {
                    guard (try? places.acquire(for: customer)) != nil else { return }
                    held.enter(customer)
                    await Task.yield()
                    held.leave(customer)
                    places.release(for: customer)
                }
            }
        }
        #expect(held.peakTotal <= 8 && held.peakPerCustomer <= 2, "\(held.peakTotal) \(held.peakPerCustomer)")
        // Everything released: every place is free again.
        for customer in customers.prefix(4) {
            try places.acquire(for: customer)
            try places.acquire(for: customer)
        }
        #expect(throws: UploadPlaces.Refusal.instanceFull) { try places.acquire(for: customers[4]) }
    }
}

/// What the racing tasks hold, and the most they held at once.
private final class HeldCounts: Sendable {
    private let state = Mutex((total: 0, byCustomer: [UUID?: Int](), peakTotal: 0, peakPerCustomer: 0))

    var peakTotal: Int { state.withLock { $0.peakTotal } }
    var peakPerCustomer: Int { state.withLock { $0.peakPerCustomer } }

    func enter(_ customer: UUID?) {
        state.withLock { state in
            state.total += 1
            state.peakTotal = max(state.peakTotal, state.total)
            guard let customer else { return }
            state.byCustomer[customer, default: 0] += 1
            state.peakPerCustomer = max(state.peakPerCustomer, state.byCustomer[customer]!)
        }
    }

    func leave(_ customer: UUID?) {
        state.withLock { state in
            state.total -= 1
            if let customer { state.byCustomer[customer, default: 0] -= 1 }
        }
    }
}
