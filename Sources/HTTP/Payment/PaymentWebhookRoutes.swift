import Domain
import Foundation
import HTTPTypes
import Hummingbird
import LiveScenes
import Logging
import Presenter
import Scenes

/// `POST /v1/payments/webhook`: the provider's events. The signature is checked on the raw body
/// before anything is parsed; the event is recorded once and answered at once, and acted on
/// (which calls the provider) after the answer.
enum PaymentWebhookRoutes {
    /// Stripe's events are small; a body past this is no event of theirs.
    static let maxBytes = 256 * 1024

    static func register(on routers: SceneRouters, resources: AppResources) {
        let useCase = PaymentWebhookContainer.live(resources).useCase
        routers.anyone.post("/v1/payments/webhook") { request, context in
            guard let useCase else { return PaymentWebhookPresenter.notEnabled }
            if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
                return Problem.make(413, "payload-too-large", "Payload too large", detail: "A webhook body is at most \(maxBytes) bytes.")
            }
            let payload = Array(buffer: try await request.body.collect(upTo: maxBytes))
            let signature = request.headers[HTTPField.Name("Stripe-Signature")!]
            let received = await outcome { try await useCase.receive(payload: payload, signature: signature) }
            if case .success(let event?) = received {
                let logger = context.logger
                if event.kind == .dispute {
                    logger.warning("payment disputed: event \(event.id), payment \(event.paymentIntentID ?? "-")")
                }
                Task {
                    do {
                        try await useCase.handle(event)
                    } catch {
                        logger.warning("payment event \(event.id) not handled yet (the reconciler settles it): \(error)")
                    }
                }
            }
            return PaymentWebhookPresenter.received(received)
        }
    }
}
