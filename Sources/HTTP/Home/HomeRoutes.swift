import Hummingbird
import LiveScenes
import Presenter
import Scenes

/// Home routes: the public front page feed.
enum HomeRoutes {
    static func register(on routers: SceneRouters, resources: AppResources) {
        let useCase = HomeContainer.live(resources).useCase

        routers.anyone.get("/v1/home") { _, _ in
            HomePresenter.feed(await outcome { try await useCase.feed() })
        }
    }
}
