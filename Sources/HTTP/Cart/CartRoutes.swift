import Hummingbird
import Presenter
import Scenes

/// Cart routes, all for the signed-in customer.
enum CartRoutes {
    struct SetQuantityRequest: Decodable { let quantity: Int }

    static func register(customer: RouterGroup<StorefrontContext>, container: CartContainer) {
        let useCase = container.useCase

        customer.get("/cart") { _, context in
            let customerID = try context.requireCustomer()
            return CartPresenter.cart(await outcome { try await useCase.cart(customerID: customerID) }).response
        }

        customer.put("/cart/items/:item_id") { request, context in
            let customerID = try context.requireCustomer()
            let itemID = try RequestParsing.uuid("item_id", in: context)
            let body = try await RequestParsing.json(SetQuantityRequest.self, from: request)
            return CartPresenter.cart(
                await outcome { try await useCase.setQuantity(customerID: customerID, itemID: itemID, quantity: body.quantity) }
            ).response
        }

        customer.delete("/cart/items/:item_id") { _, context in
            let customerID = try context.requireCustomer()
            let itemID = try RequestParsing.uuid("item_id", in: context)
            return CartPresenter.cart(await outcome { try await useCase.remove(customerID: customerID, itemID: itemID) }).response
        }
    }
}
