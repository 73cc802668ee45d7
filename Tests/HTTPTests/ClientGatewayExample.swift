import Foundation
import OpenAPIRuntime
import StorefrontClient

// The README's example of an app's Gateway over StorefrontClient, compiled and driven by
// StorefrontClientTests so the README cannot drift from what builds.

// The app's Domain: what its use cases need, nothing of HTTP.
protocol ItemListGateway: Sendable {
    func items(after cursor: String?) async throws -> (items: [Components.Schemas.Item], next: String?)
}

// The app's Gateway: the generated client behind the protocol.
struct StorefrontItemListGateway: ItemListGateway {
    let client: Client

    init(baseURL: URL, transport: any ClientTransport, session: @escaping @Sendable () async -> String?) {
        client = Client(
            serverURL: baseURL, configuration: .storefront,  // timestamps carry milliseconds
            transport: transport, middlewares: [BearerTokenMiddleware(token: session)])
    }

    func items(after cursor: String?) async throws -> (items: [Components.Schemas.Item], next: String?) {
        switch try await client.catalog_list(query: .init(limit: 2, cursor: cursor)) {
        case .ok(let ok):
            let page = try ok.body.json
            return (page.data, page.nextCursor)
        case .default(_, let answer):
            throw ShopError.problem(try answer.body.applicationProblemJson.detail)
        }
    }
}

enum ShopError: Error { case problem(String) }

// The app's use case: every item, page after page, through whichever gateway it is given.
func allItems(from gateway: any ItemListGateway) async throws -> [Components.Schemas.Item] {
    var items: [Components.Schemas.Item] = []
    var cursor: String?
    repeat {
        let page = try await gateway.items(after: cursor)
        items += page.items
        cursor = page.next
    } while cursor != nil
    return items
}

// The app's tests: a mock of the protocol, no server.
struct ItemListGatewayMock: ItemListGateway {
    var pages: [String?: ([Components.Schemas.Item], String?)]

    func items(after cursor: String?) async throws -> (items: [Components.Schemas.Item], next: String?) {
        pages[cursor] ?? ([], nil)
    }
}
