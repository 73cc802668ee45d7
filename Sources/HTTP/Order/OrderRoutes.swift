import Domain
import Foundation
import Hummingbird
import LiveScenes
import Presenter
import Scenes
import UseCase

/// Checkout and order routes for the signed-in customer, and the staff's refunds.
enum OrderRoutes {
    struct CheckoutBody: Decodable {
        /// Absent: the app confirms the payment itself (payment sheet).
        let paymentMethod: String?

        enum CodingKeys: String, CodingKey { case paymentMethod = "payment_method" }
    }

    struct RefundBody: Decodable {
        struct Line: Decodable {
            let itemID: UUID
            let quantity: Int

            enum CodingKeys: String, CodingKey {
                case quantity
                case itemID = "item_id"
            }
        }

        let amount: Int64?
        let lines: [Line]?
        let reason: String
        let restock: Bool
    }

    static func register(on routers: SceneRouters, resources: AppResources) {
        let container = OrderContainer.live(resources)
        let throttle = ThrottleContainer.live(resources).throttle
        let history = container.history

        routers.admin.post("/v1/admin/orders/:id/refunds") { request, context in
            let id = try RequestParsing.uuid("id", in: context)
            guard let refunds = container.refunds else {
                return Problem.unavailable("Payments are not configured (PAYMENT_API_URL, PAYMENT_API_KEY).")
            }
            let key = request.headers[.init("Idempotency-Key")!] ?? ""
            let body = try await RequestParsing.json(RefundBody.self, from: request)
            let refund = RefundRequest(
                orderID: id, amount: body.amount, lines: (body.lines ?? []).map { RefundLine(itemID: $0.itemID, quantity: $0.quantity) },
                reason: body.reason, restock: body.restock, idempotencyKey: key)
            return RefundPresenter.refund(await outcome { try await refunds.refund(refund) })
        }

        routers.customer.post("/v1/orders") { request, context in
            let customerID = try context.requireCustomer()
            guard let useCase = container.useCase else {
                return Problem.unavailable("Payments are not configured (PAYMENT_API_URL, PAYMENT_API_KEY).")
            }
            let key = request.headers[.init("Idempotency-Key")!] ?? ""
            let body = try await RequestParsing.json(CheckoutBody.self, from: request)
            // Each attempt may charge a card: limited per customer against card testing.
            try await throttle.enforce { try await $0.checkout(customerID: customerID) }
            let checkout = CheckoutRequest(customerID: customerID, paymentMethod: body.paymentMethod, idempotencyKey: key)
            return OrderPresenter.checkout(await outcome { try await useCase.checkout(checkout) })
        }

        routers.customer.post("/v1/orders/:id/cancel") { _, context in
            let customerID = try context.requireCustomer()
            let id = try RequestParsing.uuid("id", in: context)
            guard let cancellation = container.cancellation else {
                return Problem.unavailable("Payments are not configured (PAYMENT_API_URL, PAYMENT_API_KEY).")
            }
            return OrderPresenter.cancellation(await outcome { try await cancellation.cancel(orderID: id, customerID: customerID) })
        }

        // The app's "I'm back" after 3-D Secure: the order is settled from what the provider says.
        routers.customer.post("/v1/orders/:id/payment/refresh") { _, context in
            let customerID = try context.requireCustomer()
            let id = try RequestParsing.uuid("id", in: context)
            guard let checkout = container.useCase else {
                return Problem.unavailable("Payments are not configured (PAYMENT_API_URL, PAYMENT_API_KEY).")
            }
            return OrderPresenter.order(await outcome { try await checkout.refresh(orderID: id, customerID: customerID) })
        }

        routers.customer.get("/v1/orders") { request, context in
            let customerID = try context.requireCustomer()
            let limit = try RequestParsing.int("limit", in: request)
            let cursor = try RequestParsing.string("cursor", in: request)
            return OrderPresenter.page(await outcome { try await history.orders(customerID: customerID, limit: limit, cursor: cursor) })
        }

        routers.customer.get("/v1/orders/:id") { _, context in
            let customerID = try context.requireCustomer()
            let id = try RequestParsing.uuid("id", in: context)
            return OrderPresenter.order(await outcome { try await history.order(id: id, customerID: customerID) })
        }
    }
}
