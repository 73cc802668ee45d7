import AsyncHTTPClient

/// The process's HTTP client for outside APIs (never shut down, like `HTTPClient.shared`). It
/// gives up connecting after a second: an API that refuses or cannot be routed to must not hold a
/// request for its whole deadline. That second also bounds the wait for a pooled connection, so
/// the pool allows 512 connections per host (AsyncHTTPClient's default is 8): 20 photo uploads at
/// once each hold one for seconds, and at 64 a payment provider answering in 300 ms left most of
/// 512 customers checking out at once waiting past that second, their orders pending
/// (`Benchmarks/checkout --stub 300 --customers 512`).
public enum SharedHTTPClient {
    public static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(1)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 512)
        return HTTPClient(configuration: configuration)
    }()
}
