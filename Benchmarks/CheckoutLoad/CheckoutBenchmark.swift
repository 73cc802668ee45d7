import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The two sides of `Benchmarks/checkout` that are not the service, compiled: on Python they took
/// as much of this machine's two cores as the service did, and its figures measured them.
///
///     checkout-benchmark stub PORT LATENCY_MS
///     checkout-benchmark load BASE_URL CUSTOMERS SECONDS TOKENS_FILE ITEMS_FILE [THINK_MS]
///     checkout-benchmark provider PAYMENT_URL CLIENTS SECONDS
///
/// `stub` is a Stripe-compatible provider for benchmarks only (`PaymentStub`). `load` runs one
/// task per customer (its session token a line of TOKENS_FILE), each putting one unit of one of
/// the items (ITEMS_FILE) in its cart and checking out, again and again, on connections kept
/// alive as an app's are; it prints one JSON line: `elapsed` seconds, `statuses` of the checkouts
/// and each checkout's `latencies` in seconds. With THINK_MS each customer pauses after each
/// checkout, for a time drawn uniformly between 0 and twice THINK_MS, as a shopper browses between
/// orders, and its first checkout waits as long: the load is then what the customers ask for, not
/// whatever the service can take. `provider` is the reference of the provider alone:
/// CLIENTS tasks creating and confirming PaymentIntents, what one checkout asks of it; it prints the
/// pairs per second.
@main
struct CheckoutBenchmark {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch (arguments.first, arguments.count) {
        case ("stub", 3):
            guard let port = Int(arguments[1]), let latency = Int(arguments[2]) else { return usage() }
            try await PaymentStub(latency: .milliseconds(latency)).run(port: port)
        case ("provider", 4):
            guard let clients = Int(arguments[2]), let seconds = Double(arguments[3]) else { return usage() }
            print(try await ProviderLoad(base: arguments[1], clients: clients).run(for: .seconds(seconds)))
        case ("load", 6), ("load", 7):
            guard let customers = Int(arguments[2]), let seconds = Double(arguments[3]),
                let think = Int(arguments.count == 7 ? arguments[6] : "0")
            else { return usage() }
            let lines = { (path: String) in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init) }
            let load = CheckoutLoad(
                base: arguments[1], tokens: Array(try lines(arguments[4]).prefix(customers)), items: try lines(arguments[5]),
                think: .milliseconds(think))
            print(try await load.run(for: .seconds(seconds)))
        default:
            usage()
        }
    }

    static func usage() {
        print(
            "usage: checkout-benchmark stub PORT LATENCY_MS | load BASE_URL CUSTOMERS SECONDS TOKENS_FILE ITEMS_FILE [THINK_MS]"
                + " | provider PAYMENT_URL CLIENTS SECONDS")
    }
}

/// Customers checking out in a loop; see `CheckoutBenchmark`.
struct CheckoutLoad {
    let base: String
    let tokens: [String]
    let items: [String]
    /// The mean pause after each checkout.
    let think: Duration

    /// The run's result as a JSON line.
    func run(for duration: Duration) async throws -> String {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: tokens.count)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        let results = try await withThrowingTaskGroup(of: [(status: Int, seconds: Double)].self) { group in
            for (index, token) in tokens.enumerated() {
                group.addTask {
                    var mine: [(status: Int, seconds: Double)] = []
                    var next = index
                    // Shoppers arrive over a pause's span, not all in the same instant.
                    if think > .zero { try await Task.sleep(for: think * Double.random(in: 0...2)) }
                    while clock.now < deadline {
                        next = (next &* 1_103_515_245 &+ 12345) & 0x7fff_ffff
                        let item = items[next % items.count]
                        _ = try await send(client, .PUT, "/v1/cart/items/\(item)", #"{"quantity":1}"#, token)
                        let started = clock.now
                        let status = try await send(
                            client, .POST, "/v1/orders", #"{"payment_method":"pm_card_visa"}"#, token, key: UUID().uuidString)
                        mine.append((status, Self.seconds(clock.now - started)))
                        if think > .zero {
                            try await Task.sleep(until: min(clock.now + think * Double.random(in: 0...2), deadline), clock: clock)
                        }
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let elapsed = Self.seconds(clock.now - start)
        try await client.shutdown()
        let statuses = Dictionary(grouping: results, by: \.status).map { "\"\($0.key)\": \($0.value.count)" }
        let latencies = results.map { String(format: "%.6f", $0.seconds) }
        return
            #"{"elapsed": \#(elapsed), "statuses": {\#(statuses.joined(separator: ", "))}, "latencies": [\#(latencies.joined(separator: ","))]}"#
    }

    /// One JSON request; its status (0 when the connection failed).
    private func send(
        _ client: HTTPClient, _ method: HTTPMethod, _ path: String, _ body: String, _ token: String, key: String? = nil
    ) async throws -> Int {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let key { request.headers.add(name: "Idempotency-Key", value: key) }
        request.body = .bytes(ByteBuffer(string: body))
        do {
            let response = try await client.execute(request, timeout: .seconds(60))
            _ = try await response.body.collect(upTo: 1 << 20)
            return Int(response.status.code)
        } catch {
            return 0
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The provider alone: create and confirm pairs per second; see `CheckoutBenchmark`.
struct ProviderLoad {
    let base: String
    let clients: Int

    func run(for duration: Duration) async throws -> String {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: clients)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        let pairs = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    var pairs = 0
                    while clock.now < deadline {
                        let intent = try await post(client, "/v1/payment_intents", "amount=980&currency=jpy&payment_method=pm_card_visa")
                        guard let id = intent["id"] as? String else { continue }
                        _ = try await post(client, "/v1/payment_intents/\(id)/confirm", "")
                        pairs += 1
                    }
                    return pairs
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = CheckoutLoad.seconds(clock.now - start)
        try await client.shutdown()
        return String(format: "%.1f", Double(pairs) / elapsed)
    }

    /// A form POST; its JSON answer (empty when there is none).
    private func post(_ client: HTTPClient, _ path: String, _ form: String) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer sk_test_bench")
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: form))
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]) ?? [:]
    }
}
