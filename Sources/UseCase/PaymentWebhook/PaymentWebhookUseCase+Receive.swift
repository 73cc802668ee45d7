// once: created by scenegen from Specs/PaymentWebhook.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension PaymentWebhookUseCase {
    /// `POST /v1/payments/webhook` (auth: public): verifies and records an event, answers at
    /// once, and acts on it after the answer (`handle`), so the provider gets its answer fast
    /// and a redelivery is acknowledged and ignored.
    /// - Throws: `StoreUnavailable` (nothing recorded: the provider delivers again).
    public func receive(_ input: PaymentWebhookReceiveInput, background: any BackgroundWork) async throws -> PaymentWebhookReceiveOutcome {
        guard let verifier, payments != nil else { return .notEnabled }
        let event: PaymentEvent
        do {
            event = try verifier.event(payload: input.rawBody, signature: input.stripeSignature, now: system.now())
        } catch PaymentEventError.badSignature {
            return .badSignature
        } catch PaymentEventError.staleSignature {
            return .staleSignature
        } catch PaymentEventError.malformed {
            return .malformed
        }
        guard try await events.recordOnce(event, at: system.now()) else { return .received(received: true, duplicate: true) }
        if event.kind == .dispute {
            background.warn("payment disputed: event \(event.id), payment \(event.paymentIntentID ?? "-")")
        }
        // Not handled now is handled later: the reconciler settles every open payment.
        background.start("payment event \(event.id) (the reconciler settles it)") { try await handle(event) }
        return .received(received: true, duplicate: false)
    }
}
