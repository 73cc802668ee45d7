import Crypto
import Domain
import Foundation

/// 256-bit tokens from the system's CSPRNG, URL-safe base64; stored as SHA-256.
public struct RandomSessionTokens: SessionTokens {
    public init() {}

    public func newToken() -> String {
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        return Data(bytes).base64URLEncoded
    }

    public func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(token.utf8)))
    }
}
