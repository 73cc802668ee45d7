/// What can go wrong with accounts and sessions besides invalid input.
public enum AccountError: Error, Equatable, Sendable {
    /// Another customer has the email (compared case-insensitively).
    case emailTaken
    /// No token, an unknown one, or an expired one.
    case unauthenticated
}
