/// What opens the shop's app from a link (universal links): the apps that may claim the shop's
/// web paths, each `TEAMID.bundle.id` (Apple's 10-character team id, then the bundle id), and
/// the app's App Store id for the Smart App Banner of the web pages, when it has one.
public struct AppLinks: Hashable, Sendable {
    public let appIDs: [String]
    public let appStoreID: String?

    /// The web paths an app opens: an item's page and an order's (`/items/{id}`, `/orders/{id}`).
    public static let paths = ["/items/*", "/orders/*"]

    /// `nil` when there is no app id, one is not `TEAMID.bundle.id`, or the App Store id is not
    /// digits.
    public init?(appIDs: [String], appStoreID: String?) {
        guard !appIDs.isEmpty, appIDs.allSatisfy(Self.isAppID) else { return nil }
        if let appStoreID, appStoreID.isEmpty || appStoreID.utf8.count > 12 || !appStoreID.utf8.allSatisfy(Self.isDigit) { return nil }
        self.appIDs = appIDs
        self.appStoreID = appStoreID
    }

    /// `ABCDE12345.com.example.shop`: 10 uppercase letters or digits, a dot, then a bundle id of
    /// letters, digits, `-` and `.` (neither first nor last), 155 characters at most.
    static func isAppID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "."), isAppleID(String(decoding: bytes[..<10], as: UTF8.self)) else {
            return false
        }
        let bundle = bytes[11...]
        return bundle.count <= 155 && bundle.first != UInt8(ascii: ".") && bundle.last != UInt8(ascii: ".")
            && !text.contains("..")
            && bundle.allSatisfy {
                isDigit($0) || isUpper($0) || (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
    }

    /// An id Apple's developer account gives (a team's, a key's): 10 uppercase letters or digits.
    public static func isAppleID(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { isDigit($0) || isUpper($0) }
    }

    /// By byte, not by `Character`: a digit with a combining mark is one `Character`.
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isUpper(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }
}
