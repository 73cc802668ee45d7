import Hummingbird
import LiveScenes
import Presenter
import Scenes
import UseCase

/// Account routes: sign up, sign in, sign out. Sign-ups and sign-ins pass the throttle first.
enum AccountRoutes {
    static func register(on routers: SceneRouters, resources: AppResources) {
        let useCase = AccountContainer.live(resources).useCase
        let throttle = ThrottleContainer.live(resources).throttle

        routers.anyone.post("/v1/customers") { request, context in
            let body = try await RequestParsing.json(SignUpRequest.self, from: request)
            try await throttle.enforce { try await $0.signUp(client: context.clientAddress) }
            return AccountPresenter.signedUp(await outcome { try await useCase.signUp(body.signUp) })
        }

        routers.anyone.post("/v1/sessions") { request, context in
            let body = try await RequestParsing.json(SignInRequest.self, from: request)
            try await throttle.enforce { try await $0.signIn(email: body.email, client: context.clientAddress) }
            return AccountPresenter.signedIn(await outcome { try await useCase.signIn(email: body.email, password: body.password) })
        }

        routers.customer.delete("/v1/sessions/current") { request, _ in
            let token = BearerToken.from(request) ?? ""
            return AccountPresenter.signedOut(await outcome { try await useCase.signOut(token: token) })
        }
    }
}
