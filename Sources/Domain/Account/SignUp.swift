import Foundation

/// What a sign-up sends, before it is checked.
public struct SignUp: Hashable, Sendable {
    public var email: String
    public var password: String
    public var name: String

    public init(email: String, password: String, name: String) {
        self.email = email
        self.password = password
        self.name = name
    }
}

extension SignUp {
    /// - Throws: `ValidationError` naming each bad field.
    public func validated() throws(ValidationError) -> SignUp {
        var errors = FieldErrors()
        let email = AccountRules.normalizedEmail(self.email)
        errors.require(AccountRules.emailIsPlausible(email), "email", "must be an email address like name@example.com")
        AccountRules.checkPassword(password, field: "password", into: &errors)
        let name = self.name.trimmingCharacters(in: .whitespacesAndNewlines)
        errors.require(
            !name.isEmpty && name.storedLength <= AccountRules.maxNameLength, "name",
            "must be 1 to \(AccountRules.maxNameLength) characters")
        try errors.throwIfAny()
        return SignUp(email: email, password: password, name: name)
    }
}
