import Crypto
import CryptoExtras
import Dispatch
import Domain
import Foundation

/// PBKDF2-HMAC-SHA256 with a 16-byte random salt, stored as
/// `pbkdf2-sha256$<rounds>$<salt base64>$<digest base64>`. 210,000 rounds (OWASP's floor) cost a few
/// tens of milliseconds here, so derivations run on a dispatch queue, never on Swift's
/// cooperative pool. At most `maxConcurrent` derivations run at once across the copies of one
/// hasher; one more is refused at once (`TooManyRequests`) instead of queueing, so a flood of
/// sign-ins cannot take every core from the other routes.
public struct PBKDF2PasswordHasher: PasswordHasher {
    public static let defaultRounds = 210_000
    private static let queue = DispatchQueue(label: "storefront.password-hashing", attributes: .concurrent)
    let rounds: Int
    private let slots: ConcurrencyLimit

    public init(rounds: Int = PBKDF2PasswordHasher.defaultRounds, maxConcurrent: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.rounds = rounds
        self.slots = ConcurrencyLimit(maximum: max(1, maxConcurrent))
    }

    public func hash(_ password: String) async throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var random = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = random.next() }
        let digest = try await derive(password, salt: salt, rounds: rounds)
        return "pbkdf2-sha256$\(rounds)$\(Data(salt).base64EncodedString())$\(Data(digest).base64EncodedString())"
    }

    public func verify(_ password: String, against hash: String) async throws -> Bool {
        let parts = hash.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds >= 1000,
            let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3]))
        else { return false }
        let actual: [UInt8]
        do {
            actual = try await derive(password, salt: Array(salt), rounds: rounds)
        } catch let busy as TooManyRequests {
            throw busy
        } catch {
            return false
        }
        // Constant-time comparison: the time taken does not depend on where the digests differ.
        guard actual.count == expected.count else { return false }
        return zip(actual, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func derive(_ password: String, salt: [UInt8], rounds: Int) async throws -> [UInt8] {
        guard slots.tryAcquire() else {
            throw TooManyRequests(retryAfter: 1, limited: "password checks under way on this server")
        }
        defer { slots.release() }
        return try await withCheckedThrowingContinuation { continuation in
            Self.queue.async {
                continuation.resume(
                    with: Result {
                        let key = try KDF.Insecure.PBKDF2.deriveKey(
                            from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: 32,
                            unsafeUncheckedRounds: rounds)
                        return key.withUnsafeBytes { Array($0) }
                    })
            }
        }
    }
}
