import Foundation

/// The idempotency key of a return's refund, `return-<the return's id>`: a return is refunded
/// once however often its receipt is sent. The store reads it to find that refund, and
/// Migrations/0040 (whose text never changes) spells the prefix too; a staff refund may not take
/// a key of this shape.
public enum ReturnRefundKey {
    public static let prefix = "return-"

    public static func of(_ returnID: UUID) -> String { prefix + returnID.lowercasedText }
}
