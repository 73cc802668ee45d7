import Domain
import Foundation
import Synchronization

/// An in-memory cart store that records calls; prices come from the items the test gives it.
final class MockCartStore: CartStore, Sendable {
    private let state = Mutex<(lines: [UUID: [(UUID, Int)]], calls: [String])>(([:], []))
    let items: [Item]

    init(items: [Item]) { self.items = items }

    var calls: [String] { state.withLock { $0.calls } }

    func lines(customerID: UUID) async throws -> [CartLine] {
        state.withLock { state in
            state.calls.append("lines")
            return (state.lines[customerID] ?? []).compactMap { itemID, quantity in
                items.first { $0.id == itemID }.map { CartLine(itemID: $0.id, name: $0.name, unitPrice: $0.price, quantity: quantity) }
            }
        }
    }

    func setQuantity(customerID: UUID, itemID: UUID, quantity: Int) async throws {
        state.withLock { state in
            state.calls.append("set \(quantity)")
            var lines = state.lines[customerID] ?? []
            if let index = lines.firstIndex(where: { $0.0 == itemID }) {
                lines[index].1 = quantity
            } else {
                lines.append((itemID, quantity))
            }
            state.lines[customerID] = lines
        }
    }

    func remove(customerID: UUID, itemID: UUID) async throws {
        state.withLock { state in
            state.calls.append("remove")
            state.lines[customerID]?.removeAll { $0.0 == itemID }
        }
    }
}
