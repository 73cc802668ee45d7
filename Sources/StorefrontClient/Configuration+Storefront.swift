import OpenAPIRuntime

extension Configuration {
    /// What the client needs to read this service: its timestamps carry milliseconds
    /// (`2026-11-22T20:40:49.123Z`, RFC 3339), which the runtime's default transcoder refuses.
    /// `Client(serverURL:configuration: .storefront, transport:middlewares:)`.
    public static var storefront: Configuration { Configuration(dateTranscoder: .iso8601WithFractionalSeconds) }
}
