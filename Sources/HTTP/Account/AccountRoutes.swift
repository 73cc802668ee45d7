import Hummingbird
import Presenter
import Scenes

/// Account routes: sign up, sign in, sign out.
enum AccountRoutes {
    static func register(on router: Router<StorefrontContext>, customer: RouterGroup<StorefrontContext>, container: AccountContainer) {
        let useCase = container.useCase

        router.post("/v1/customers") { request, _ in
            let body = try await RequestParsing.json(SignUpRequest.self, from: request)
            return AccountPresenter.signedUp(await outcome { try await useCase.signUp(body.signUp) }).response
        }

        router.post("/v1/sessions") { request, _ in
            let body = try await RequestParsing.json(SignInRequest.self, from: request)
            return AccountPresenter.signedIn(await outcome { try await useCase.signIn(email: body.email, password: body.password) })
                .response
        }

        customer.delete("/sessions/current") { request, _ in
            let token = BearerToken.from(request) ?? ""
            return AccountPresenter.signedOut(await outcome { try await useCase.signOut(token: token) }).response
        }
    }
}
