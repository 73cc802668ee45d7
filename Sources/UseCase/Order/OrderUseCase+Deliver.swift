// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `POST /v1/admin/shipments/{id}/delivered` (auth: admin): the shipment is delivered, and its
    /// order too once everything is shipped and delivered.
    /// - Throws: `StoreUnavailable`.
    public func deliver(_ input: OrderDeliverInput) async throws -> OrderDeliverOutcome {
        do {
            return .delivered(try await fulfilment.deliver(shipmentID: input.id, at: system.now()))
        } catch FulfilmentError.shipmentNotFound {
            return .notFound(id: input.id)
        } catch FulfilmentError.alreadyDelivered {
            return .alreadyDelivered
        }
    }
}
