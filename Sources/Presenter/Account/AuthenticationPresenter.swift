import Domain

/// What the session middleware answers when a request's bearer token opens no session.
public enum AuthenticationPresenter {
    /// 401 with the way to sign in; an unreachable session store is its usual 503.
    public static func refused(_ error: any Error) -> Presentation {
        switch error {
        case AccountError.unauthenticated:
            Problem.unauthorized("Send Authorization: Bearer <session token> from POST /v1/sessions.")
        default:
            Problem.from(error)
        }
    }
}
