import Domain
import Foundation
import MockSupport
import Testing

/// An invoice is dated by the sale: when the order was first paid, not when it was placed. A
/// 3-D Secure order placed at 23:58 and paid after midnight was dated the day before.
@Suite("Invoice date")
struct InvoiceDateTests {
    @Test func theInvoiceIsDatedWhenTheOrderWasFirstPaid() throws {
        let issuer = try #require(InvoiceIssuer(name: "Shop", registrationNumber: "T1234567890123"))
        var order = Order(
            id: Fixtures.fixedID, customerID: UUID(), status: .paid, lines: [], total: Money(amount: 2400, currency: Fixtures.yen),
            paymentIntentID: "pi_1", declineCode: nil, createdAt: Fixtures.now)
        let paid = Fixtures.now.addingTimeInterval(180)
        func changed(_ from: OrderStatus, _ to: OrderStatus, at: Date) -> OrderEvent {
            OrderEvent(type: "status_changed", at: at, actor: .system, data: ["from": from.rawValue, "to": to.rawValue])
        }
        order.events = [
            OrderEvent(type: "placed", at: Fixtures.now, actor: .customer, data: [:]),
            changed(.pendingPayment, .requiresAction, at: Fixtures.now.addingTimeInterval(1)), changed(.requiresAction, .paid, at: paid),
            // A cancel whose refund failed puts it back to paid later: the sale stays the first.
            changed(.paid, .refundPending, at: paid.addingTimeInterval(600)),
            changed(.refundPending, .paid, at: paid.addingTimeInterval(700)),
        ]
        #expect(Invoice(order, issuer: issuer)?.issuedAt == paid)
    }
}
