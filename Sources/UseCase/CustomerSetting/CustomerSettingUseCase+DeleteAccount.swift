// once: created by scenegen from Specs/CustomerSetting.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CustomerSettingUseCase {
    /// `DELETE /v1/me` (auth: customer): deletes the account once the current password is right
    /// (App Store guideline 5.1.1(v)): personal data is erased and every session ends; orders
    /// stay with the customer anonymized, and the email may sign up again as a new customer. Not
    /// while an order is still to be paid, shipped or delivered.
    /// - Throws: `TooManyRequests` (hashing at capacity), `StoreUnavailable`.
    public func deleteAccount(_ input: CustomerSettingDeleteAccountInput) async throws -> CustomerSettingDeleteAccountOutcome {
        switch try await currentPassword(input.currentPassword, of: input.customerID) {
        case .correct: break
        case .wrong: return .wrongPassword
        case .noCustomer: return .customerNotFound
        }
        switch try await store.deleteAccount(customerID: input.customerID, at: system.now()) {
        case .deleted: return .deleted
        case .noCustomer: return .customerNotFound
        case .ordersInProgress(let orders): return .ordersInProgress(orderIDs: orders)
        }
    }
}
