import Domain
import Foundation
import Hummingbird
import Logging
import Presenter
import UseCase

extension UploadReceiver {
    /// Registers a route that takes resumable uploads beside multipart ones (its spec's
    /// `upload: { resumable: true }`); `deliver` runs its logic on the file, on whichever
    /// instance finishes the upload.
    func resumable(
        _ route: String, field: String, max: Int,
        deliver: @escaping @Sendable (ResumableUploadTarget.Request, UploadedFile) async -> Presentation
    ) -> ResumableUploadRoute {
        let target = ResumableUploadTarget(route: route, field: field, maxSize: max, deliver: deliver)
        targets.add(target)
        return ResumableUploadRoute(receiver: self, target: target)
    }
}

/// A route that takes its file either way: as the one part of a multipart body, or as the
/// first request of a resumable upload (it carries `Upload-Draft-Interop-Version` and
/// `Upload-Complete`, or from version 3 `Upload-Incomplete`; its body is the file's bytes).
struct ResumableUploadRoute: Sendable {
    let receiver: UploadReceiver
    let target: ResumableUploadTarget

    /// Takes the request's upload, refusing first what can be refused without reading it
    /// (`precheck` answers the route's own refusal, or `nil`).
    /// - Throws: `ProblemError` (a malformed or refused upload), `StoreUnavailable`.
    func receive(
        _ request: Request, context: StorefrontContext, customerID: UUID, parameters: [String: String],
        precheck: () async -> Presentation?
    ) async throws -> Presentation {
        let sender = ResumableUploadTarget.Request(customerID: customerID, parameters: parameters)
        let holder = UploadPlaces.Holder.client(customer: customerID, address: context.clientAddress)
        guard let headers = try ResumableUploadHeaders.read(request.headers), let complete = headers.complete else {
            let upload = try receiver.prepare(request, field: target.field, max: target.maxSize, for: holder)
            if let refusal = await precheck() { return refusal }
            return try await upload.receive(request.body) { await target.deliver(sender, $0) }
        }
        guard (headers.offset ?? 0) == 0 else {
            throw ResumableUploadHeaders.malformed("Upload-Offset", "must be 0 on the request that starts an upload")
        }
        if let refusal = await precheck() { return refusal }
        // A place to read it in before the upload exists: a refusal leaves nothing behind.
        try receiver.acquireSpooling(for: holder)
        defer { receiver.spooling.release(for: holder) }
        let id = request.headers[.storefrontUploadID].flatMap(UUID.init(text:)) ?? UUID.random()
        let length = headers.length ?? (complete ? request.headers[.contentLength].flatMap(Int.init) : nil)
        let start = try await receiver.resumableUploads.start(
            id: id, customerID: customerID, target: target.route, parameters: parameters, maxSize: target.maxSize, length: length)
        switch start {
        case .tooLarge(let limit): return ResumableUploadPresenter.tooLarge(limit: limit, field: target.field)
        case .started(let upload):
            return try await receiver.append(
                request, to: upload, at: 0, complete: complete, length: headers.length, version: headers.version, created: true,
                logger: context.logger)
        }
    }
}

extension UploadReceiver {
    /// Stores the request's bytes at `offset` and, when they end the upload, hands the file on.
    /// The caller holds one of the places to read uploads in (`acquireSpooling(for:)`).
    /// - Throws: `ProblemError` 400 when the body was cut; `StoreUnavailable`.
    func append(
        _ request: Request, to upload: ResumableUpload, at offset: Int, complete: Bool, length: Int?, version: Int, created: Bool,
        logger: Logger
    ) async throws -> Presentation {
        let receipt: ResumableUploadUseCase.Receipt
        do {
            receipt = try await resumableUploads.receive(
                id: upload.id, customerID: upload.customerID, at: offset, bytes: request.body.map { Array(buffer: $0) },
                complete: complete, length: length)
        } catch let cut as ResumableUploadUseCase.BodyCut {
            logger.debug("resumable upload cut", metadata: ["upload": "\(upload.id)", "error": "\(cut.underlying)"])
            // The connection was cut: what arrived is kept, and no one reads this answer.
            throw ProblemError(
                Problem.badRequest(
                    "The body ended before all of it arrived; what arrived is kept: HEAD \(ResumableUploadPresenter.location(of: upload.id)) says where to resume."
                ))
        }
        switch receipt {
        case .received(let stored):
            guard complete, stored.isComplete else {
                return ResumableUploadPresenter.incomplete(stored, created: created, version: version)
            }
            return try await finish(stored, version: version, created: created, logger: logger)
        case .notFound: return ResumableUploadPresenter.notFound(upload.id, version: version)
        case .conflict(let offset, let complete):
            return ResumableUploadPresenter.conflict(offset: offset, complete: complete, version: version)
        case .tooLarge(let limit):
            let field = targets.target(upload.target)?.field ?? "file"
            return ResumableUploadPresenter.tooLarge(limit: limit, field: field)
        case .lengthMismatch(let announced, let received):
            return ResumableUploadPresenter.lengthMismatch(announced: announced, received: received)
        case .storageFull(let offset):
            return ResumableUploadPresenter.storageFull(upload.id, offset: offset, created: created, version: version)
        }
    }

    /// Hands a complete upload's file to its route, or gives the answer it got the first time.
    /// - Throws: `StoreUnavailable`; file system errors.
    func finish(_ upload: ResumableUpload, version: Int, created: Bool, logger: Logger) async throws -> Presentation {
        guard let target = targets.target(upload.target) else {
            var problem = Problem.internalError()
            problem.diagnostic = "resumable upload \(upload.id) is for \(upload.target), which no route takes any more"
            return problem
        }
        let sender = ResumableUploadTarget.Request(customerID: upload.customerID, parameters: upload.parameters)
        let completion = try await resumableUploads.complete(upload) { file in
            let presentation = await target.deliver(sender, file)
            if let diagnostic = presentation.diagnostic {
                logger.error("resumable upload not handed on", metadata: ["upload": "\(upload.id)", "error": "\(diagnostic)"])
            }
            return ResumableUploadPresenter.answer(presentation)
        }
        switch completion {
        case .answered(let answer): return ResumableUploadPresenter.completed(answer, upload: upload, created: created, version: version)
        case .inProgress: return ResumableUploadPresenter.inProgress(offset: upload.offset, version: version)
        case .notReady: return ResumableUploadPresenter.conflict(offset: upload.offset, complete: false, version: version)
        }
    }
}
