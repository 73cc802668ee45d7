// once: created by scenegen from Specs/Account.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension AccountUseCase {
    /// `POST /v1/customers` (auth: public): a new customer, the email trimmed and its
    /// case-insensitive uniqueness kept by the database.
    /// - Throws: `ValidationError`, `TooManyRequests` (hashing at capacity), `StoreUnavailable`.
    public func signUp(_ input: AccountSignUpInput) async throws -> AccountSignUpOutcome {
        let valid = try SignUp(email: input.email, password: input.password, name: input.name).validated()
        let customer = Customer(id: system.newID(), email: valid.email, name: valid.name, createdAt: system.now())
        do {
            try await customers.create(customer, passwordHash: try await hasher.hash(valid.password))
        } catch AccountError.emailTaken {
            return .emailTaken
        }
        return .signedUp(customer)
    }
}
