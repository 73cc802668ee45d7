import HTTPTestSupport
import HummingbirdTesting
import TestSupport
import Testing

@Suite("GET /metrics")
struct MetricsHTTPTests {
    @Test func prometheusTextBehindTheAdminToken() async throws {
        try await withApp { client, _ in
            try await client.send(.get, "/v1/items?limit=1")
            try await client.send(.get, "/metrics").expectProblem(401)
            let scrape = try await client.send(.get, "/metrics", token: adminToken)
            #expect(scrape.status == .ok)
            #expect(scrape.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(buffer: scrape.body)
            #expect(
                text.contains(#"hb_requests{http_route="/v1/items",http_request_method="GET",http_response_status_code="200"}"#),
                "\(text.prefix(2000))")
            #expect(text.contains("http_server_request_duration_bucket"))
            #expect(text.contains(#"db_pool_connections{state="in_use"}"#) && text.contains("db_pool_waiting_requests"))
        }
    }
}

@Suite("Outside calls in /metrics")
struct ExternalCallMetricsHTTPTests {
    @Test func aFailedMediaUploadIsCounted() async throws {
        try await withApp(mediaURL: "http://127.0.0.1:\(freePort())") { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await ReviewHTTPTests.postReview(client, item: mug, token: token)
            try await ReviewHTTPTests.upload(client, review: review, token: token).expectProblem(502)
            let text = String(buffer: try await client.send(.get, "/metrics", token: adminToken).body)
            #expect(
                text.contains(#"external_calls{service="media",operation="POST /photo",outcome="unavailable"}"#), "\(text.suffix(1500))")
        }
    }
}
