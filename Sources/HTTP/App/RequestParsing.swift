import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Presenter

/// Reading the parts of a request a route needs, each failure a clear 4xx.
enum RequestParsing {
    /// JSON bodies larger than this are refused with 413 before they are read in full.
    static let maxJSONBytes = 64 * 1024

    /// A content type's media type, lowercased, without its parameters (`; charset=utf-8`): what
    /// a body is, to be compared whole (`application/jsonx` is no JSON).
    static func mediaType(_ contentType: String?) -> String? {
        contentType?.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// Decodes a JSON body.
    /// - Throws: `ProblemError` with 415 (not JSON), 413 (too large), 400 (not valid JSON) or
    ///   422 (a field missing, of the wrong type, or holding U+0000, named).
    static func json<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        guard ["application/json", "application/merge-patch+json"].contains(mediaType(request.headers[.contentType])) else {
            throw ProblemError(Problem.unsupportedMediaType("Send the body as application/json."))
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxJSONBytes {
            throw ProblemError(tooLarge)
        }
        let body = Data(buffer: try await request.body.collect(upTo: maxJSONBytes))
        // JSON between systems is UTF-8 (RFC 8259 §8.1), which never has a zero byte, while UTF-16
        // and UTF-32 JSON always do. Foundation's decoder reads those too, and a U+0000 in them
        // passed the check below, which reads UTF-8, and reached the database as a 500.
        if body.contains(0) { throw ProblemError(Problem.badRequest("The body is not JSON in UTF-8.")) }
        if let field = NulCharacter.field(inJSON: body) { throw NulCharacter.problem(in: field) }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw ProblemError(problem(for: error))
        } catch let error as ValidationError {
            // Members read one by one (`MemberDecoder`): every unreadable one at once.
            throw ProblemError(Problem.validation(error))
        }
    }

    static let tooLarge = Problem.payloadTooLarge("The request body must be at most \(maxJSONBytes) bytes.")

    private static func problem(for error: DecodingError) -> Presentation {
        guard let field = fieldError(for: error) else { return Problem.badRequest("The body is not valid JSON.") }
        return Problem.validation(ValidationError([field]))
    }

