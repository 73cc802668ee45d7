import Domain
import Foundation

extension AppConfig {
    /// Universal links: `APPLE_APP_IDS`, the apps that open the shop's links (comma-separated
    /// `TEAMID.bundle.id`; unset, `/.well-known/apple-app-site-association` answers 404), and
    /// `APP_STORE_ID`, the app's App Store id for the web pages' Smart App Banner. Appends one
    /// line to `problems` for a bad value.
    mutating func readAppLinks(_ environment: [String: String], problems: inout [String]) {
        let ids = (environment["APPLE_APP_IDS"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let storeID = environment.setting("APP_STORE_ID")
        guard !ids.isEmpty else {
            if storeID != nil { problems.append("APP_STORE_ID: set APPLE_APP_IDS too (the apps the banner opens)") }
            return
        }
        if let links = AppLinks(appIDs: ids, appStoreID: storeID) {
            appLinks = links
        } else {
            problems.append(
                "APPLE_APP_IDS, APP_STORE_ID: app ids are TEAMID.bundle.id (a 10-character team id), comma-separated; the App Store id is digits"
            )
        }
    }
}
