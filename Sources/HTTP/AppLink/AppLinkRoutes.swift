import Domain
import Foundation
import Hummingbird
import LiveScenes
import Presenter
import Scenes

/// Universal links: `GET /.well-known/apple-app-site-association` (the apps of `APPLE_APP_IDS`
/// may open `/items/*` and `/orders/*`) and those web paths' pages, for a link opened without
/// the app. Registered beside health and metrics: their answers are an Apple file and HTML
/// pages, not the JSON API's scenes.
enum AppLinkRoutes {
    static func register(on router: Router<StorefrontContext>, resources: AppResources) {
        let links = resources.config.appLinks
        let catalog = CatalogContainer.live(resources).useCase
        router.get("/.well-known/apple-app-site-association") { _, _ in
            AppLinkPresenter.association(links)
        }
        router.get("/items/:id") { _, context in
            guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else { return AppLinkPresenter.notFound(links) }
            return AppLinkPresenter.itemPage(await outcome { try await catalog.show(CatalogShowInput(id: id)) }, links: links)
        }
        router.get("/orders/:id") { _, context in
            guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else { return AppLinkPresenter.notFound(links) }
            return AppLinkPresenter.orderPage(id: id, links: links)
        }
    }
}
