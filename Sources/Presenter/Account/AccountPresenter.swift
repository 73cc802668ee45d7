import Domain
import Translator

/// Account outcomes to HTTP answers.
public enum AccountPresenter {
    /// 201 with the customer.
    public static func signedUp(_ outcome: Result<Customer, any Error>) -> Presentation {
        outcome.map { .json(201, AccountTranslator.model($0)) }.recover(problem)
    }

    /// 201 with the session token.
    public static func signedIn(_ outcome: Result<Session, any Error>) -> Presentation {
        outcome.map { .json(201, AccountTranslator.model($0)) }.recover(problem)
    }

    /// 204.
    public static func signedOut(_ outcome: Result<Void, any Error>) -> Presentation {
        outcome.map { .noContent }.recover(problem)
    }

    public static func problem(_ error: any Error) -> Presentation {
        switch error {
        case AccountError.emailTaken:
            return Problem.make(
                409, "email-taken", "Email already registered", detail: "An account with this email already exists.",
                errors: [FieldError("email", "is already registered")])
        case AccountError.invalidCredentials:
            return Problem.unauthorized("The email or password is wrong.")
        case AccountError.unauthenticated:
            return Problem.unauthorized("Send Authorization: Bearer <session token> from POST /v1/sessions.")
        default:
            return Problem.from(error)
        }
    }
}
