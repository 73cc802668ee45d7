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
    }

    struct Stubs: Sendable {
        var settings: (@Sendable (UUID) throws -> CustomerSettings?)?
        var update: (@Sendable (UUID, SettingsChanges) throws -> CustomerSettings?)?
        var passwordHash: (@Sendable (UUID) throws -> String?)?
        var changePassword: (@Sendable (UUID, String, [UInt8]) throws -> Void)?
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
}

@Suite("CustomerSetting use cases")
struct CustomerSettingUseCaseTests {
    static let me = Fixtures.id(800)
    static let settings = CustomerSettings(
        id: me, email: "a@example.com", name: "A", locale: "en", marketingOptIn: false, createdAt: Fixtures.now)

    static func useCase(_ store: MockCustomerSettingStore) -> CustomerSettingUseCase {
        CustomerSettingContainer(store: store, hasher: MockPasswordHasher(), tokens: SequentialTokens()).useCase
    }

    @Test func updateChecksAndTrimsThenStores() async throws {
        let store = MockCustomerSettingStore { $0.update = { _, _ in Self.settings } }
        _ = try await Self.useCase(store).update(
            customerID: Self.me, SettingsChanges(name: "  Ann ", locale: "ja-JP", marketingOptIn: true))
        #expect(store.calls == [.update(Self.me, SettingsChanges(name: "Ann", locale: "ja-JP", marketingOptIn: true))])
        let error = await #expect(throws: ValidationError.self) {
            try await Self.useCase(store).update(customerID: Self.me, SettingsChanges(email: "nope", name: "", locale: "english please"))
        }
        #expect(error?.fields.map(\.field) == ["email", "current_password", "name", "locale"])
        await #expect(throws: ValidationError.self) { try await Self.useCase(store).update(customerID: Self.me, SettingsChanges()) }
        #expect(store.calls.count == 1)
    }

    @Test func languageTagsAreCheckedForTheirShape() {
        for tag in ["en", "ja-JP", "zh-Hant-TW", "es-419", "de-CH-1996"] { #expect(LanguageTag.isWellFormed(tag), "\(tag)") }
        for tag in ["", "e", "englishes", "en_US", "en-", "-en", "en-toolongsubtag", "ja JP"] {
            #expect(!LanguageTag.isWellFormed(tag), "\(tag)")
        }
    }

    @Test func aPasswordChangeNeedsTheCurrentPasswordAndKeepsOnlyThisSession() async throws {
        let store = MockCustomerSettingStore {
            $0.passwordHash = { _ in "mock$old-password-1" }
            $0.changePassword = { _, _, _ in }
        }
        let change = PasswordChange(currentPassword: "old-password-1", newPassword: "new-password-2")
        try await Self.useCase(store).changePassword(customerID: Self.me, currentToken: "token-7", change)
        #expect(store.calls.last == .changePassword(Self.me, "mock$new-password-2", Array("token-7".utf8)))

        let wrong = PasswordChange(currentPassword: "guess-guess", newPassword: "new-password-2")
        await #expect(throws: SettingsError.wrongPassword) {
            try await Self.useCase(store).changePassword(customerID: Self.me, currentToken: "token-7", wrong)
        }
        let weak = PasswordChange(currentPassword: "old-password-1", newPassword: "short")
        await #expect(throws: ValidationError.self) {
            try await Self.useCase(store).changePassword(customerID: Self.me, currentToken: "t", weak)
        }
        #expect(store.calls.filter { if case .changePassword = $0 { return true } else { return false } }.count == 1)
    }
}
