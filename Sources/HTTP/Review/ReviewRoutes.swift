import Domain
import Foundation
import Hummingbird
import LiveScenes
import Presenter
import Scenes
import UseCase

/// Review routes: post a review, list an item's reviews, upload a review's photos.
enum ReviewRoutes {
    /// Photo uploads this instance reads at once are bounded by `UPLOAD_MAX_CONCURRENT`.
    static func register(on routers: SceneRouters, resources: AppResources) {
        let container = ReviewContainer.live(resources)
        let throttle = ThrottleContainer.live(resources).throttle
        let useCase = container.useCase
        let spooling = ConcurrencyLimit(maximum: resources.config.uploadMaxConcurrent)

        routers.customer.post("/v1/items/:id/reviews") { request, context in
            let customerID = try context.requireCustomer()
            let itemID = try RequestParsing.uuid("id", in: context)
            let body = try await RequestParsing.json(PostReviewRequest.self, from: request)
            return ReviewPresenter.created(
                await outcome { try await useCase.post(customerID: customerID, itemID: itemID, body.draft) }
            )
        }

        routers.anyone.get("/v1/items/:id/reviews") { request, context in
            let itemID = try RequestParsing.uuid("id", in: context)
            let limit = try RequestParsing.int("limit", in: request)
            let cursor = try RequestParsing.string("cursor", in: request)
            return ReviewPresenter.list(await outcome { try await useCase.list(itemID: itemID, limit: limit, cursor: cursor) })
        }

        routers.customer.post("/v1/reviews/:id/photos") { request, context in
            let customerID = try context.requireCustomer()
            let reviewID = try RequestParsing.uuid("id", in: context)
            try await throttle.enforce { try await $0.photoUpload(customerID: customerID) }
            let spooler = MultipartFileSpooler(
                boundary: try MultipartFileSpooler.boundary(of: request), field: "photo", limit: ReviewRules.maxPhotoBytes)
            // Everything that can be refused is refused before the upload is read.
            if let length = request.headers[.contentLength].flatMap(Int.init), length > ReviewRules.maxPhotoBytes + maxMultipartOverhead {
                return ReviewPresenter.problem(ReviewError.photoTooLarge(limit: ReviewRules.maxPhotoBytes))
            }
            if case .failure(let error) = await outcome({ try await useCase.authorizePhoto(customerID: customerID, reviewID: reviewID) }) {
                return ReviewPresenter.problem(error)
            }
            // Each upload being read holds a spool file and a connection: past the limit, refuse
            // at once rather than read it.
            guard spooling.tryAcquire() else {
                return Problem.make(
                    503, "too-many-uploads", "Too many uploads",
                    detail: "This server is reading \(spooling.maximum) uploads already; try again shortly.",
                    headers: [("Retry-After", "2")]
                )
            }
            defer { spooling.release() }
            let file: PhotoFile?
            do {
                file = try await spooler.spool(request.body, into: container.spoolDirectory)
            } catch is MultipartFileSpooler.TooLarge {
                return ReviewPresenter.problem(ReviewError.photoTooLarge(limit: ReviewRules.maxPhotoBytes))
            }
            guard let file else { return ReviewPresenter.problem(ReviewError.photoMissing) }
            defer { try? FileManager.default.removeItem(atPath: file.path) }
            return ReviewPresenter.photoCreated(
                await outcome { try await useCase.addPhoto(customerID: customerID, reviewID: reviewID, file: file) }
            )
        }
    }

    /// What a multipart body may hold besides the photo: boundaries, part headers, small fields.
    static let maxMultipartOverhead = 64 * 1024
}

/// `POST /v1/items/{id}/reviews` body.
struct PostReviewRequest: Decodable {
    let content: String
    let rating: Int

    var draft: ReviewDraft { ReviewDraft(content: content, rating: rating) }
}
