import Foundation

/// A registered shopper.
public struct Customer: Hashable, Sendable {
    public let id: UUID
    public let email: String
    public let name: String
    public let createdAt: Date

    public init(id: UUID, email: String, name: String, createdAt: Date) {
        self.id = id
        self.email = email
        self.name = name
        self.createdAt = createdAt
    }
}

/// A signed-in session: the token goes to the client once and is kept only as a hash.
public struct Session: Hashable, Sendable {
    public let token: String
    public let customerID: UUID
    public let expiresAt: Date

    public init(token: String, customerID: UUID, expiresAt: Date) {
        self.token = token
        self.customerID = customerID
        self.expiresAt = expiresAt
    }
}

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

/// The rules for account fields.
public enum AccountRules {
    public static let minPasswordLength = 10
    public static let maxPasswordLength = 128
    public static let maxNameLength = 100
    public static let sessionLifetime: TimeInterval = 30 * 24 * 3600

    /// Trimmed; the comparison for uniqueness is case-insensitive (in the database).
    public static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Length and variety of a new password, reported under `field`.
    public static func checkPassword(_ password: String, field: String, into errors: inout FieldErrors) {
        if password.count < minPasswordLength {
            errors.add(field, "must be at least \(minPasswordLength) characters")
        } else if password.count > maxPasswordLength {
            errors.add(field, "must be at most \(maxPasswordLength) characters")
        } else if Set(password).count < 4 {
            errors.add(field, "is too simple: use at least 4 different characters")
        }
    }

    public static func emailIsPlausible(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.storedLength <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix(".")
        else { return false }
        return !email.contains { $0.isWhitespace || $0.isNewline }
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
