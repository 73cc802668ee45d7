import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

@Suite("Account use case on mock gateways")
struct AccountUseCaseTests {
    let customers = MockCustomerStore()
    let sessions = MockSessionStore()
    let hasher = MockPasswordHasher()
    var useCase: AccountUseCase {
        AccountContainer(customers: customers, sessions: sessions, hasher: hasher, tokens: SequentialTokens(), system: Fixtures.system)
            .useCase
    }
    let alice = SignUp(email: " Alice@Example.com ", password: "correct horse", name: "Alice")

    @Test func signUpTrimsAndStoresAHash() async throws {
        let customer = try await useCase.signUp(alice)
        #expect(customer.email == "Alice@Example.com" && customer.id == Fixtures.fixedID)
        #expect(customers.calls == ["create Alice@Example.com"])
    }

    @Test func duplicateEmailIgnoringCaseIsTaken() async throws {
        _ = try await useCase.signUp(alice)
        await #expect(throws: AccountError.emailTaken) {
            try await useCase.signUp(SignUp(email: "alice@example.COM", password: "another pass", name: "A"))
        }
    }

    @Test func weakOrMalformedInputNamesEachField() async throws {
        do {
            _ = try await useCase.signUp(SignUp(email: "not-an-email", password: "aaaaaaaaaaaa", name: " "))
            Issue.record("accepted bad input")
        } catch let error as ValidationError {
            #expect(error.fields.map(\.field) == ["email", "password", "name"])
        }
        await #expect(throws: ValidationError.self) { try await useCase.signUp(SignUp(email: "a@b.co", password: "short", name: "A")) }
        #expect(customers.calls.isEmpty)
    }

    @Test func signInOpensASessionThatAuthenticates() async throws {
        let customer = try await useCase.signUp(alice)
        let session = try await useCase.signIn(email: "alice@example.com", password: "correct horse")
        #expect(session.customerID == customer.id)
        #expect(session.expiresAt == Fixtures.now.addingTimeInterval(AccountRules.sessionLifetime))
        #expect(try await useCase.authenticate(token: session.token) == customer.id)
        try await useCase.signOut(token: session.token)
        await #expect(throws: AccountError.unauthenticated) { try await useCase.authenticate(token: session.token) }
    }

    @Test func wrongPasswordAndUnknownEmailLookTheSame() async throws {
        _ = try await useCase.signUp(alice)
        await #expect(throws: AccountError.invalidCredentials) {
            try await useCase.signIn(email: "alice@example.com", password: "wrong horse")
        }
        await #expect(throws: AccountError.invalidCredentials) {
            try await useCase.signIn(email: "bob@example.com", password: "correct horse")
        }
        // The unknown email still cost one verification (against the decoy hash).
        #expect(hasher.verifications.count == 2)
        #expect(sessions.count == 0)
    }

    @Test func missingOrUnknownTokensAreUnauthenticated() async throws {
        await #expect(throws: AccountError.unauthenticated) { try await useCase.authenticate(token: nil) }
        await #expect(throws: AccountError.unauthenticated) { try await useCase.authenticate(token: "nope") }
        await #expect(throws: AccountError.unauthenticated) { try await useCase.authenticate(token: String(repeating: "x", count: 500)) }
    }
}
