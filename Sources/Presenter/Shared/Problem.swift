import Domain
import Foundation
import Translator

/// An RFC 9457 problem document (`application/problem+json`). `errors` lists field-level
/// problems of a validation failure; `extensions` carries problem-specific members.
public struct ProblemModel: Encodable, Sendable {
    public let type: String
    public let title: String
    public let status: Int
    public let detail: String
    public let errors: [FieldErrorModel]?
    public let extensions: [String: ProblemValue]

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicKey.self)
        try container.encode(type, forKey: DynamicKey("type"))
        try container.encode(title, forKey: DynamicKey("title"))
        try container.encode(status, forKey: DynamicKey("status"))
        try container.encode(detail, forKey: DynamicKey("detail"))
        if let errors { try container.encode(errors, forKey: DynamicKey("errors")) }
        // Extension members never replace the standard ones.
        let standard: Set<String> = ["type", "title", "status", "detail", "errors"]
        for (key, value) in extensions.sorted(by: { $0.key < $1.key }) where !standard.contains(key) {
            try container.encode(value, forKey: DynamicKey(key))
        }
    }
}

/// A value of a problem's extension member.
public enum ProblemValue: Encodable, Sendable, Equatable {
    case int(Int)
    case bool(Bool)
    case string(String)
    case strings([String])
    /// `{"amount": 1200, "currency": "JPY"}`, as money is everywhere else in the API.
    case money(Money)

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        case .money(let value): try container.encode(MoneyModel(value))
        }
    }
}

public struct FieldErrorModel: Codable, Hashable, Sendable {
    public let field: String
    public let message: String
}

private struct DynamicKey: CodingKey {
    let stringValue: String
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// The problems every scene shares. Scene presenters add their own and fall back on `from(_:)`.
public enum Problem {
    /// Builds a problem answer. `slug` names the problem type under `/problems/`.
    public static func make(
        _ status: Int, _ slug: String, _ title: String, detail: String,
        errors: [FieldError]? = nil, extensions: [String: ProblemValue] = [:],
        headers: [(name: String, value: String)] = []
    ) -> Presentation {
        let model = ProblemModel(
            type: "/problems/\(slug)", title: title, status: status, detail: detail,
            errors: errors?.map { FieldErrorModel(field: $0.field, message: $0.message) },
            extensions: extensions)
        guard let body = try? JSONBodyEncoder.encode(model) else {
            return Presentation(status: 500)
        }
        return Presentation(status: status, headers: [("Content-Type", "application/problem+json")] + headers, body: body)
    }

    /// 422 with every field problem; 400 (with every field problem too) when a field could not
    /// be read at all.
    public static func validation(_ error: ValidationError) -> Presentation {
        if error.isMalformed {
            return badRequest("The request has a value this service cannot read.", errors: error.fields)
        }
        return make(
            422, "validation-failed", "Validation failed",
            detail: "The request has \(error.fields.count) invalid field\(error.fields.count == 1 ? "" : "s").",
            errors: error.fields)
    }

    /// 400 for a request that cannot be read at all.
    public static func badRequest(_ detail: String, errors: [FieldError]? = nil) -> Presentation {
        make(400, "bad-request", "Bad request", detail: detail, errors: errors)
    }

    /// 413 for a body, or a file in one, past what the route takes.
    public static func payloadTooLarge(_ detail: String, errors: [FieldError]? = nil) -> Presentation {
        make(413, "payload-too-large", "Payload too large", detail: detail, errors: errors)
    }

    /// 415 for a body in a content type the route does not read.
    public static func unsupportedMediaType(_ detail: String, errors: [FieldError]? = nil) -> Presentation {
        make(415, "unsupported-media-type", "Unsupported media type", detail: detail, errors: errors)
    }

    public static func notFound(_ detail: String) -> Presentation {
        make(404, "not-found", "Not found", detail: detail)
    }

    public static func unauthorized(_ detail: String) -> Presentation {
        make(401, "unauthorized", "Unauthorized", detail: detail, headers: [("WWW-Authenticate", "Bearer")])
    }

    public static func unavailable(_ detail: String) -> Presentation {
        make(503, "service-unavailable", "Service unavailable", detail: detail, headers: [("Retry-After", "1")])
    }

