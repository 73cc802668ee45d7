import Foundation

/// A device a customer gets pushes on: its APNs token (lowercase hexadecimal, as the app
/// writes the bytes APNs gave it), platform and locale.
public struct Device: Hashable, Sendable {
    public let token: String
    public let platform: DevicePlatform
    public let locale: String
    public let createdAt: Date
    public let updatedAt: Date

    public init(token: String, platform: DevicePlatform, locale: String, createdAt: Date, updatedAt: Date) {
        self.token = token
        self.platform = platform
        self.locale = locale
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Devices a customer keeps: registering one more forgets the one registered longest ago,
    /// so no account fans an order's change out to an unbounded number of pushes.
    public static let maximumPerCustomer = 10

    /// The token as stored: hexadecimal digits in lowercase (an app may send either case), or
    /// `nil` when it holds anything else, none, or an odd count of them.
    public static func normalizedToken(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count.isMultiple(of: 2),
            text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return text.lowercased()
    }
}

public enum DevicePlatform: String, CaseIterable, Hashable, Sendable {
    case ios
}

/// Where devices are kept.
public protocol DeviceStore: Sendable {
    /// Registers `token` as the customer's device, or updates its platform and locale: a token
    /// another customer registered moves to this one (one phone, a new account).
    /// - Returns: the device and whether it is new to this customer.
    /// - Throws: `StoreUnavailable`.
    func register(
        token: String, customerID: UUID, platform: DevicePlatform, locale: String, at: Date
    ) async throws -> (device: Device, created: Bool)
    /// Removes the customer's device with `token`; false when the customer has none such.
    /// - Throws: `StoreUnavailable`.
    func remove(token: String, customerID: UUID) async throws -> Bool
}