    /// The member a decoding error is about, named by its path (`price.amount`, `lines[0]`), and
    /// what it must be; `nil` when the body as a whole cannot be read. `expected` is the type of
    /// the member read, when known: a value of the right JSON type that does not make one (`"x"`
    /// for a UUID, `1.5` or `1e20` for an integer) is then named as what it must be.
    static func fieldError(for error: DecodingError, expecting expected: Any.Type? = nil) -> FieldError? {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context): return FieldError(path(context, key), "is required")
        case .typeMismatch(let type, let context): return FieldError(path(context), "must be \(describe(type))")
        case .valueNotFound(let type, let context): return FieldError(path(context), "must be \(describe(type)), not null")
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            // Only the member itself is of the expected type, not a member nested in it.
            guard let expected, context.codingPath.count == 1 else { return FieldError(path(context), "has an invalid value") }
            return FieldError(path(context), invalidValue(expected))
        default: return nil
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        plainDescription(type) ?? "an object of the documented shape"
    }

    /// The message for a member that makes no `type`: what it must be, for a plain one.
    static func invalidValue(_ type: Any.Type) -> String {
        plainDescription(type).map { "must be \($0)" } ?? "has an invalid value"
    }

    /// What a value of a plain member's type is, for a message; nil for an object.
    private static func plainDescription(_ type: Any.Type) -> String? {
        switch type {
        case is String.Type: return "a string"
        case is UUID.Type: return "a UUID"
        case is Int.Type, is Int64.Type, is Int32.Type: return "an integer"
        case is Bool.Type: return "true or false"
        case is Double.Type: return "a number"
        default: return nil
        }
    }

    /// The path parameter `name` as a UUID.
    /// - Parameter routed: the name the router knows the parameter by, when another scene's route
    ///   named its place first (the router keeps one name per place); `name` otherwise.
    /// - Throws: `ProblemError` 400 naming the parameter.
    static func uuid(_ name: String, in context: StorefrontContext, routed: String? = nil) throws -> UUID {
        guard let text = context.parameters.get(routed ?? name), let id = UUID(text: text) else {
            throw ProblemError(
                Problem.badRequest(
                    "The path parameter \(name) must be a UUID.",
                    errors: [FieldError(name, "must be a UUID")]))
        }
        return id
    }

    /// An optional integer query parameter.
    /// - Throws: `ProblemError` 422 naming the parameter.
    static func int(_ name: String, in request: Request) throws -> Int? {
        guard let text = try single(name, in: request) else { return nil }
        guard let value = Int(text) else {
            throw ProblemError(Problem.validation(ValidationError([FieldError(name, "must be an integer")])))
        }
        return value
    }

    /// An optional text query parameter.
    /// - Throws: `ProblemError` 422 naming the parameter when it holds U+0000, which no text the
    ///   service stores or compares with can hold.
    static func string(_ name: String, in request: Request) throws -> String? {
        guard let text = try single(name, in: request) else { return nil }
        guard !text.utf8.contains(0) else { throw NulCharacter.problem(in: name) }
        return text
    }

    /// A query parameter given at most once: `?country=JP&country=US` is refused rather than read
    /// as its first value, which would answer a question the client did not ask.
    /// - Throws: `ProblemError` 422 naming the parameter.
    private static func single(_ name: String, in request: Request) throws -> String? {
        let values = request.uri.queryParameters.getAll(name)
        guard values.count <= 1 else {
            throw ProblemError(Problem.validation(ValidationError([FieldError(name, "must be given once")])))
        }
        return values.first.map { String($0) }
    }

    /// A timestamp field of a JSON body, RFC 3339 (`2026-11-22T10:00:00Z`, fractions allowed), in
    /// the years 1583 to 9999: RFC 3339 writes none past 9999, and before 1583 Foundation counts
    /// days on the Julian calendar where PostgreSQL counts them on the Gregorian one, so a date
    /// was stored days away from what was sent (`1582-10-10` came back as `1582-10-20`, `0002-01-01`
    /// was `0001-12-30` in SQL). Every one taken is written back as it came. A day or time no
    /// calendar has (February 30th, 24:00) is refused: the parser would move it silently (to
    /// March 2nd, the next day).
    /// - Throws: `ProblemError` 422 naming `field`.
    static func timestamp(_ text: String?, field: String) throws -> Date? {
        guard let text else { return nil }
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let date =
            RFC3339Fields.areOnTheCalendar(text)
            ? (try? withFraction.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) : nil
        guard let date, Self.timestamps.contains(date.timeIntervalSince1970) else {
            throw ProblemError(
                Problem.validation(ValidationError([FieldError(field, "must be an RFC 3339 timestamp in the years 1583 to 9999")])))
        }
        return date
    }

    /// 1583-01-01T00:00:00Z up to (not including) 10000-01-01T00:00:00Z, in seconds since 1970.
    static let timestamps: Range<TimeInterval> = -12_212_553_600..<253_402_300_800

    /// An optional request header, given at most once and holding no U+0000.
    /// - Throws: `ProblemError` 422 naming the header.
    static func header(_ name: String, in request: Request) throws -> String? {
        guard let field = HTTPField.Name(name) else { return nil }
        let values = request.headers[values: field]
        guard values.count <= 1 else {
            throw ProblemError(Problem.validation(ValidationError([FieldError(name, "must be given once")])))
        }
        guard let text = values.first else { return nil }
        guard !text.utf8.contains(0) else { throw NulCharacter.problem(in: name) }
        return text
    }

    /// An optional header read by `convert`; `description` says what it must be.
    /// - Throws: `ProblemError` 422 naming the header when `convert` cannot read it.
    static func header<T>(_ name: String, in request: Request, as description: String, _ convert: (String) -> T?) throws -> T? {
        guard let text = try header(name, in: request) else { return nil }
        guard let value = convert(text) else {
            throw ProblemError(Problem.validation(ValidationError([FieldError(name, "must be \(description)")])))
        }
        return value
    }

    /// The body as bytes, unparsed, at most `max` of them: refused with 413 before it is read
    /// when its Content-Length says more, and while it is read when it brings more.
    /// - Throws: `ProblemError` 413.
    static func rawBody(_ request: Request, max: Int) async throws -> [UInt8] {
        let tooLarge = ProblemError(Problem.payloadTooLarge("The request body must be at most \(max) bytes."))
        if let length = request.headers[.contentLength].flatMap(Int.init), length > max { throw tooLarge }
        do {
            return Array(buffer: try await request.body.collect(upTo: max))
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
    }

    /// An optional query parameter read by `convert`; `description` says what it must be.
    /// - Throws: `ProblemError` 422 naming the parameter when `convert` cannot read it.
    static func query<T>(_ name: String, in request: Request, as description: String, _ convert: (String) -> T?) throws -> T? {
        guard let text = try string(name, in: request) else { return nil }
        guard let value = convert(text) else {
            throw ProblemError(Problem.validation(ValidationError([FieldError(name, "must be \(description)")])))
        }
        return value
    }

    /// The path parameter `name` read by `convert`; `description` says what it must be.
    /// - Parameter routed: as in `uuid`.
    /// - Throws: `ProblemError` 400 naming the parameter.
    static func path<T>(
        _ name: String, in context: StorefrontContext, routed: String? = nil, as description: String, _ convert: (String) -> T?
    ) throws -> T {
        guard let text = context.parameters.get(routed ?? name), !text.utf8.contains(0), let value = convert(text) else {
            throw ProblemError(
                Problem.badRequest(
                    "The path parameter \(name) must be \(description).", errors: [FieldError(name, "must be \(description)")]))
        }
        return value
    }
}

