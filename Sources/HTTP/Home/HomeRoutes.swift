import Hummingbird
import Presenter
import Scenes

/// Home routes: the public front page feed.
enum HomeRoutes {
    static func register(on router: Router<StorefrontContext>, container: HomeContainer) {
        let useCase = container.useCase

        router.get("/v1/home") { _, _ in
            HomePresenter.feed(await outcome { try await useCase.feed() }).response
        }
    }
}