    /// 429 with `Retry-After` (seconds) and the same number as `retry_after`.
    public static func tooManyRequests(_ error: TooManyRequests) -> Presentation {
        make(
            429, "too-many-requests", "Too many requests",
            detail: "Too many \(error.limited); retry after \(error.retryAfter) second\(error.retryAfter == 1 ? "" : "s").",
            extensions: ["retry_after": .int(error.retryAfter)], headers: [("Retry-After", String(error.retryAfter))])
    }

    public static func internalError(detail: String = "An unexpected error occurred; it has been logged.") -> Presentation {
        make(500, "internal-error", "Internal server error", detail: detail)
    }

    /// The shared errors: validation (422), records not found (404), taken (409) or referring to
    /// nothing (422), a limit reached (409), too many requests (429), unavailable store (503), a failing or refusing outside API (502), a custom use case not
    /// written yet (501); anything else is a 500.
    public static func from(_ error: any Error) -> Presentation {
        switch error {
        case let error as ProblemError: return error.presentation
        case let error as ValidationError: return validation(error)
        case let error as RecordError: return record(error)
        case is StoreUnavailable: return unavailable("A backing service is unavailable; try again shortly.")
        case is CustomerDeleted: return unauthorized("This account was deleted.")
        case let error as TooManyRequests: return tooManyRequests(error)
        case let error as ExternalServiceError:
            var presentation = make(
                502, "bad-gateway", "Bad gateway", detail: "The \(error.service) service did not answer; try again shortly.")
            presentation.diagnostic = "\(error.service): \(error.reason)"
            return presentation
        case let error as any ExternalServiceRefusal:
            var presentation = make(
                502, "bad-gateway", "Bad gateway", detail: "The \(error.service) service refused the request.")
            presentation.diagnostic = "\(error.service): \(error)"
            return presentation
        case MoneyError.overflow:
            // Out of reach within today's bounds (100 lines of 99 units at 10^12 each); should a
            // bound widen, a total past Int64 is refused, not a 500.
            return make(
                422, "amount-too-large", "Amount too large", detail: "The total is more than the shop can reckon with; buy in parts.")
        case let error as NotImplemented:
            return make(501, "not-implemented", "Not implemented", detail: "\(error.operation) is not written yet.")
        default:
            var presentation = internalError()
            presentation.diagnostic = String(reflecting: error)
            return presentation
        }
    }
}

extension Problem {
    static func record(_ error: RecordError) -> Presentation {
        switch error {
        case .notFound(let entity, let id):
            return notFound("No \(entity) has id \(id.lowercasedText).")
        case .duplicate(let field):
            return make(
                409, "duplicate", "Duplicate", detail: "Another record already has this \(field).",
                errors: [FieldError(field, "is already taken")])
        case .limitReached(let entity, let limit):
            return make(
                409, "limit-reached", "Limit reached",
                detail: "You already keep \(limit) \(plural(entity)), the most one may; delete one to add another.")
        case .referenced(let table):
            var presentation = make(
                409, "in-use", "In use", detail: "Other records still refer to this one; remove or change them first.")
            presentation.diagnostic = "referenced by \(table)"
            return presentation
        case .duplicateGroup(let fields):
            let others = fields.dropLast().joined(separator: " and ")
            return make(
                409, "duplicate", "Duplicate", detail: "Another record already has this \(fields.joined(separator: " and ")).",
                errors: [FieldError(fields.last ?? "", "is already taken with this \(others)")])
        case .missingReference(let field):
            return validation(ValidationError([FieldError(field, "refers to nothing that exists")]))
        }
    }
}

extension Problem {
    /// `address` -> `addresses`, `wishlist entry` -> `wishlist entries`: English plurals of the
    /// generated entities' names, for messages.
    static func plural(_ noun: String) -> String {
        if ["s", "x", "ch", "sh"].contains(where: noun.hasSuffix) { return noun + "es" }
        if noun.hasSuffix("y"), let before = noun.dropLast().last, !"aeiou".contains(before) { return noun.dropLast() + "ies" }
        return noun + "s"
    }
}
