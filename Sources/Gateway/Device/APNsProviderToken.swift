import Crypto
import Domain
import Foundation
import Synchronization

/// The provider authentication token APNs takes (token-based authentication): a JWT signed
/// ES256 with the team's key, `{"alg":"ES256","kid":KEY_ID}.{"iss":TEAM_ID,"iat":SECONDS}`.
/// APNs refuses one older than an hour and one renewed more often than every 20 minutes, so
/// one is kept and renewed after 50 minutes, or at once when APNs says it expired.
final class APNsProviderToken: Sendable {
    private let settings: APNsSettings
    private let current = Mutex<(jwt: String, issuedAt: Date)?>(nil)
    static let lifetime: Duration = .seconds(50 * 60)

    init(settings: APNsSettings) {
        self.settings = settings
    }

    /// The token to send at `now`, signed anew when none is younger than `lifetime`.
    /// - Throws: what signing throws (CryptoKit's errors).
    func jwt(at now: Date) throws -> String {
        try current.withLock { current in
            if let current, now < current.issuedAt + Self.lifetime, now >= current.issuedAt { return current.jwt }
            let jwt = try Self.sign(settings, issuedAt: now)
            current = (jwt, now)
            return jwt
        }
    }

    /// Forgets the token APNs called expired, so the next push signs a new one.
    func expire(_ jwt: String) {
        current.withLock { if $0?.jwt == jwt { $0 = nil } }
    }

    static func sign(_ settings: APNsSettings, issuedAt: Date) throws -> String {
        let header = #"{"alg":"ES256","kid":"\#(settings.keyID)"}"#
        let claims = #"{"iss":"\#(settings.teamID)","iat":\#(Int(issuedAt.timeIntervalSince1970))}"#
        let input = Data(header.utf8).base64URLEncoded + "." + Data(claims.utf8).base64URLEncoded
        // ES256 in a JWT is the raw r || s, not DER.
        let signature = try settings.signingKey.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + signature.base64URLEncoded
    }
}
