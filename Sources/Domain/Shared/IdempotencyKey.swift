/// The `Idempotency-Key` a client sends with a request that must take effect once (a checkout,
/// a staff refund): 1 to 255 visible ASCII characters, as the payment provider takes them.
public enum IdempotencyKey {
    public static let rule = "must be a header (Idempotency-Key) of 1 to 255 visible ASCII characters"

    /// Whether `key` is one: no space, no control character, nothing past ASCII.
    public static func isWellFormed(_ key: String) -> Bool {
        (1...255).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
