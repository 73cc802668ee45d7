import Domain
import Foundation
import Postgres

/// What shipments and returns share: units of an order's lines asked for against what is left
/// of each, and the actor an order's events name.
enum OrderUnits {
    /// The units asked for by variant (a variant repeated is summed), or the first line, by its
    /// index, that asks for more than is `left` of its variant (none left for a variant the
    /// order lacks), with what is left.
    static func asked(
        _ lines: [(variantID: UUID, quantity: Int)], left: [UUID: Int]
    ) -> Result<[UUID: Int], Beyond> {
        var asked: [UUID: Int] = [:]
        for (index, line) in lines.enumerated() {
            asked[line.variantID, default: 0] += line.quantity
            let available = max(0, left[line.variantID] ?? 0)
            guard asked[line.variantID]! <= available else { return .failure(Beyond(index: index, left: available)) }
        }
        return .success(asked)
    }

    struct Beyond: Error {
        let index: Int
        let left: Int
    }

    /// Names who makes the changes of the transaction on `connection`: the events the orders
    /// trigger writes take it (`order_event_actor()`, Migrations/0022_fulfilment.sql).
    /// - Throws: `PostgresError`.
    static func name(_ actor: EventActor, on connection: PostgresConnection) async throws {
        try await connection.query("SELECT set_config('storefront.actor', $1, true)", actor.rawValue)
    }
}
