import Hummingbird
import LiveScenes
import Presenter
import Scenes

/// Catalog routes: parse, call the use case, present.
enum CatalogRoutes {
    static func register(on routers: SceneRouters, resources: AppResources) {
        let useCase = CatalogContainer.live(resources).useCase

        routers.anyone.get("/v1/items") { request, _ in
            let limit = try RequestParsing.int("limit", in: request)
            let cursor = try RequestParsing.string("cursor", in: request)
            let search = try RequestParsing.string("q", in: request)
            let category = try RequestParsing.string("category", in: request)
            return CatalogPresenter.page(
                await outcome { try await useCase.list(limit: limit, cursor: cursor, search: search, category: category) }
            )
        }

        routers.anyone.get("/v1/items/:id") { _, context in
            let id = try RequestParsing.uuid("id", in: context)
            return CatalogPresenter.item(await outcome { try await useCase.show(id: id) })
        }

        routers.admin.post("/v1/admin/items") { request, _ in
            let body = try await RequestParsing.json(CreateItemRequest.self, from: request)
            return CatalogPresenter.created(await outcome { try await useCase.create(body.draft) })
        }

        routers.admin.patch("/v1/admin/items/:id") { request, context in
            let id = try RequestParsing.uuid("id", in: context)
            let body = try await RequestParsing.json(UpdateItemRequest.self, from: request)
            return CatalogPresenter.item(await outcome { try await useCase.update(id: id, changes: body.changes) })
        }
    }
}
