// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `POST /v1/admin/orders/{id}/shipments` (auth: admin): ships the lines given (every unit
    /// left when none are) of a paid order in one shipment with its carrier and tracking number;
    /// the order becomes `partially_shipped` or `shipped`. A customer's cancel and a shipment of
    /// one order take the same row lock: one of them wins.
    /// - Throws: `ValidationError` for a variant named twice; `StoreUnavailable`.
    public func ship(_ input: OrderShipInput) async throws -> OrderShipOutcome {
        let repeated = DistinctLines.errors(input.lines?.map(\.variantID) ?? [])
        guard repeated.isEmpty else { throw ValidationError(repeated) }
        do {
            return .shipped(
                try await fulfilment.ship(
                    orderID: input.id, shipmentID: system.newID(), carrier: input.carrier, trackingNumber: input.trackingNumber,
                    lines: input.lines?.map { ShipmentLine(variantID: $0.variantID, quantity: $0.quantity) }, at: system.now()))
        } catch let error as FulfilmentError {
            switch error {
            case .orderNotFound: return .notFound(id: input.id)
            case .notShippable(let progress): return .orderNotShippable(orderStatus: progress.rawValue)
            case .notOrdered(let index):
                return .beyondOrdered(errors: [FieldError("lines[\(index)].variant_id", DistinctLines.notOrdered)])
            case .beyondOrdered(let index, let left):
                return .beyondOrdered(errors: [FieldError("lines[\(index)].quantity", "must be at most \(left), what is left to ship")])
            case .shipmentNotFound, .alreadyDelivered: throw error
            }
        }
    }
}
