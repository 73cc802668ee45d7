import Hummingbird
import LiveScenes
import Presenter
import Scenes

/// Cart routes, all for the signed-in customer.
enum CartRoutes {
    struct SetQuantityRequest: Decodable { let quantity: Int }

    static func register(on routers: SceneRouters, resources: AppResources) {
        let useCase = CartContainer.live(resources).useCase

        routers.customer.get("/v1/cart") { _, context in
            let customerID = try context.requireCustomer()
            return CartPresenter.cart(await outcome { try await useCase.cart(customerID: customerID) })
        }

        routers.customer.put("/v1/cart/items/:item_id") { request, context in
            let customerID = try context.requireCustomer()
            let itemID = try RequestParsing.uuid("item_id", in: context)
            let body = try await RequestParsing.json(SetQuantityRequest.self, from: request)
            return CartPresenter.cart(
                await outcome { try await useCase.setQuantity(customerID: customerID, itemID: itemID, quantity: body.quantity) }
            )
        }

        routers.customer.delete("/v1/cart/items/:item_id") { _, context in
            let customerID = try context.requireCustomer()
            let itemID = try RequestParsing.uuid("item_id", in: context)
            return CartPresenter.cart(await outcome { try await useCase.remove(customerID: customerID, itemID: itemID) })
        }
    }
}
