import Foundation

extension UUID {
    /// A new random (version 4) UUID from the system's random number generator. On Linux,
    /// Foundation's `UUID()` opens, reads and closes `/dev/urandom` for each one: three system
    /// calls and about 3 us, on every request that needs an id (`X-Request-ID`). This is two
    /// `getrandom` calls and about 0.6 us.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }
}
