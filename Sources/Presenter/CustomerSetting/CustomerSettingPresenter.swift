import Domain
import Translator

/// Settings outcomes to HTTP answers.
public enum CustomerSettingPresenter {
    /// 200 with the settings.
    public static func settings(_ outcome: Result<CustomerSettings, any Error>) -> Presentation {
        outcome.map { .json(200, CustomerSettingTranslator.model($0)) }.recover(problem)
    }

    /// 204: the password changed and every other session ended.
    public static func passwordChanged(_ outcome: Result<Void, any Error>) -> Presentation {
        outcome.map { .noContent }.recover(problem)
    }

    static func problem(_ error: any Error) -> Presentation {
        switch error {
        case SettingsError.wrongPassword:
            return Problem.make(
                403, "wrong-password", "Wrong password", detail: "The current password is not correct.",
                errors: [FieldError("current_password", "is not correct")])
        case SettingsError.customerNotFound:
            return Problem.unauthorized("The signed-in customer no longer exists.")
        default:
            // A taken email is the Account scene's problem, answered the same way as at sign-up.
            return AccountPresenter.problem(error)
        }
    }
}
