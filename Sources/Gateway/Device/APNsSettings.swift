import Crypto
import Foundation

/// How this shop reaches APNs: the provider API's address (production
/// `https://api.push.apple.com`, or the sandbox), the team's signing key (a `.p8`, ES256) with
/// its key id and team id, the app's bundle id (`apns-topic`), and, for a provider reached
/// through a private CA (the tests' fake APNs), the roots to trust instead of the system's.
public struct APNsSettings: Sendable {
    public let baseURL: String
    public let teamID: String
    public let keyID: String
    let signingKey: P256.Signing.PrivateKey
    public let topic: String
    public let trustRootsFile: String?

    public static let production = "https://api.push.apple.com"

    /// `nil` when `privateKeyPEM` is not a P-256 private key in PEM (a `.p8` file's text).
    public init?(
        baseURL: String = APNsSettings.production, teamID: String, keyID: String, privateKeyPEM: String, topic: String,
        trustRootsFile: String? = nil
    ) {
        guard let signingKey = try? P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM) else { return nil }
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.teamID = teamID
        self.keyID = keyID
        self.signingKey = signingKey
        self.topic = topic
        self.trustRootsFile = trustRootsFile
    }
}
