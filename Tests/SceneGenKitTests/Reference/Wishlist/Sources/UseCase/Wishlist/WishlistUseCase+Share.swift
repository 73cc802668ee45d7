// once: created by scenegen from Specs/Wishlist.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension WishlistUseCase {
    /// `POST /v1/wishlist/{id}/share` (auth: customer). Gateways: `shareLinks`.
    /// - Throws: `NotImplemented` until its logic is written.
    public func share(_ request: CustomRequest) async throws -> CustomResponse {
        // scenegen: write this use case here. `request` holds the customer, path and query
        // parameters and the raw body; answer with `CustomResponse(status:body:)`.
        throw NotImplemented(operation: "Wishlist.share")
    }
}
