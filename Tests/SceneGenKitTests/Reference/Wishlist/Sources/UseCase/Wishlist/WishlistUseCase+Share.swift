// once: created by scenegen from Specs/Wishlist.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension WishlistUseCase {
    /// `POST /v1/wishlist/{id}/share` (auth: customer). Gateways: `shareLinks`.
    /// - Throws: `NotImplemented` until its logic is written.
    public func share(_ input: WishlistShareInput) async throws -> WishlistShareOutcome {
        // scenegen: write this use case here (this file is yours; scenegen never touches it again).
        // Answer one of the outcomes (a changed spec that no longer fits fails to compile here):
        //   .shared(url:expiresAt:)
        //   .alreadyBought(WishlistEntry)
        //   .notFound
        throw NotImplemented(operation: "Wishlist.share")
    }
}
