// once: created by scenegen from Specs/Device.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension DeviceUseCase {
    /// `DELETE /v1/me/devices/{token}` (auth: customer): on sign-out, so the phone gets no
    /// more of this customer's pushes.
    /// - Throws: `StoreUnavailable`.
    public func unregister(_ input: DeviceUnregisterInput) async throws -> DeviceUnregisterOutcome {
        guard let token = Device.normalizedToken(input.token), try await store.remove(token: token, customerID: input.customerID) else {
            return .notFound
        }
        return .removed
    }
}
