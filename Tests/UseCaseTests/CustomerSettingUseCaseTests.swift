import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

/// A `CustomerSettingStore` that answers what the test set and records every call.
final class MockCustomerSettingStore: CustomerSettingStore, Sendable {
    enum Call: Equatable, Sendable {
        case settings(UUID)
        case update(UUID, SettingsChanges)
        case passwordHash(UUID)
        case changePassword(UUID, String, [UInt8])
        case deleteAccount(UUID)
    }

    struct Stubs: Sendable {
        var settings: (@Sendable (UUID) throws -> CustomerSettings?)?
        var update: (@Sendable (UUID, SettingsChanges) throws -> CustomerSettings?)?
        var passwordHash: (@Sendable (UUID) throws -> String?)?
        var changePassword: (@Sendable (UUID, String, [UInt8]) throws -> Void)?
        var deleteAccount: (@Sendable (UUID) throws -> AccountDeletion)?
    }

    private let recorder: MockRecorder<Call, Stubs>

    init(_ configure: (inout Stubs) -> Void = { _ in }) {
        recorder = MockRecorder(Stubs(), configure)
    }

    var calls: [Call] { recorder.calls }

    func settings(customerID: UUID) async throws -> CustomerSettings? { try recorder.record(.settings(customerID), \.settings)(customerID) }
    func update(customerID: UUID, changes: SettingsChanges) async throws -> CustomerSettings? {
        try recorder.record(.update(customerID, changes), \.update)(customerID, changes)
    }
    func passwordHash(customerID: UUID) async throws -> String? {
        try recorder.record(.passwordHash(customerID), \.passwordHash)(customerID)
    }
    func changePassword(customerID: UUID, newHash: String, keptSession: [UInt8]) async throws {
        try recorder.record(.changePassword(customerID, newHash, keptSession), \.changePassword)(customerID, newHash, keptSession)
    }
    func deleteAccount(customerID: UUID, at: Date) async throws -> AccountDeletion {
        try recorder.record(.deleteAccount(customerID), \.deleteAccount)(customerID)
    }
}

@Suite("CustomerSetting use cases")
struct CustomerSettingUseCaseTests {
    static let me = Fixtures.id(800)
    static let settings = CustomerSettings(
        id: me, email: "a@example.com", name: "A", locale: "en", marketingOptIn: false, createdAt: Fixtures.now)

    static func useCase(_ store: MockCustomerSettingStore) -> CustomerSettingUseCase {
        CustomerSettingContainer(store: store, hasher: MockPasswordHasher(), tokens: SequentialTokens(), system: Fixtures.system).useCase
    }

    static func changes(
        email: String? = nil, name: String? = nil, locale: String? = nil, marketingOptIn: Bool? = nil, currentPassword: String? = nil
    ) -> CustomerSettingUpdateInput {
        CustomerSettingUpdateInput(
            customerID: me, email: email, name: name, locale: locale, marketingOptIn: marketingOptIn, currentPassword: currentPassword)
    }

    static func passwordChange(_ current: String, _ new: String, token: String = "token-7") -> CustomerSettingChangePasswordInput {
        CustomerSettingChangePasswordInput(customerID: me, sessionToken: token, currentPassword: current, newPassword: new)
    }

    @Test func updateChecksAndTrimsThenStores() async throws {
        let store = MockCustomerSettingStore { $0.update = { _, _ in Self.settings } }
        #expect(
            try await Self.useCase(store).update(Self.changes(name: "  Ann ", locale: "ja-JP", marketingOptIn: true))
                == .updated(Self.settings))
        #expect(store.calls == [.update(Self.me, SettingsChanges(name: "Ann", locale: "ja-JP", marketingOptIn: true))])
        // iOS's identifier is read as a tag, as a device's locale is.
        _ = try await Self.useCase(store).update(Self.changes(locale: "ja_JP@calendar=japanese"))
        #expect(store.calls.last == .update(Self.me, SettingsChanges(locale: "ja-JP")))
        let error = await #expect(throws: ValidationError.self) {
            try await Self.useCase(store).update(Self.changes(email: "nope", name: "", locale: "english please"))
        }
        #expect(error?.fields.map(\.field) == ["email", "current_password", "name", "locale"])
        await #expect(throws: ValidationError.self) { try await Self.useCase(store).update(Self.changes()) }
        #expect(store.calls.count == 2)
    }

    @Test func languageTagsAreCheckedForTheirShape() {
        for tag in ["en", "ja-JP", "zh-Hant-TW", "es-419", "de-CH-1996"] { #expect(LanguageTag.isWellFormed(tag), "\(tag)") }
        for tag in ["", "e", "englishes", "en_US", "en-", "-en", "en-toolongsubtag", "ja JP"] {
            #expect(!LanguageTag.isWellFormed(tag), "\(tag)")
        }
        #expect(LanguageTag.normalized("en_US") == "en-US" && LanguageTag.normalized("ja_JP@calendar=japanese") == "ja-JP")
        #expect(LanguageTag.normalized("ja JP") == nil && LanguageTag.normalized("@ja") == nil)
    }

    @Test func aPasswordChangeNeedsTheCurrentPasswordAndKeepsOnlyThisSession() async throws {
        let store = MockCustomerSettingStore {
            $0.passwordHash = { _ in "mock$old-password-1" }
            $0.changePassword = { _, _, _ in }
        }
        #expect(try await Self.useCase(store).changePassword(Self.passwordChange("old-password-1", "new-password-2")) == .changed)
        #expect(store.calls.last == .changePassword(Self.me, "mock$new-password-2", Array("token-7".utf8)))
        #expect(try await Self.useCase(store).changePassword(Self.passwordChange("guess-guess", "new-password-2")) == .wrongPassword)
        await #expect(throws: ValidationError.self) {
            try await Self.useCase(store).changePassword(Self.passwordChange("old-password-1", "short", token: "t"))
        }
        #expect(store.calls.filter { if case .changePassword = $0 { return true } else { return false } }.count == 1)
    }

    /// The store's answer becomes the outcome; a wrong password reaches no deletion.
    @Test func anAccountIsDeletedOnlyWithItsPasswordAndNoOrderOnItsWay() async throws {
        let open = [Fixtures.id(1), Fixtures.id(2)]
        func delete(_ answer: AccountDeletion, password: String = "old-password-1") async throws -> CustomerSettingDeleteAccountOutcome {
            let store = MockCustomerSettingStore {
                $0.passwordHash = { _ in "mock$old-password-1" }
                $0.deleteAccount = { _ in answer }
            }
            return try await Self.useCase(store).deleteAccount(
                CustomerSettingDeleteAccountInput(customerID: Self.me, currentPassword: password))
        }
        #expect(try await delete(.deleted) == .deleted)
        #expect(try await delete(.noCustomer) == .customerNotFound)
        #expect(try await delete(.ordersInProgress(open)) == .ordersInProgress(orderIDs: open))
        #expect(try await delete(.deleted, password: "guess-guess") == .wrongPassword)
    }
}
