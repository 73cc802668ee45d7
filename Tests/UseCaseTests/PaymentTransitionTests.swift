import Domain
import Testing

/// The one transition function over an order's payment: every (order state, provider status)
/// pair, so a change to any cell shows.
@Suite("Payment transition")
struct PaymentTransitionTests {
    static let action = PaymentAction(clientSecret: "pi_x_secret_y", nextActionType: "use_stripe_sdk")

    static func intent(_ status: PaymentStatus) -> PaymentIntent {
        PaymentIntent(
            id: "pi_x", status: status, amount: Money(amount: 100, currency: Currency("JPY")!),
            action: status == .requiresAction ? action : nil)
    }

    @Test func waitingOrdersFollowTheProvider() {
        let table: [(OrderStatus, PaymentStatus, PaymentTransition)] = [
            (.pendingPayment, .succeeded, .paid),
            (.pendingPayment, .requiresCapture, .paid),
            (.pendingPayment, .requiresAction, .requiresAction(Self.action)),
            (.pendingPayment, .canceled, .failed(declineCode: "payment_canceled")),
            (.pendingPayment, .requiresPaymentMethod, .failed(declineCode: "payment_failed")),
            (.pendingPayment, .processing, .unchanged),
            (.pendingPayment, .requiresConfirmation, .unchanged),
            (.requiresAction, .succeeded, .paid),
            (.requiresAction, .requiresAction, .unchanged),
            (.requiresAction, .requiresPaymentMethod, .failed(declineCode: "authentication_failed")),
            (.requiresAction, .canceled, .failed(declineCode: "authentication_abandoned")),
            (.requiresAction, .processing, .unchanged),
        ]
        for (order, provider, expected) in table {
            #expect(PaymentTransition(order: order, intent: Self.intent(provider)) == expected, "\(order) + \(provider)")
        }
    }

    @Test func settledOrdersNeverMove() {
        let settled: [OrderStatus] = [.paid, .paymentFailed, .cancelled, .refundPending, .refunded]
        let statuses: [PaymentStatus] = [
            .succeeded, .requiresCapture, .requiresAction, .canceled, .requiresPaymentMethod, .processing, .requiresConfirmation,
        ]
        for order in settled {
            for status in statuses { #expect(PaymentTransition(order: order, intent: Self.intent(status)) == .unchanged) }
        }
    }

    @Test func anActionWithoutItsClientSecretChangesNothing() {
        let bare = PaymentIntent(id: "pi_x", status: .requiresAction, amount: Money(amount: 100, currency: Currency("JPY")!))
        #expect(PaymentTransition(order: .pendingPayment, intent: bare) == .unchanged)
    }

    /// The payment sheet: the app confirms, so a payment without a method (or one in 3-D Secure)
    /// waits on the app; only success or cancellation settles the order.
    @Test func anOrderTheAppConfirmsWaitsOnTheApp() {
        let sheet = PaymentIntent(
            id: "pi_x", status: .requiresPaymentMethod, amount: Money(amount: 100, currency: Currency("JPY")!), clientSecret: "pi_x_secret")
        let confirm = PaymentAction(clientSecret: "pi_x_secret", nextActionType: "confirm_payment")
        #expect(PaymentTransition(order: .pendingPayment, intent: sheet, confirmedByApp: true) == .requiresAction(confirm))
        #expect(PaymentTransition(order: .requiresAction, intent: sheet, confirmedByApp: true) == .unchanged)
        for status: PaymentStatus in [.requiresConfirmation, .requiresAction, .processing] {
            #expect(PaymentTransition(order: .requiresAction, intent: Self.intent(status), confirmedByApp: true) == .unchanged)
        }
        #expect(PaymentTransition(order: .requiresAction, intent: Self.intent(.succeeded), confirmedByApp: true) == .paid)
        #expect(
            PaymentTransition(order: .requiresAction, intent: Self.intent(.canceled), confirmedByApp: true)
                == .failed(declineCode: "payment_canceled"))
        // The same payment without a method fails an order whose card was given at checkout.
        #expect(PaymentTransition(order: .requiresAction, intent: sheet) == .failed(declineCode: "authentication_failed"))
    }
}
