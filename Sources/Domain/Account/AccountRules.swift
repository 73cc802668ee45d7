import Foundation

/// The rules for account fields.
public enum AccountRules {
    public static let minPasswordLength = 10
    public static let maxPasswordLength = 128
    public static let maxNameLength = 100
    /// How long a session lasts from its last use: one used at least every 30 days stays open.
    public static let sessionLifetime: Duration = .seconds(30 * 24 * 3600)

    /// A session's new end when a request uses it at `now`: renewed to a whole lifetime once
    /// less than half of one is left (so a session is written at most every 15 days, not on
    /// every request); nil while more is left.
    public static func renewedSessionEnd(_ expiresAt: Date, now: Date) -> Date? {
        expiresAt < now + sessionLifetime / 2 ? now + sessionLifetime : nil
    }

    /// Trimmed and in Unicode normalization form C, so `é` typed as one code point or as `e` and
    /// a combining accent is one address (they were two accounts that look alike); the comparison
    /// for uniqueness is case-insensitive (in the database, `lower()`). Migrations/0048 brought
    /// stored addresses to the same form.
    public static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    }

    /// Length (in code points, as every length here: a bound on what is hashed) and variety (in
    /// characters) of a new password, reported under `field`.
    public static func checkPassword(_ password: String, field: String, into errors: inout FieldErrors) {
        if password.storedLength < minPasswordLength {
            errors.add(field, "must be at least \(minPasswordLength) characters")
        } else if password.storedLength > maxPasswordLength {
            errors.add(field, "must be at most \(maxPasswordLength) characters")
        } else if Set(password).count < 4 {
            errors.add(field, "is too simple: use at least 4 different characters")
        }
    }

    /// A domain no mail reaches (RFC 6761): deleted accounts' emails were rewritten into it
    /// (`deleted-<id>@deleted.invalid`; since, into a domain without a dot).
    public static let unreachableDomain = ".invalid"

    public static func emailIsPlausible(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.storedLength <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !parts[1].lowercased().hasSuffix(unreachableDomain)
        else { return false }
        // Nor control characters, nor invisible ones (bidirectional overrides, zero-width
        // spaces, fillers, variation selectors): they make an address that looks like another's.
        return !email.unicodeScalars.contains {
            $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint
                || [.control, .format].contains($0.properties.generalCategory)
        }
    }
}
