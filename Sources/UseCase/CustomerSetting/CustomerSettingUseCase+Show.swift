// once: created by scenegen from Specs/CustomerSetting.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CustomerSettingUseCase {
    /// `GET /v1/me` (auth: customer).
    /// - Throws: `StoreUnavailable`.
    public func show(_ input: CustomerSettingShowInput) async throws -> CustomerSettingShowOutcome {
        guard let settings = try await store.settings(customerID: input.customerID) else { return .customerNotFound }
        return .settings(settings)
    }
}
