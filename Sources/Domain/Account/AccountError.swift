/// What can go wrong with accounts and sessions besides invalid input.
public enum AccountError: Error, Equatable, Sendable {
    case emailTaken
    /// Wrong email or wrong password: deliberately the same case for both.
    case invalidCredentials
    /// No token, an unknown one, or an expired one.
    case unauthenticated
}
