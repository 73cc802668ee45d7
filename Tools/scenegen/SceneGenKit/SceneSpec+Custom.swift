/// What a custom use case takes: the route's parameters, query parameters and body fields, each
/// with the rules of an entity field.
public struct CustomInputSpec: Hashable, Sendable {
    /// One per route parameter, in the route's order (`{id}` is a uuid unless declared).
    public let path: [FieldSpec]
    public let query: [FieldSpec]
    /// Request headers, each named as its field's words joined by `-` (`stripe_signature` reads
    /// `Stripe-Signature`).
    public var headers: [FieldSpec] = []
    public let body: [FieldSpec]
    /// `raw_body: { max: N }`: the body as bytes, unparsed (a signature is checked over them),
    /// at most N bytes (a larger one is refused with 413 before it is read).
    public var rawBodyMax: Int?
    /// `upload:`: one file of a `multipart/form-data` body.
    public var upload: UploadSpec?
    /// Body members that are objects of fields or lists of them, after the plain `body` fields.
    public var objects: [InputObjectSpec] = []
    /// `session: true`: the input carries the bearer token of the customer's session
    /// (`sessionToken`), for logic about the session itself (keep it, end it).
    public var session = false

    public var all: [FieldSpec] { path + query + headers + body }

    /// The body's objects and every object nested in them, parents first.
    public var allObjects: [InputObjectSpec] { objects.flatMap { [$0] + $0.allObjects } }
}

/// One answer of a custom use case: a case of its outcome enum, and the HTTP status the presenter
/// gives it.
public struct OutcomeSpec: Hashable, Sendable {
    public enum Body: Hashable, Sendable {
        /// No body; a status of 400 or more answers problem+json.
        case none
        /// The scene's entity, through its translator.
        case entity
        case fields([FieldSpec])
        /// A model or entity some spec declares (`body: HomeFeed`), through its scene's translator.
        case model(String)
        /// A page of them (`body: { page: ItemPhoto }`): `{"data": [...], "next_cursor"}`.
        case page(String)
    }

    public let name: String
    public let status: Int
    public let body: Body
    public let position: SourcePosition
    /// A problem outcome's `detail` (a sentence; derived from the name when absent).
    public var detail: String?
    /// A problem outcome's field errors.
    public var fieldErrors: [OutcomeFieldError] = []
    /// `location: "/v1/items/{id}"`: the `Location` header of a success, its `{name}`s members
    /// of the body.
    public var location: String?
    /// `logic_errors: true` on a problem: the logic adds field errors of its own (one per cart
    /// line short of stock), after the spec's `errors`.
    public var logicErrors = false
}

extension OutcomeSpec {
    /// The `{name}`s of a detail or message, in order.
    public static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}

/// `{ field: current_password, message: is not correct }` of a problem outcome.
public struct OutcomeFieldError: Hashable, Sendable {
    public let field: String
    public let message: String
}

/// `rate_limit:` of a use case: the throttle's class counted before the use case runs.
public struct RateLimitSpec: Hashable, Sendable {
    public enum Class: String, Hashable, Sendable, CaseIterable {
        /// A signed-in customer's current password checked (`RequestThrottle.passwordCheck`).
        case passwordCheck = "password_check"
        case checkout
        case photoUpload = "photo_upload"
        /// A payment settled from the provider on the customer's asking (`RequestThrottle.paymentCheck`).
        case paymentCheck = "payment_check"
        /// A sign-up: counted per client address (`RequestThrottle.signUp`).
        case signUp = "sign_up"
        /// A sign-in: counted per client address and per the body's `email`.
        case signIn = "sign_in"

        /// Whether the class counts per signed-in customer (a customer route's).
        public var perCustomer: Bool { ![.signUp, .signIn].contains(self) }
    }

    public let `class`: Class
    /// The body field whose presence makes the request count; every request counts when `nil`.
    public let when: String?
}

/// One typed call of an http gateway: `request` is a method and a path under the base URL.
public struct GatewayOperationSpec: Hashable, Sendable {
    public let name: String
    public let route: Route
    /// Fields named in the path fill it; the rest are the JSON body.
    public let input: [FieldSpec]
    /// The 2xx answer's JSON body, decoded.
    public let output: [FieldSpec]
    /// Statuses that become cases of the operation's typed error.
    public let errors: [OutcomeSpec]
    public let position: SourcePosition
}

extension SceneSpec {
    /// The members an outcome's `location` may name: the fields of its body when the body is a
    /// list of fields, the entity, or a model this spec declares; `nil` for a body it cannot
    /// name (none, a page, another spec's type). Lists and other declared types are left out.
    func locationMembers(of outcome: OutcomeSpec) -> [FieldSpec]? {
        switch outcome.body {
        case .fields(let fields): return fields
        case .entity: return entity?.fields
        case .model(let type):
            if let model = models.first(where: { $0.name == type }) {
                return model.fields.compactMap { field in
                    guard case .field(let spec) = field.value, !field.list else { return nil }
                    return spec
                }
            }
            return entity?.name == type ? entity?.fields : nil
        case .page, .none: return nil
        }
    }
}

/// `upload: { field: photo, max: 10485760, precheck: true }`: the file of the multipart part
/// `field`, streamed to disk as it arrives (at most `max` bytes: 413 past it, refused by its
/// Content-Length before it is read) and handed to the logic as an `UploadedFile`. Uploads read
/// at once are bounded per instance (`UPLOAD_MAX_CONCURRENT`, 503 past it). With `precheck`,
/// the logic first answers whether the upload may start at all (who may add to what, a place
/// under a limit) before a byte of the body is read. With `resumable`, the route also takes
/// the file as a resumable upload (draft-ietf-httpbis-resumable-upload): a client that sends
/// `Upload-Draft-Interop-Version` and `Upload-Complete` sends the file's bytes as the body, is
/// told where to resume (`104` and `Location: /v1/uploads/{id}`) and may finish the upload
/// from any instance; the file reaches the same logic once. It needs `auth: customer` and a
/// path-only input: those are kept with the upload.
public struct UploadSpec: Hashable, Sendable {
    public let field: String
    public let max: Int
    public let precheck: Bool
    public let resumable: Bool
}

/// A body member that is an object of fields, or with `list: true` a list of them
/// (`lines: [{"item_id", "quantity"}]`), each object checked as an input's fields are (an error
/// is named by its place: `lines[0].quantity`). `type` names the object's Swift type, declared
/// once across the specs like a model.
public struct InputObjectSpec: Hashable, Sendable {
    public let name: String
    public let type: String
    public let list: Bool
    public let optional: Bool
    public let fields: [FieldSpec]
    public let position: SourcePosition
    /// With `list`: how many elements it may hold at most (`max_items`).
    public var maxItems: Int?
    /// With `list`: how many elements it must hold at least (`min_items`).
    public var minItems: Int?
    /// Members that are objects (or lists of them) in turn: a variant's `options` inside an
    /// item's `variants`.
    public var objects: [InputObjectSpec] = []

    /// The objects nested in this one at any depth, parents first.
    public var allObjects: [InputObjectSpec] { objects.flatMap { [$0] + $0.allObjects } }

    /// Neither optional: a client must send it (a list may be empty).
    public var required: Bool { !optional }
}
