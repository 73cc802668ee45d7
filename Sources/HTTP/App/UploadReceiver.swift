import Domain
import Foundation
import Hummingbird
import LiveScenes
import NIOHTTP1
import Presenter
import Scenes
import UseCase

/// Reads the one file of a multipart body for a route whose spec says `upload`, in two steps so
/// that everything that can be refused is refused before the body is read: `prepare` checks the
/// content type and the announced length, then (after the logic's precheck) `receive` streams
/// the file part to disk (`MultipartFileSpooler`, through the instance's `FileSpool`) under this
/// instance's bound on uploads read at once, hands it to the logic and removes it afterwards.
struct UploadReceiver: Sendable {
    /// What a multipart body may hold besides the file: boundaries, part headers, small fields.
    static let maxMultipartOverhead = 64 * 1024

    /// Uploads being read hold a spool file and a connection each (`UploadPlaces`); a resumable
    /// upload's request holds a connection and up to one stored piece in memory.
    let spooling: UploadPlaces
    let fileSpool: any FileSpool
    let resumableUploads: ResumableUploadUseCase
    /// The routes that take resumable uploads, for every request to `/v1/uploads/{id}` and for
    /// `UploadResumptionAnnouncer`.
    let targets = ResumableUploadTargets()

    init(_ resources: AppResources) {
        spooling = resources.uploadPlaces
        fileSpool = resources.fileSpool
        resumableUploads = UploadContainer.live(resources).useCase
    }

    /// Takes one of this instance's places for `holder`'s upload being read, or refuses; the
    /// caller releases it with `spooling.release(for: holder)`.
    /// - Throws: `ProblemError` 503 with Retry-After when every place is taken, 429 with
    ///   Retry-After when the customer or the client address holds as many as one may.
    func acquireSpooling(for holder: UploadPlaces.Holder) throws {
        do {
            try spooling.acquire(for: holder)
        } catch {
            let (status, type, title, detail) =
                switch error {
                case .instanceFull:
                    (
                        503, "too-many-uploads", "Too many uploads",
                        "This server is reading \(holder == .staff ? spooling.staffMaximum : spooling.maximum) uploads already; try again shortly."
                    )
                case .customerFull:
                    (
                        429, "too-many-uploads-at-once", "Too many uploads at once",
                        "You are sending \(spooling.perCustomer) uploads already: finish one first."
                    )
                case .addressFull:
                    (
                        429, "too-many-uploads-at-once", "Too many uploads at once",
                        "\(spooling.perAddress) uploads from your network are being sent already: finish one first."
                    )
                }
            throw ProblemError(Problem.make(status, type, title, detail: detail, headers: [("Retry-After", "2")]))
        }
    }

    /// One request's upload, checked as far as it can be without reading it.
    struct Upload {
        let receiver: UploadReceiver
        let spooler: MultipartFileSpooler
        /// Whose upload it is, for the bounds on one customer's and one address's uploads.
        let holder: UploadPlaces.Holder

        /// Streams the file part to disk and runs `use` on it, then removes it.
        /// - Throws: `ProblemError` 503 past the bound on uploads read at once, 413 past the
        ///   file's limit, 422 without a file in the field (or with two), 400 for a malformed
        ///   body; what `use` throws.
        func receive<T>(_ body: RequestBody, _ use: (UploadedFile) async throws -> T) async throws -> T {
            try receiver.acquireSpooling(for: holder)
            defer { receiver.spooling.release(for: holder) }
            let file: UploadedFile?
            do {
                file = try await spooler.spool(body, into: receiver.fileSpool)
            } catch is MultipartFileSpooler.TooLarge {
                throw UploadReceiver.tooLarge(spooler.field, limit: spooler.limit)
            } catch let error where error is HTTPParserError || ProblemMiddleware.clientWentAway(error) {
                // Cut by the client: its fault, answered 400 even where the route turns what its
                // logic throws into answers (a staff image's answered 500 and logged an error).
                throw ProblemError(Problem.badRequest("The connection ended before the upload did."))
            }
            guard let file else {
                throw ProblemError(
                    Problem.validation(
                        ValidationError([FieldError(spooler.field, "is required: send one file in the multipart field \(spooler.field)")])))
            }
            do {
                let result = try await use(file)
                await receiver.fileSpool.remove(file.path)
                return result
            } catch {
                await receiver.fileSpool.remove(file.path)
                throw error
            }
        }
    }

    /// Checks the content type (multipart/form-data with a boundary) and the announced length of
    /// `holder`'s upload.
    /// - Throws: `ProblemError` 415, 400 or 413.
    func prepare(_ request: Request, field: String, max: Int, for holder: UploadPlaces.Holder) throws -> Upload {
        let spooler = MultipartFileSpooler(boundary: try MultipartFileSpooler.boundary(of: request), field: field, limit: max)
        if let length = request.headers[.contentLength].flatMap(Int.init), length > spooler.bodyLimit {
            throw Self.tooLarge(field, limit: max)
        }
        return Upload(receiver: self, spooler: spooler, holder: holder)
    }

    static func tooLarge(_ field: String, limit: Int) -> ProblemError {
        ProblemError(
            Problem.payloadTooLarge(
                "The file may have at most \(limit) bytes.", errors: [FieldError(field, "must be at most \(limit) bytes")]))
    }
}
