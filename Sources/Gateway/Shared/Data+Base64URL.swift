import Foundation

extension Data {
    /// URL-safe base64 without padding (RFC 4648 §5), as session tokens and JWTs write bytes.
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
