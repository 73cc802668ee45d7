import AsyncHTTPClient
import Foundation
import HTTPTestSupport
import HummingbirdTesting
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import StorefrontClient
import Synchronization
import TestSupport
import Testing

/// The app's side, end to end: the real server on a loopback port, driven only through the
/// generated `StorefrontClient` over AsyncHTTPClient, as an app would drive it (its session
/// token held by `BearerTokenMiddleware`). What the document says and what the server sends
/// must agree, or the client's decoding fails here.
@Suite("StorefrontClient against the live server")
struct StorefrontClientTests {
    /// The session token the app holds, shared with the middleware.
    final class Session: Sendable {
        private let token = Mutex<String?>(nil)
        var current: String? { token.withLock { $0 } }
        func hold(_ value: String?) { token.withLock { $0 = value } }
    }

    static func client(port: Int, session: Session) -> Client {
        Client(
            serverURL: URL(string: "http://127.0.0.1:\(port)")!, configuration: .storefront,
            transport: AsyncHTTPClientTransport(configuration: .init(client: .shared, timeout: .seconds(60))),
            middlewares: [BearerTokenMiddleware { session.current }]
        )
    }

    @Test func anAppSignsUpBrowsesBuysReviewsWithAPhotoAndSeesItsOrders() async throws {
        try await withApp(testing: .live) { live, db in
            let items = try await (0..<5).asyncMap { n in
                try await TestRows.insertItem(
                    db, sku: "CLIENT-\(n)", name: "Mug \(n)", category: "kitchen", price: 1200 + Int64(n), stock: 10)
            }
            let session = Session()
            let client = Self.client(port: try #require(live.port), session: session)

            // Sign up, then sign in: the session's token signs every later request in.
            let email = "app-\(UUID().uuidString.prefix(8))@example.com"
            let customer = try await client.account_signUp(
                body: .json(.init(email: email, name: "Aoi", password: "correct horse battery staple"))
            ).created.body.json
            #expect(customer.email == email && customer.name == "Aoi")
            let signedIn = try await client.account_signIn(body: .json(.init(email: email, password: "correct horse battery staple")))
            session.hold(try signedIn.created.body.json.token)
            #expect(try await client.customerSetting_show().ok.body.json.email == email)

            // Browse with cursors, through the README's app Gateway: pages of two, each item once.
            let gateway = StorefrontItemListGateway(
                baseURL: URL(string: "http://127.0.0.1:\(try #require(live.port))")!,
                transport: AsyncHTTPClientTransport(configuration: .init(client: .shared, timeout: .seconds(60))),
                session: { session.current })
            let browsed = try await allItems(from: gateway)
            #expect(browsed.map(\.id).sorted() == items.map { $0.uuidString.lowercased() }.sorted())
            // The app's tests swap the gateway for its mock: the same use case, no server.
            let mocked = ItemListGatewayMock(pages: [nil: (Array(browsed.prefix(3)), "more"), "more": (Array(browsed.dropFirst(3)), nil)])
            #expect(try await allItems(from: mocked) == browsed)

            // The option filter as the client sends it (deepObject, `option%5Bsize%5D=L`): the mugs
            // have no sizes, so none matches.
            let sized = try await client.catalog_list(query: .init(option: .init(additionalProperties: ["size": "L"])))
            #expect(try sized.ok.body.json.data.isEmpty)

            // A cart of two mugs, paid by card.
            let mug = try await client.catalog_show(path: .init(id: items[0].uuidString)).ok.body.json
            let variant = try #require(mug.variants.first)
            let cart = try await client.cart_setVariant(path: .init(variantId: variant.id), body: .json(.init(quantity: 2))).ok.body.json
            #expect(cart.itemCount == 2 && cart.subtotal.amount == 2400 && cart.subtotal.currency == "JPY")
            let paid = try await client.order_checkout(
                headers: .init(idempotencyKey: UUID().uuidString), body: .json(.init(paymentMethod: "pm_card_visa"))
            ).created.body.json
            #expect(paid.status == .paid && paid.total.amount == 2400 && paid.payment == nil)
            #expect(paid.lines.map(\.quantity) == [2] && paid.taxLines.first?.ratePercent == 10)

            // A problem comes back typed: the cart is empty now, so a second checkout is refused.
            let empty = try await client.order_checkout(headers: .init(idempotencyKey: UUID().uuidString), body: .json(.init()))
            guard case .unprocessableContent(let refused) = empty else {
                Issue.record("expected 422, got \(empty)")
                return
            }
            // Any of the 422's shapes (the empty cart's is the plain problem, `value3`).
            let problem = try #require(try refused.body.applicationProblemJson.value3)
            #expect(problem.status == 422 && problem.detail.contains("empty"))

            // A review with a photo of the mug bought.
            let review = try await client.review_post(
                path: .init(itemId: mug.id), body: .json(.init(content: "Holds tea well.", rating: 5))
            )
            .created.body.json
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 4000)
            let photo = try await client.review_addPhoto(
                path: .init(id: review.id),
                body: .multipartForm([.photo(.init(payload: .init(body: HTTPBody(jpeg)), filename: "mug.jpg"))])
            ).created.body.json
            let photos = try await client.photoList_list(path: .init(itemId: mug.id)).ok.body.json.data
            #expect(photos.map(\.url) == [photo.url])

            // The order history, and a stranger's order id answered as not found.
            let orders = try await client.order_list().ok.body.json
            #expect(orders.data.map(\.id) == [paid.id] && orders.nextCursor == nil)
            let unknownID = UUID().uuidString.lowercased()
            let unknown = try await client.order_show(path: .init(id: unknownID))
            guard case .notFound(let notFound) = unknown else {
                Issue.record("expected 404, got \(unknown)")
                return
            }
            // The problem with its members (`value1`), else the plain problem any refusal may be.
            let missing = try #require(try notFound.body.applicationProblemJson.value1)
            #expect(missing.value1.status == 404 && missing.value2.id == unknownID)

            // The phone registers for pushes, and unregisters on sign-out.
            let phone = String(repeating: "ab", count: 32)
            let device = try await client.device_register(path: .init(token: phone), body: .json(.init(locale: "ja-JP", platform: .ios)))
                .created.body.json
            #expect(device.token == phone && device.locale == "ja-JP")
            _ = try await client.device_unregister(path: .init(token: phone)).noContent

            // Signed out, the token no longer opens the account.
            _ = try await client.account_signOut().noContent
            guard case .unauthorized = try await client.customerSetting_show() else {
                Issue.record("a signed-out token still opened the account")
                return
            }
        }
    }

