import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// A shipment's or a return's line naming a variant the order did not buy, on real PostgreSQL:
/// refused by that line's index, as a refund refuses it, not as a quantity past 0 left.
@Suite("Lines naming no variant of the order on real PostgreSQL")
struct PostgresLinesNotOrderedTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func shipmentsAndReturnsRefuseAVariantTheOrderDidNotBuy() async throws {
        try await TestDatabase.with { db in
            let customer = try await TestRows.insertCustomer(db)
            let (order, _, variant) = try await TestRows.insertPaidOrder(db, customer: customer, total: 300)
            let fulfilment = PostgresFulfilmentStore(orders: PostgresOrderStore(database: db.pool, currency: Currency("JPY")!))
            await #expect(throws: FulfilmentError.notOrdered(index: 1)) {
                _ = try await fulfilment.ship(
                    orderID: order, shipmentID: UUID(), carrier: "Yamato", trackingNumber: "1",
                    lines: [ShipmentLine(variantID: variant, quantity: 1), ShipmentLine(variantID: UUID(), quantity: 1)], at: Self.now)
            }
            _ = try await fulfilment.ship(
                orderID: order, shipmentID: UUID(), carrier: "Yamato", trackingNumber: "2", lines: nil, at: Self.now)
            await #expect(throws: ReturnError.notOrdered(index: 0)) {
                _ = try await PostgresReturnStore(database: db.pool).request(
                    id: UUID(), orderID: order, customerID: customer, lines: [RefundLine(variantID: UUID(), quantity: 1)], reason: "size",
                    at: Self.now)
            }
        }
    }
}
