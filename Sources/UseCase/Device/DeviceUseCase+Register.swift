// once: created by scenegen from Specs/Device.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension DeviceUseCase {
    /// `PUT /v1/me/devices/{token}` (auth: customer).
    /// - Throws: `StoreUnavailable`.
    public func register(_ input: DeviceRegisterInput) async throws -> DeviceRegisterOutcome {
        guard let token = Device.normalizedToken(input.token) else { return .malformedToken }
        let (device, created) = try await store.register(
            token: token, customerID: input.customerID, platform: input.platform, locale: input.locale, at: system.now())
        return created ? .registered(device) : .updated(device)
    }
}
