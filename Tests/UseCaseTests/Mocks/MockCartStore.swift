import Domain
import Foundation
import Synchronization

/// An in-memory cart store that records calls; prices come from the items the test gives it.
final class MockCartStore: CartStore, Sendable {
    /// Each customer's lines: a variant and its quantity.
    private let state = Mutex<(lines: [UUID: [(UUID, Int)]], calls: [String])>(([:], []))
    let items: [Item]
    /// Variants removed after the catalog was read: the store refuses their lines, as the
    /// table's trigger does.
    let offSale: Set<UUID>

    init(items: [Item], offSale: Set<UUID> = []) {
        self.items = items
        self.offSale = offSale
    }

    var calls: [String] { state.withLock { $0.calls } }

    func lines(customerID: UUID) async throws -> [CartLine] {
        state.withLock { state in
            state.calls.append("lines")
            return (state.lines[customerID] ?? []).compactMap { variantID, quantity in
                for item in items {
                    guard let variant = item.variants.first(where: { $0.id == variantID }) else { continue }
                    return CartLine(
                        itemID: item.id, variantID: variant.id, sku: variant.sku, name: item.name, options: variant.options,
                        unitPrice: variant.price, quantity: quantity)
                }
                return nil
            }
        }
    }

    func setQuantity(customerID: UUID, variantID: UUID, quantity: Int) async throws {
        guard !offSale.contains(variantID) else { throw VariantOffSale() }
        try state.withLock { state in
            state.calls.append("set \(quantity)")
            var lines = state.lines[customerID] ?? []
            if let index = lines.firstIndex(where: { $0.0 == variantID }) {
                lines[index].1 = quantity
            } else {
                guard lines.count < Cart.maxLines else { throw CartFull() }
                lines.append((variantID, quantity))
            }
            state.lines[customerID] = lines
        }
    }

    func remove(customerID: UUID, variantID: UUID) async throws {
        state.withLock { state in
            state.calls.append("remove")
            state.lines[customerID]?.removeAll { $0.0 == variantID }
        }
    }

    func remove(customerID: UUID, itemID: UUID) async throws {
        let variants = Set(items.first { $0.id == itemID }?.variants.map(\.id) ?? [])
        state.withLock { state in
            state.calls.append("remove")
            state.lines[customerID]?.removeAll { variants.contains($0.0) }
        }
    }
}
