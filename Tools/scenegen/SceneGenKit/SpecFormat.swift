/// The keys each construct of the spec format takes: one list the parser enforces and the
/// published JSON Schema (`Specs/scene.schema.json`) is checked against.
public enum SpecFormat {
    public static let sceneKeys = ["scene", "summary", "code", "entity", "useCases", "gateways"]
    public static let entityKeys = ["name", "table", "owner", "fields", "unique"]
    public static let fieldKeys = [
        "name", "type", "values", "primary", "optional", "default", "readonly", "unique", "references", "min", "max",
    ]
    public static let useCaseKeys = ["name", "kind", "route", "auth", "page", "filters", "gateways"]
    public static let gatewayKeys = ["name", "kind", "base_url_env"]
}
