// once: created by scenegen from Specs/Device.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension DeviceUseCase {
    /// `PUT /v1/me/devices/{token}` (auth: customer). The locale is a BCP 47 language tag, as a
    /// customer's is; iOS's `Locale.identifier` (`ja_JP`, `ja_JP@calendar=japanese`) is read as
    /// one (`ja-JP`).
    /// - Throws: `ValidationError` for a locale that is no language tag; `StoreUnavailable`.
    public func register(_ input: DeviceRegisterInput) async throws -> DeviceRegisterOutcome {
        guard let locale = LanguageTag.normalized(input.locale) else { throw ValidationError([FieldError("locale", LanguageTag.rule)]) }
        guard let token = Device.normalizedToken(input.token) else { return .malformedToken }
        let (device, created) = try await store.register(
            token: token, customerID: input.customerID, platform: input.platform, locale: locale, at: system.now())
        return created ? .registered(device) : .updated(device)
    }
}
