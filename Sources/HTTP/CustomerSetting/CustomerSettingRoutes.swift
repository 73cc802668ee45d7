import Domain
import Hummingbird
import LiveScenes
import Presenter
import Scenes
import UseCase

/// CustomerSetting routes: `/v1/me`, all behind a customer session. What checks the current
/// password passes the throttle first.
enum CustomerSettingRoutes {
    static func register(on routers: SceneRouters, resources: AppResources) {
        let useCase = CustomerSettingContainer.live(resources).useCase
        let throttle = ThrottleContainer.live(resources).throttle

        routers.customer.get("/v1/me") { _, context in
            let customerID = try context.requireCustomer()
            return CustomerSettingPresenter.settings(await outcome { try await useCase.show(customerID: customerID) })
        }

        routers.customer.patch("/v1/me") { request, context in
            let customerID = try context.requireCustomer()
            let body = try await RequestParsing.json(UpdateSettingsRequest.self, from: request)
            if body.email != nil, body.currentPassword != nil {
                try await throttle.enforce { try await $0.passwordCheck(customerID: customerID) }
            }
            return CustomerSettingPresenter.settings(await outcome { try await useCase.update(customerID: customerID, body.changes) })
        }

        routers.customer.put("/v1/me/password") { request, context in
            let customerID = try context.requireCustomer()
            let body = try await RequestParsing.json(ChangePasswordRequest.self, from: request)
            try await throttle.enforce { try await $0.passwordCheck(customerID: customerID) }
            let token = BearerToken.from(request) ?? ""
            return CustomerSettingPresenter.passwordChanged(
                await outcome { try await useCase.changePassword(customerID: customerID, currentToken: token, body.change) }
            )
        }
    }
}

/// `PATCH /v1/me` body: every field optional; `current_password` needed with `email`.
struct UpdateSettingsRequest: Decodable {
    let email: String?
    let name: String?
    let locale: String?
    let marketingOptIn: Bool?
    let currentPassword: String?

    enum CodingKeys: String, CodingKey {
        case email, name, locale
        case marketingOptIn = "marketing_opt_in"
        case currentPassword = "current_password"
    }

    var changes: SettingsChanges {
        SettingsChanges(email: email, name: name, locale: locale, marketingOptIn: marketingOptIn, currentPassword: currentPassword)
    }
}

/// `PUT /v1/me/password` body.
struct ChangePasswordRequest: Decodable {
    let currentPassword: String
    let newPassword: String

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }

    var change: PasswordChange { PasswordChange(currentPassword: currentPassword, newPassword: newPassword) }
}
