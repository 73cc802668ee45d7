import Domain
import Foundation

/// Fixed values unit tests share: a clock that stands still, one id for everything created, and
/// recognisable ids for stored records.
public enum Fixtures {
    public static let now = Date(timeIntervalSince1970: 1_795_000_000)
    public static let fixedID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
    public static let system = SystemContext(now: { now }, newID: { fixedID })
    public static let yen = Currency("JPY")!

    /// A recognisable id: `00000000-0000-4000-8000-<n>`.
    public static func id(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!
    }
}