/// `{"amount": 1200, "currency": "JPY"}` in a request body.
struct MoneyRequest: Decodable {
    let amount: Int64
    let currency: String

    var input: MoneyInput { MoneyInput(amount: amount, currency: currency) }
}

/// `{"amount": 1500}`, `{"currency": "USD"}` or both: a change of a money value.
struct MoneyChangeRequest: Decodable {
    let amount: Int64?
    let currency: String?

    var input: MoneyChangeInput { MoneyChangeInput(amount: amount, currency: currency) }
}

extension RequestParsing {
    /// The query parameters `name.<key>=value`, or `name[<key>]=value` as OpenAPI's deepObject
    /// style writes them, as a map of key to value read by `convert` (`?option.size=M` is
    /// `["size": "M"]`); none is an empty map. A key is 1 to 64 characters and comes once.
    /// Parameter names are percent-decoded first (Hummingbird decodes only values): clients
    /// built from the API document, swift-openapi-runtime's among them, send `option%5Bsize%5D`.
    /// - Throws: `ProblemError` 422 naming the parameter (`option.size`).
    static func queryMap<T>(_ name: String, in request: Request, as description: String, _ convert: (String) -> T?) throws -> [String: T] {
        var map: [String: T] = [:]
        for (encoded, text) in request.uri.queryParameters {
            let parameter = encoded.removingPercentEncoding ?? String(encoded)
            var key: Substring
            if parameter.hasPrefix(name + ".") {
                key = parameter.dropFirst(name.count + 1)
            } else if parameter.hasPrefix(name + "["), parameter.hasSuffix("]") {
                key = parameter.dropFirst(name.count + 1).dropLast()
            } else if parameter == name || parameter.hasPrefix(name + "[") {
                // `option=M` or `option[size=M`: meant as the map, and naming no key.
                throw ProblemError(Problem.validation(ValidationError([FieldError(name, "must name a key, as \(name).size=M")])))
            } else {
                continue
            }
            guard (1...64).contains(key.count), !key.utf8.contains(0) else {
                throw ProblemError(Problem.validation(ValidationError([FieldError(name, "must name keys of 1 to 64 characters")])))
            }
            let field = "\(name).\(key)"
            guard !text.utf8.contains(0) else {
                throw ProblemError(Problem.validation(ValidationError([FieldError(field, "must not hold a NUL character")])))
            }
            guard map[String(key)] == nil else {
                throw ProblemError(Problem.validation(ValidationError([FieldError(field, "must be given once")])))
            }
            guard let value = convert(String(text)) else {
                throw ProblemError(Problem.validation(ValidationError([FieldError(field, "must be \(description)")])))
            }
            map[String(key)] = value
        }
        return map
    }
}
