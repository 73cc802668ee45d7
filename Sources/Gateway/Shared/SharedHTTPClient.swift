import AsyncHTTPClient

/// The process's HTTP client for outside APIs (never shut down, like `HTTPClient.shared`). It
/// gives up connecting after a second: an API that refuses or cannot be routed to must not hold a
/// request for its whole deadline. That second also bounds the wait for a pooled connection, so
/// the pool allows 64 connections per host (AsyncHTTPClient's default is 8): 20 photo uploads at
/// once each hold one for seconds.
public enum SharedHTTPClient {
    public static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(1)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        return HTTPClient(configuration: configuration)
    }()
}