    @Test func aCardNeedingThreeDSecureIsCompletedThroughTheClient() async throws {
        try await withApp(testing: .live) { live, db in
            let item = try await TestRows.insertItem(db, name: "Kettle", price: 5000, stock: 3)
            let (_, token) = try await signedInCustomer(db)
            let session = Session()
            session.hold(token)
            let client = Self.client(port: try #require(live.port), session: session)
            let variant = try await TestRows.variantID(of: item, db)
            _ = try await client.cart_setVariant(path: .init(variantId: variant.uuidString), body: .json(.init(quantity: 1))).ok

            let card = try await ThreeDSecureHTTPTests.threeDSecureCard()
            let pending = try await client.order_checkout(
                headers: .init(idempotencyKey: UUID().uuidString), body: .json(.init(paymentMethod: card))
            ).accepted.body.json
            #expect(pending.status == .requiresAction)
            let payment = try #require(pending.payment)
            let intent = try #require(pending.paymentIntentId)
            try await ThreeDSecureHTTPTests.provider(
                "/v1/payment_intents/\(intent)/_authenticate", ["client_secret": payment.clientSecret, "success": "true"])

            let settled = try await client.order_refreshPayment(path: .init(id: pending.id)).ok.body.json
            #expect(settled.status == .paid && settled.payment == nil)
        }
    }
}

/// The README's example is this module's `ClientGatewayExample.swift`, below its own header.
@Test func theREADMEsClientExampleIsTheOneThatBuilds() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let example = try String(contentsOf: root.appendingPathComponent("Tests/HTTPTests/ClientGatewayExample.swift"), encoding: .utf8)
    let imports = "import StorefrontClient\n\n"
    // The README: from its `import OpenAPIURLSession` block's imports to the block's end.
    let block = try #require(readme.range(of: "```swift\nimport Foundation\nimport OpenAPIURLSession"))
    let shownStart = try #require(readme.range(of: imports, range: block.upperBound..<readme.endIndex))
    let shownEnd = try #require(readme.range(of: "\n```\n", range: shownStart.upperBound..<readme.endIndex))
    // The file: after its imports and its header paragraph.
    let codeStart = try #require(example.range(of: imports))
    let header = try #require(example.range(of: "\n\n", range: codeStart.upperBound..<example.endIndex))
    #expect(readme[shownStart.upperBound..<shownEnd.lowerBound] + "\n" == example[header.upperBound...])
}

extension Sequence where Element: Sendable {
    /// The elements mapped in order, one at a time.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
