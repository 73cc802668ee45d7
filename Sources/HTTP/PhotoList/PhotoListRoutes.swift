import Hummingbird
import LiveScenes
import Presenter
import Scenes

/// PhotoList routes: the photos of an item's reviews, public.
enum PhotoListRoutes {
    static func register(on routers: SceneRouters, resources: AppResources) {
        let useCase = PhotoListContainer.live(resources).useCase

        routers.anyone.get("/v1/items/:id/photos") { request, context in
            let itemID = try RequestParsing.uuid("id", in: context)
            let limit = try RequestParsing.int("limit", in: request)
            let cursor = try RequestParsing.string("cursor", in: request)
            return PhotoListPresenter.page(await outcome { try await useCase.photos(itemID: itemID, limit: limit, cursor: cursor) })
        }
    }
}
