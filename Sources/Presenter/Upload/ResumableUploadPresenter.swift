import Domain
import Foundation

/// The answers of resumable uploads (draft-ietf-httpbis-resumable-upload, interop versions 3, 5
/// and 6): every one names the version it speaks and, where the draft asks, where the upload
/// stands (`Upload-Offset`, and `Upload-Complete`, or from version 3 `Upload-Incomplete`, as
/// structured-field booleans). Refusals are problem details like every other.
public enum ResumableUploadPresenter {
    /// Where a customer's upload is resumed: `HEAD`, `PATCH` and `DELETE` go here.
    public static func location(of id: UUID) -> String { "/v1/uploads/\(id.lowercasedText)" }

    /// The headers telling where the upload stands.
    public static func state(offset: Int, complete: Bool, version: Int) -> [(name: String, value: String)] {
        var headers = [("Upload-Draft-Interop-Version", String(version)), ("Upload-Offset", String(offset))]
        if version >= 5 {
            headers.append(("Upload-Complete", complete ? "?1" : "?0"))
        } else {
            headers.append(("Upload-Incomplete", complete ? "?0" : "?1"))
        }
        return headers
    }

    /// `HEAD`: where the upload stands and what it may still take, never cached.
    public static func offset(of upload: ResumableUpload, version: Int, secondsLeft: Int) -> Presentation {
        var headers = state(offset: upload.offset, complete: upload.isComplete, version: version)
        if let length = upload.length { headers.append(("Upload-Length", String(length))) }
        headers.append(("Upload-Limit", "max-size=\(upload.maxSize), expires=\(secondsLeft)"))
        headers.append(("Cache-Control", "no-store"))
        return Presentation(status: 204, headers: headers)
    }

    /// The bytes are stored and more are to come: 201 with where to resume for the request that
    /// created the upload, 204 for one that appended.
    public static func incomplete(_ upload: ResumableUpload, created: Bool, version: Int) -> Presentation {
        var headers = state(offset: upload.offset, complete: false, version: version)
        if created { headers.append(("Location", location(of: upload.id))) }
        return Presentation(status: created ? 201 : 204, headers: headers)
    }

    /// The route's answer for the finished file, with where the upload stands.
    public static func completed(_ answer: UploadAnswer, upload: ResumableUpload, created: Bool, version: Int) -> Presentation {
        var headers = state(offset: upload.offset, complete: true, version: version)
        if created { headers.append(("Location", location(of: upload.id))) }
        if let type = answer.contentType { headers.insert(("Content-Type", type), at: 0) }
        return Presentation(status: answer.status, headers: headers, body: answer.body.isEmpty ? nil : Data(answer.body))
    }

    /// What a route's answer keeps of a presentation.
    public static func answer(_ presentation: Presentation) -> UploadAnswer {
        let type = presentation.headers.first { $0.name.lowercased() == "content-type" }?.value
        return UploadAnswer(status: presentation.status, contentType: type, body: presentation.body.map(Array.init) ?? [])
    }

    public static func notFound(_ id: UUID, version: Int) -> Presentation {
        Problem.make(
            404, "upload-not-found", "Upload not found",
            detail: "No upload of yours has id \(id.lowercasedText); it may have expired or been cancelled.",
            headers: [("Upload-Draft-Interop-Version", String(version))])
    }

    /// 409: the request did not start where the upload stands (or the upload is finished).
    public static func conflict(offset: Int, complete: Bool, version: Int) -> Presentation {
        Problem.make(
            409, "upload-offset-mismatch", "Upload offset mismatch",
            detail: complete
                ? "The upload is complete at \(offset) bytes."
                : "The upload holds \(offset) bytes: resume at Upload-Offset \(offset).",
            extensions: ["offset": .int(offset), "complete": .bool(complete)],
            headers: state(offset: offset, complete: complete, version: version))
    }

    /// 409: another request is handing the finished file on right now.
    public static func inProgress(offset: Int, version: Int) -> Presentation {
        Problem.make(
            409, "upload-completing", "Upload completing",
            detail: "The upload is complete and being handed on; ask for its offset shortly.",
            headers: state(offset: offset, complete: true, version: version) + [("Retry-After", "2")])
    }

    public static func tooLarge(limit: Int, field: String) -> Presentation {
        Problem.payloadTooLarge(
            "The file may have at most \(limit) bytes; the upload is cancelled.",
            errors: [FieldError(field, "must be at most \(limit) bytes")])
    }

    /// 503: the shop keeps no more bytes of unfinished uploads for now; those stored stay, and
    /// the upload's first request is told where to resume it.
    public static func storageFull(_ id: UUID, offset: Int, created: Bool, version: Int) -> Presentation {
        var headers = state(offset: offset, complete: false, version: version) + [("Retry-After", "60")]
        if created { headers.append(("Location", location(of: id))) }
        return Problem.make(
            503, "upload-storage-full", "Upload storage full",
            detail:
                "Unfinished uploads hold all the space kept for them; \(offset) bytes of this one are kept: resume later, or send the file in one request.",
            extensions: ["offset": .int(offset)], headers: headers)
    }

    public static func lengthMismatch(announced: Int, received: Int) -> Presentation {
        Problem.badRequest(
            "The upload was announced as \(announced) bytes but completed at \(received).",
            errors: [FieldError("Upload-Length", "must match the bytes sent")])
    }

    public static func cancelled(version: Int) -> Presentation {
        Presentation(status: 204, headers: [("Upload-Draft-Interop-Version", String(version))])
    }
}
