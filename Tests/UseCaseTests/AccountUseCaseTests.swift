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
        AccountContainer(
            customers: customers, sessions: sessions, hasher: hasher, tokens: SequentialTokens(), decoy: MockDecoyHash(),
            system: Fixtures.system
        ).useCase
    }
    let alice = AccountSignUpInput(email: " Alice@Example.com ", password: "correct horse", name: "Alice")

    /// The customer a sign-up made, or a recorded issue.
    func signedUp(_ input: AccountSignUpInput) async throws -> Customer? {
        guard case .signedUp(let customer) = try await useCase.signUp(input) else {
            Issue.record("not signed up")
            return nil
        }
        return customer
    }

    @Test func signUpTrimsAndStoresAHash() async throws {
        let customer = try #require(try await signedUp(alice))
        #expect(customer.email == "Alice@Example.com" && customer.id == Fixtures.fixedID)
        #expect(customers.calls == ["create Alice@Example.com"])
    }

    /// The store refusing a taken email is answered `emailTaken` (that case does not count is
    /// the database's rule, tested on PostgreSQL: `AccountGatewayTests`).
    @Test func aTakenEmailIsAnsweredEmailTaken() async throws {
        _ = try await signedUp(alice)
        let again = AccountSignUpInput(email: alice.email, password: "another pass", name: "A")
        #expect(try await useCase.signUp(again) == .emailTaken)
    }

    /// A deleted account's email became `deleted-<id>@deleted.invalid`: a live account holding
    /// that address made the deletion fail (a 500, every time), so no one may take one (deletion
    /// now writes a domain without a dot, which no address taken has). Nor an address with a
    /// control or invisible character.
    @Test func anAddressNoMailReachesOrWithInvisibleCharactersIsRefused() async throws {
        for email in [
            "deleted-\(UUID().uuidString.lowercased())@deleted.invalid", "a@b.INVALID", "x@mail.invalid",
            // Invisible characters make an address look like another's.
            "u1\u{1}@example.com", "u2\u{202E}@example.com", "u3\u{200B}@example.com", "u4@exa\u{FEFF}mple.com", "u5\u{3164}@example.com",
            "u6\u{34F}@example.com", "u7\u{FE0F}@example.com",
        ] {
            let error = await #expect(throws: ValidationError.self) {
                try await useCase.signUp(AccountSignUpInput(email: email, password: "correct horse", name: "A"))
            }
            #expect(error?.fields.map(\.field) == ["email"], "\(email)")
        }
    }

    @Test func weakOrMalformedInputNamesEachField() async throws {
        let error = await #expect(throws: ValidationError.self) {
            try await useCase.signUp(AccountSignUpInput(email: "not-an-email", password: "aaaaaaaaaaaa", name: " "))
        }
        #expect(error?.fields.map(\.field) == ["email", "password", "name"])
        await #expect(throws: ValidationError.self) {
            try await useCase.signUp(AccountSignUpInput(email: "a@b.co", password: "short", name: "A"))
        }
        #expect(customers.calls.isEmpty)
    }

    @Test func signInOpensASessionThatAuthenticates() async throws {
        let customer = try #require(try await signedUp(alice))
        guard
            case .signedIn(let session) = try await useCase.signIn(
                AccountSignInInput(email: "alice@example.com", password: "correct horse"))
        else {
            Issue.record("not signed in")
            return
        }
        #expect(session.customerID == customer.id)
        #expect(session.expiresAt == Fixtures.now + AccountRules.sessionLifetime)
        #expect(try await useCase.authenticate(token: session.token) == customer.id)
        #expect(try await useCase.signOut(AccountSignOutInput(customerID: customer.id, sessionToken: session.token)) == .signedOut)
        await #expect(throws: AccountError.unauthenticated) { try await useCase.authenticate(token: session.token) }
    }

    /// Sign-in composes the email it is sent, as sign-up keeps it; an address stored decomposed
    /// before (Migrations/0048 leaves one so where another account has its composed form) is
    /// reached by its exact spelling first.
    @Test func signInFindsTheComposedFormAndALegacySpellingExactly() async throws {
        let composed = try #require(
            try await signedUp(AccountSignUpInput(email: "zo\u{EB}@example.com", password: "first horse", name: "Z")))
        let legacy = Customer(id: UUID(), email: "zoe\u{308}@example.com", name: "Z2", createdAt: Fixtures.now)
        try await customers.create(legacy, passwordHash: try await hasher.hash("second horse"))
        func signIn(_ email: String, _ password: String) async throws -> UUID? {
            guard case .signedIn(let session) = try await useCase.signIn(AccountSignInInput(email: email, password: password)) else {
                return nil
            }
            return session.customerID
        }
        #expect(try await signIn("ZO\u{CB}@example.com", "first horse") == composed.id)
        #expect(try await signIn("zoe\u{308}@example.com", "second horse") == legacy.id)
        // The legacy spelling in another case is still the legacy account's.
        #expect(try await signIn("ZOE\u{308}@example.com", "first horse") == nil)
        // A decomposed spelling no account keeps finds the composed account.
        let rene = try #require(
            try await signedUp(AccountSignUpInput(email: "rene\u{301}@example.com", password: "third horse", name: "R")))
        #expect(rene.email.unicodeScalars.elementsEqual("ren\u{E9}@example.com".unicodeScalars))
        #expect(try await signIn("rene\u{301}@example.com", "third horse") == rene.id)
    }

    @Test func wrongPasswordAndUnknownEmailLookTheSame() async throws {
        _ = try await signedUp(alice)
        #expect(try await useCase.signIn(AccountSignInInput(email: "alice@example.com", password: "wrong horse")) == .invalidCredentials)
        #expect(try await useCase.signIn(AccountSignInInput(email: "bob@example.com", password: "correct horse")) == .invalidCredentials)
        // The unknown email still cost one verification (against the decoy hash).
        #expect(hasher.verifications.count == 2)
        #expect(sessions.count == 0)
    }

    /// A session in use is renewed to a whole lifetime once less than half is left, and not
    /// written while more is left.
    @Test func aSessionInUseIsRenewedPastHalfItsLifetime() async throws {
        let customer = UUID()
        let day: TimeInterval = 24 * 3600
        for (left, end) in [(20 * day, Fixtures.now.addingTimeInterval(20 * day)), (10 * day, Fixtures.now.addingTimeInterval(30 * day))] {
            let token = "token-\(Int(left))"
            _ = try await sessions.create(
                tokenHash: Array(token.utf8), customerID: customer, credentialsVersion: 1, expiresAt: Fixtures.now.addingTimeInterval(left))
            #expect(try await useCase.authenticate(token: token) == customer)
            #expect(sessions.end(of: Array(token.utf8)) == end, "\(left / day) days left")
        }
    }

    @Test func missingOrUnknownTokensAreUnauthenticated() async throws {
        await #expect(throws: AccountError.unauthenticated) { try await useCase.authenticate(token: nil) }
        await #expect(throws: AccountError.unauthenticated) { try await useCase.authenticate(token: "nope") }
        await #expect(throws: AccountError.unauthenticated) { try await useCase.authenticate(token: String(repeating: "x", count: 500)) }
    }
}
