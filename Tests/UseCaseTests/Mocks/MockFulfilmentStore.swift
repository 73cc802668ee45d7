import Domain
import Foundation
import MockSupport

/// A `FulfilmentStore` answering what the test set: an unset shipment or delivery throws; the
/// staff's lists and orders, which no test here reads, fail as unstubbed.
struct MockFulfilmentStore: FulfilmentStore {
    var ship: @Sendable ([ShipmentLine]?) throws -> Shipment = { _ in throw FulfilmentError.orderNotFound(UUID()) }
    var deliver: @Sendable (UUID) throws -> Shipment = { throw FulfilmentError.shipmentNotFound($0) }

    func ship(
        orderID: UUID, shipmentID: UUID, carrier: String, trackingNumber: String, lines: [ShipmentLine]?, at: Date
    ) async throws -> Shipment {
        try ship(lines)
    }

    func deliver(shipmentID: UUID, at: Date) async throws -> Shipment { try deliver(shipmentID) }

    func staffPage(matching filter: StaffOrderFilter, after cursor: PageCursor?, limit: Int) async throws -> [StaffOrder] {
        throw UnstubbedCall(call: "staffPage")
    }

    func staffOrder(id: UUID) async throws -> StaffOrder? { throw UnstubbedCall(call: "staffOrder") }
}
