import Foundation

/// What a customer's phone is told of their order: paid, shipped (the first shipment),
/// delivered.
public enum PushEvent: String, CaseIterable, Hashable, Sendable {
    case orderPaid = "order_paid"
    case orderShipped = "order_shipped"
    case orderDelivered = "order_delivered"
}

/// One push to send: an order event for one device, recorded by the order change's own
/// transaction, at most one per device, order and event.
public struct Push: Hashable, Sendable {
    public let id: UUID
    public let deviceToken: String
    public let orderID: UUID
    public let event: PushEvent
    public let locale: String
    /// Tries so far, this one included.
    public let attempts: Int
    /// The claim this worker holds it by, and when it was made.
    public let claimID: UUID
    public let claimedAt: Date

    public init(
        id: UUID, deviceToken: String, orderID: UUID, event: PushEvent, locale: String, attempts: Int, claimID: UUID, claimedAt: Date
    ) {
        self.id = id
        self.deviceToken = deviceToken
        self.orderID = orderID
        self.event = event
        self.locale = locale
        self.attempts = attempts
        self.claimID = claimID
        self.claimedAt = claimedAt
    }

    /// Pushes of one order event replace each other on the phone (`apns-collapse-id`): a push
    /// sent again after a lost answer shows once.
    public var collapseID: String { "order-\(orderID.lowercasedText)-\(event.rawValue)" }

    /// The alert, in Japanese for a Japanese locale and in English otherwise.
    public var alert: (title: String, body: String) {
        let japanese = locale.lowercased().hasPrefix("ja")
        switch event {
        case .orderPaid: return japanese ? ("ご注文を承りました", "お支払いが完了しました。") : ("Order confirmed", "Your payment went through.")
        case .orderShipped: return japanese ? ("発送しました", "ご注文の商品を発送しました。") : ("On its way", "Your order has shipped.")
        case .orderDelivered: return japanese ? ("お届けしました", "ご注文の商品をお届けしました。") : ("Delivered", "Your order was delivered.")
        }
    }
}

/// What the push provider answered.
public enum PushResult: Hashable, Sendable {
    case sent
    /// The token is no longer the app's on that device (APNs 410): the device is removed,
    /// unless it was registered again since the push was claimed.
    case unregistered
    /// Worth another try later: 429, 5xx, no answer, a provider token APNs refused (an expired
    /// one is renewed; a wrong key or team is the shop's to fix, and the pushes wait for it).
    case retry(reason: String)
    /// Refused for good: another 4xx, `BadDeviceToken` and `DeviceTokenNotForTopic` included
    /// (a token of the other APNs environment, or a wrong topic, is no reason to forget the
    /// device). The push is given up.
    case rejected(reason: String)
}

/// The queue of pushes (`push_notifications`). Every change after a claim names the claim, and
/// changes nothing once another worker holds the push.
public protocol PushQueue: Sendable {
    /// Claims up to `limit` pushes due at `now` until `until`, so no other worker sends them
    /// meanwhile, counting the try. A push no one holds whose device was removed, or now belongs
    /// to another customer than the order's, or that waited past `staleBefore`, is given up.
    /// - Throws: `StoreUnavailable`.
    func claimDue(now: Date, until: Date, staleBefore: Date, limit: Int) async throws -> [Push]
    /// - Throws: `StoreUnavailable`.
    func markSent(_ push: Push, at: Date) async throws
    /// Releases the claim and makes the push due again at `at`.
    /// - Throws: `StoreUnavailable`.
    func retry(_ push: Push, at: Date, reason: String) async throws
    /// - Throws: `StoreUnavailable`.
    func giveUp(_ push: Push, at: Date, reason: String) async throws
    /// Removes the push's device (APNs said its token is gone) unless it was registered again
    /// after the push was claimed, and gives up the token's waiting pushes.
    /// - Throws: `StoreUnavailable`.
    func removeDevice(of push: Push, at: Date) async throws
    /// Deletes pushes settled (sent or given up) before `before`, and gives up, at `now`, those
    /// still waiting from before `staleBefore` that no live claim holds; the number deleted.
    /// - Throws: `StoreUnavailable`.
    func purge(settledBefore before: Date, staleBefore: Date, now: Date) async throws -> Int
}

/// The push provider (APNs).
public protocol PushProvider: Sendable {
    /// Sends `push`; failures to reach the provider are a `.retry`, never thrown.
    func send(_ push: Push) async -> PushResult
}
