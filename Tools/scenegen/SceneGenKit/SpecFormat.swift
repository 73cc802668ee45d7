/// The keys each construct of the spec format takes: one list the parser enforces and the
/// published JSON Schema (`Specs/scene.schema.json`) is checked against.
public enum SpecFormat {
    public static let sceneKeys = ["scene", "summary", "code", "entity", "ports", "models", "useCases", "gateways"]
    public static let portKeys = ["name", "type", "value", "optional"]
    public static let modelKeys = ["name", "fields", "domain"]
    /// A model's field: a field type's keys, or a declared type's name; `list` makes an array.
    public static let modelFieldKeys = ["name", "type", "values", "enum_type", "optional", "list", "map", "from"]
    public static let entityKeys = ["name", "table", "owner", "fields", "unique", "rules", "max_per_owner"]
    public static let fieldKeys = [
        "name", "type", "values", "enum_type", "primary", "optional", "default", "readonly", "admin_only", "one_per_owner", "unique",
        "references",
        "min",
        "max", "example", "currency",
    ]
    public static let useCaseKeys = [
        "name", "kind", "route", "auth", "page", "filters", "gateways", "input", "outcomes", "rate_limit", "background",
    ]
    /// A use case's `rate_limit`: the class counted, and the body field whose presence makes a
    /// request count (every request when absent).
    public static let rateLimitKeys = ["class", "when"]
    public static let gatewayKeys = ["name", "kind", "base_url_env", "operations"]
    /// A custom use case's `input`.
    public static let inputKeys = ["path", "query", "headers", "body", "raw_body", "upload", "session"]
    /// A custom use case's `upload`: one file of a multipart body, streamed to disk; with
    /// `resumable`, also a resumable upload's bytes.
    public static let uploadKeys = ["field", "max", "precheck", "resumable"]
    /// A body member holding an object of fields (`type` names its Swift type), or a list of them.
    public static let inputObjectKeys = ["name", "type", "list", "min_items", "max_items", "optional", "fields"]
    /// A custom use case's `raw_body`: the body unparsed, bounded.
    public static let rawBodyKeys = ["max"]
    /// A field of a custom use case's input: an entity field's type and rules.
    public static let inputFieldKeys = [
        "name", "type", "values", "enum_type", "optional", "default", "min", "max", "partial", "list", "min_items", "max_items",
        "map",
    ]
    /// A field of an answer or of a gateway call: a type and nothing to check.
    public static let plainFieldKeys = ["name", "type", "values", "enum_type", "optional", "list"]
    /// One of a custom use case's `outcomes`, or one of a gateway operation's `errors`.
    public static let outcomeKeys = ["name", "status", "body", "detail", "errors", "location", "logic_errors"]
    /// One of a problem outcome's field `errors`.
    public static let outcomeErrorKeys = ["field", "message"]
    public static let operationErrorKeys = ["name", "status"]
    public static let operationKeys = ["name", "request", "input", "output", "errors"]
}
