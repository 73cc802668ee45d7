import Domain
import Foundation
import Gateway

extension AppConfig {
    /// Push notifications through APNs: `APNS_TEAM_ID` and `APNS_KEY_ID` (10 letters or digits
    /// each), `APNS_PRIVATE_KEY_FILE` (the team's `.p8`), `APNS_TOPIC` (the app's bundle id),
    /// all four or none (none: pushes are queued and not sent); `APNS_URL` (production, or
    /// `https://api.sandbox.push.apple.com` for development builds) and `APNS_CA_FILE` (roots
    /// to trust instead of the system's). Appends one line to `problems` for each bad value.
    mutating func readPush(_ environment: [String: String], problems: inout [String]) {
        let names = ["APNS_TEAM_ID", "APNS_KEY_ID", "APNS_PRIVATE_KEY_FILE", "APNS_TOPIC"]
        let values = names.map(environment.setting)
        guard values.contains(where: { $0 != nil }) else { return }
        guard let team = values[0], let key = values[1], let file = values[2], let topic = values[3] else {
            problems.append("\(names.joined(separator: ", ")): set all four or none")
            return
        }
        guard AppLinks.isAppleID(team), AppLinks.isAppleID(key) else {
            problems.append("APNS_TEAM_ID, APNS_KEY_ID: 10 uppercase letters or digits each, as Apple's developer account shows them")
            return
        }
        let url = environment.setting("APNS_URL") ?? APNsSettings.production
        guard let parsed = URL(string: url), parsed.scheme == "https", parsed.host != nil, ["", "/"].contains(parsed.path),
            parsed.query == nil
        else {
            problems.append("APNS_URL: must be an https origin like https://api.sandbox.push.apple.com, got '\(url)'")
            return
        }
        let topicCharacters = topic.utf8.allSatisfy {
            $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                || (0x61...0x7A).contains($0)
        }
        guard topic.utf8.count <= 255, topicCharacters, topic.contains(".") else {
            problems.append("APNS_TOPIC: the app's bundle id, like jp.example.shop, got '\(topic)'")
            return
        }
        let roots = environment.setting("APNS_CA_FILE")
        if let roots, !FileManager.default.isReadableFile(atPath: roots) {
            problems.append("APNS_CA_FILE: '\(roots)' is not a readable file")
            return
        }
        guard let pem = try? String(contentsOfFile: file, encoding: .utf8),
            let settings = APNsSettings(baseURL: url, teamID: team, keyID: key, privateKeyPEM: pem, topic: topic, trustRootsFile: roots)
        else {
            problems.append("APNS_PRIVATE_KEY_FILE: '\(file)' is not a readable .p8 key (PEM, P-256)")
            return
        }
        apns = settings
    }
}
