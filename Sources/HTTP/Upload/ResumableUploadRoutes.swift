import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Presenter

/// `/v1/uploads/{id}`, where a customer resumes an upload a route started
/// (draft-ietf-httpbis-resumable-upload): `HEAD` tells where it stands, `PATCH` appends at that
/// offset (and with `Upload-Complete: ?1` finishes it), `DELETE` cancels it. Any instance
/// answers: the upload's state and bytes are in the database.
enum ResumableUploadRoutes {
    static func register(on customer: RouterGroup<StorefrontContext>, uploads: UploadReceiver) {
        customer.head("/v1/uploads/:id") { request, context in
            let (id, customerID) = (try RequestParsing.uuid("id", in: context), try context.requireCustomer())
            let version = try ResumableUploadHeaders.version(of: request.headers)
            guard let upload = try await uploads.resumableUploads.upload(id: id, customerID: customerID) else {
                return ResumableUploadPresenter.notFound(id, version: version)
            }
            return ResumableUploadPresenter.offset(
                of: upload, version: version, secondsLeft: uploads.resumableUploads.secondsLeft(upload))
        }

        customer.patch("/v1/uploads/:id") { request, context in
            let (id, customerID) = (try RequestParsing.uuid("id", in: context), try context.requireCustomer())
            guard let headers = try ResumableUploadHeaders.read(request.headers) else {
                throw ResumableUploadHeaders.malformed("Upload-Draft-Interop-Version", "is required: 3, 5 or 6")
            }
            guard let offset = headers.offset else {
                throw ResumableUploadHeaders.malformed("Upload-Offset", "is required: the offset the bytes start at")
            }
            // Versions 5 and 6 say whether these are the last bytes; in version 3 only an
            // unfinished upload's requests say so.
            guard let complete = headers.complete ?? (headers.version < 5 ? true : nil) else {
                throw ResumableUploadHeaders.malformed("Upload-Complete", "is required: ?1 when these are the upload's last bytes, else ?0")
            }
            if headers.version >= 6, RequestParsing.mediaType(request.headers[.contentType]) != "application/partial-upload" {
                return Problem.unsupportedMediaType(
                    "Bytes appended to an upload are sent as application/partial-upload.",
                    errors: [FieldError("Content-Type", "must be application/partial-upload")])
            }
            guard let upload = try await uploads.resumableUploads.upload(id: id, customerID: customerID) else {
                return ResumableUploadPresenter.notFound(id, version: headers.version)
            }
            let empty = request.headers[.contentLength].map { $0 == "0" } ?? (request.headers[.transferEncoding] == nil)
            if upload.state != .open, offset == upload.offset, complete, empty {
                // Finished, or being finished: the answer it got, or another try at it if the
                // instance finishing it died.
                return try await uploads.finish(upload, version: headers.version, created: false, logger: context.logger)
            }
            let holder = UploadPlaces.Holder.client(customer: customerID, address: context.clientAddress)
            try uploads.acquireSpooling(for: holder)
            defer { uploads.spooling.release(for: holder) }
            return try await uploads.append(
                request, to: upload, at: offset, complete: complete, length: headers.length, version: headers.version,
                created: false, logger: context.logger)
        }

        customer.delete("/v1/uploads/:id") { request, context in
            let (id, customerID) = (try RequestParsing.uuid("id", in: context), try context.requireCustomer())
            let version = try ResumableUploadHeaders.version(of: request.headers)
            guard try await uploads.resumableUploads.cancel(id: id, customerID: customerID) else {
                // Being handed on cannot be undone; gone is gone.
                if let upload = try await uploads.resumableUploads.upload(id: id, customerID: customerID), upload.state == .completing {
                    return ResumableUploadPresenter.inProgress(offset: upload.offset, version: version)
                }
                return ResumableUploadPresenter.notFound(id, version: version)
            }
            return ResumableUploadPresenter.cancelled(version: version)
        }
    }
}
