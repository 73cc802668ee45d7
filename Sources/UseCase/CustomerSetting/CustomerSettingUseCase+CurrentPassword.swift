import Domain
import Foundation

/// What an email change and a password change both check first.
extension CustomerSettingUseCase {
    /// What checking a customer's current password found.
    enum PasswordCheck { case correct, wrong, noCustomer }

    /// - Throws: `TooManyRequests` (hashing at capacity), `StoreUnavailable`.
    func currentPassword(_ password: String, of customerID: UUID) async throws -> PasswordCheck {
        guard let hash = try await store.passwordHash(customerID: customerID) else { return .noCustomer }
        return try await hasher.verify(password, against: hash) ? .correct : .wrong
    }
}
