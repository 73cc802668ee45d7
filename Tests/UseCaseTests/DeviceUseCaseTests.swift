import Domain
import Foundation
import MockSupport
import Scenes
import Synchronization
import Testing
import UseCase

/// The Device scene's use cases on mock ports, through its container: tokens are normalized
/// before they reach the store, a malformed one never does, and the push queue's purge keeps
/// its two cut-offs.
@Suite("Device use cases on mock gateways")
struct DeviceUseCaseTests {
    /// A device store that records its calls and knows the devices registered through it.
    final class Store: DeviceStore {
        let calls = Mutex<[String]>([])
        let registered = Mutex<Set<String>>([])

        func register(
            token: String, customerID: UUID, platform: DevicePlatform, locale: String, at: Date
        ) async throws -> (device: Device, created: Bool) {
            calls.withLock { $0.append("register \(token) \(locale)") }
            let created = registered.withLock { $0.insert("\(customerID) \(token)").inserted }
            return (Device(token: token, platform: platform, locale: locale, createdAt: at, updatedAt: at), created)
        }

        func remove(token: String, customerID: UUID) async throws -> Bool {
            calls.withLock { $0.append("remove \(token)") }
            return registered.withLock { $0.remove("\(customerID) \(token)") != nil }
        }
    }

    /// A push queue whose only work here is its purge, which it records.
    final class Queue: PushQueue {
        let purges = Mutex<[(settled: Date, stale: Date)]>([])
        func claimDue(now: Date, until: Date, staleBefore: Date, limit: Int) async throws -> [Push] { [] }
        func markSent(_ push: Push, at: Date) async throws {}
        func retry(_ push: Push, at: Date, reason: String) async throws {}
        func giveUp(_ push: Push, at: Date, reason: String) async throws {}
        func removeDevice(of push: Push, at: Date) async throws {}
        func purge(settledBefore: Date, staleBefore: Date, now: Date) async throws -> Int {
            purges.withLock { $0.append((settledBefore, staleBefore)) }
            return 3
        }
    }

    struct Provider: PushProvider {
        func send(_ push: Push) async -> PushResult { .sent }
    }

    let store = Store()
    let queue = Queue()
    static let customer = Fixtures.id(40)

    func useCase(provider: (any PushProvider)? = nil) -> DeviceUseCase {
        DeviceContainer(store: store, pushQueue: queue, pushProvider: provider, system: Fixtures.system).useCase
    }

    func register(_ token: String, locale: String = "ja") async throws -> DeviceRegisterOutcome {
        try await useCase().register(DeviceRegisterInput(customerID: Self.customer, token: token, platform: .ios, locale: locale))
    }

    @Test func registersALowercasedTokenThenUpdatesIt() async throws {
        guard case .registered(let device) = try await register("ABCDEF01") else {
            Issue.record("not registered")
            return
        }
        #expect(device.token == "abcdef01" && device.createdAt == Fixtures.now)
        guard case .updated(let again) = try await register("abcdef01", locale: "en") else {
            Issue.record("not updated")
            return
        }
        #expect(again.locale == "en")
        #expect(store.calls.withLock { $0 } == ["register abcdef01 ja", "register abcdef01 en"])
    }

    /// A device's locale is a language tag as a customer's is; iOS's identifiers are read as one.
    @Test func aLocaleIsALanguageTagAndAnIOSIdentifierReadsAsOne() async throws {
        guard case .registered(let device) = try await register("0c0d", locale: "ja_JP") else {
            Issue.record("not registered")
            return
        }
        #expect(device.locale == "ja-JP")
        guard case .registered(let calendar) = try await register("0c0e", locale: "ja_JP@calendar=japanese") else {
            Issue.record("not registered")
            return
        }
        #expect(calendar.locale == "ja-JP")
        for locale in ["", "e", "en US", "en--US", "日本語", "en-toolongsubtag"] {
            await #expect(throws: ValidationError.self, "\(locale)") { try await register("0e0f", locale: locale) }
        }
        #expect(!store.calls.withLock { $0 }.contains { $0.hasPrefix("register 0e0f") })
    }

    @Test func refusesAMalformedTokenWithoutAskingTheStore() async throws {
        for token in ["abc", "abcdefgh", "", "ab cd", "éé"] {
            #expect(try await register(token) == .malformedToken, "\(token)")
            let removed = try await useCase().unregister(DeviceUnregisterInput(customerID: Self.customer, token: token))
            #expect(removed == .notFound, "\(token)")
        }
        #expect(store.calls.withLock { $0 }.isEmpty)
    }

    @Test func unregistersOnlyADeviceOfTheCustomer() async throws {
        _ = try await register("0a0b")
        let other = DeviceUnregisterInput(customerID: Fixtures.id(41), token: "0A0B")
        #expect(try await useCase().unregister(other) == .notFound)
        #expect(try await useCase().unregister(DeviceUnregisterInput(customerID: Self.customer, token: "0A0B")) == .removed)
        #expect(try await useCase().unregister(DeviceUnregisterInput(customerID: Self.customer, token: "0a0b")) == .notFound)
    }

    @Test func purgesSettledPushesAfter30DaysAndStaleOnesAfterADay() async throws {
        #expect(try await useCase().purgePushes() == 3)
        let purge = try #require(queue.purges.withLock { $0 }.first)
        #expect(purge.settled == Fixtures.now.addingTimeInterval(-30 * 86_400))
        #expect(purge.stale == Fixtures.now.addingTimeInterval(-86_400))
    }

    @Test func sendsPushesOnlyWithAProvider() {
        #expect(useCase().pushSender == nil)
        #expect(useCase(provider: Provider()).pushSender != nil)
    }
}
