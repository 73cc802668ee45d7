import Foundation

/// A partial change of settings: `nil` leaves a setting as it is. Changing the email (what
/// signs in) takes the current password, like changing the password.
public struct SettingsChanges: Hashable, Sendable {
    public var email: String?
    public var name: String?
    public var locale: String?
    public var marketingOptIn: Bool?
    public var currentPassword: String?

    public init(
        email: String? = nil, name: String? = nil, locale: String? = nil, marketingOptIn: Bool? = nil, currentPassword: String? = nil
    ) {
        self.email = email
        self.name = name
        self.locale = locale
        self.marketingOptIn = marketingOptIn
        self.currentPassword = currentPassword
    }

    /// The changes trimmed and checked.
    /// - Throws: `ValidationError` naming each bad field, or the body when it changes nothing.
    public func validated() throws(ValidationError) -> SettingsChanges {
        var errors = FieldErrors()
        errors.require(
            email != nil || name != nil || locale != nil || marketingOptIn != nil, "body",
            "must change at least one of email, name, locale, marketing_opt_in")
        let email = self.email.map(AccountRules.normalizedEmail)
        if let email {
            errors.require(AccountRules.emailIsPlausible(email), "email", "must be an email address like name@example.com")
            errors.require(currentPassword != nil, "current_password", "is required to change the email")
        }
        let name = self.name?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let name {
            errors.require(
                !name.isEmpty && name.storedLength <= AccountRules.maxNameLength, "name",
                "must be 1 to \(AccountRules.maxNameLength) characters")
        }
        let locale = self.locale.map { LanguageTag.normalized($0) ?? "" }
        if let locale { errors.require(!locale.isEmpty, "locale", LanguageTag.rule) }
        try errors.throwIfAny()
        return SettingsChanges(email: email, name: name, locale: locale, marketingOptIn: marketingOptIn, currentPassword: currentPassword)
    }
}

/// A password change: the current password proves it is the customer.
public struct PasswordChange: Hashable, Sendable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }

    /// - Throws: `ValidationError` for a weak new password or one equal to the current.
    public func validate() throws(ValidationError) {
        var errors = FieldErrors()
        AccountRules.checkPassword(newPassword, field: "new_password", into: &errors)
        errors.require(newPassword != currentPassword, "new_password", "must differ from the current password")
        try errors.throwIfAny()
    }
}
