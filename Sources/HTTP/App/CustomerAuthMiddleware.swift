import Foundation
import Hummingbird
import Presenter
import UseCase

/// Lets a request through only with a live session's `Authorization: Bearer <token>`, and puts
/// the customer's id in the context for the route.
struct CustomerAuthMiddleware: RouterMiddleware {
    typealias Context = StorefrontContext
    let accounts: AccountUseCase

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        do {
            context.customerID = try await accounts.authenticate(token: BearerToken.from(request))
        } catch {
            return AuthenticationPresenter.refused(error).response(from: request, context: context)
        }
        return try await next(request, context)
    }
}

extension StorefrontContext {
    /// The signed-in customer; only on routes behind `CustomerAuthMiddleware`.
    /// - Throws: `ProblemError` 401 when the route was registered without it.
    func requireCustomer() throws -> UUID {
        guard let customerID else {
            throw ProblemError(Problem.unauthorized("This route needs a signed-in customer."))
        }
        return customerID
    }
}
