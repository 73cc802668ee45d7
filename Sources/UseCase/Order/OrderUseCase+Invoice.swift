// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `GET /v1/orders/{id}/invoice` (auth: customer): the qualified-invoice data of one of the
    /// customer's paid orders (refunded ones included: what was sold stays sold on its date).
    /// - Throws: `StoreUnavailable`.
    public func invoice(_ input: OrderInvoiceInput) async throws -> OrderInvoiceOutcome {
        guard let invoiceIssuer else { return .invoicesNotConfigured }
        guard let order = try await store.order(id: input.id, customerID: input.customerID) else { return .notFound(id: input.id) }
        guard let invoice = Invoice(order, issuer: invoiceIssuer) else { return .notInvoiceable(orderStatus: order.progress.rawValue) }
        return .invoice(invoice)
    }
}
