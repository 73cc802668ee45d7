import AsyncHTTPClient

/// The process's HTTP client for outside APIs (never shut down, like `HTTPClient.shared`). It
/// gives up connecting after a second: an API that refuses or cannot be routed to must not hold a
/// request for its whole deadline.
public enum SharedHTTPClient {
    public static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(1)
        return HTTPClient(configuration: configuration)
    }()
}
