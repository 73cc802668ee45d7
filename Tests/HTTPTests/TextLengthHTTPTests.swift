import Foundation
import HTTPTestSupport
import HummingbirdTesting
import PropertyBased
import TestSupport
import Testing

/// Text lengths are counted one way on both sides: code points, as the CHECK constraints'
/// `char_length` counts. Before, the rules counted Characters, so a name of 100 decomposed
/// characters (200 code points) passed validation and failed the constraint as a 500.
@Suite("Text lengths against the database's constraints")
struct TextLengthHTTPTests {
    /// e + COMBINING ACUTE ACCENT: one Character, two code points.
    static let decomposedE = "e\u{301}"
    /// A family emoji: one Character, seven code points.
    static let family = "👨‍👩‍👧‍👦"

    static func createItem(_ client: any TestClientProtocol, name: String) async throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: [
            "sku": "SKU-\(UUID().uuidString.prefix(8))", "name": name, "category": "kitchen",
            "price": ["amount": 100, "currency": "JPY"], "stock": 1,
        ])
        return try await client.send(.post, "/v1/admin/items", json: String(decoding: body, as: UTF8.self), token: adminToken)
    }

    @Test func namesAtTheLimitInCodePointsNotCharacters() async throws {
        try await withApp { client, db in
            // 100 Characters, 200 code points: within 200.
            #expect(try await Self.createItem(client, name: String(repeating: Self.decomposedE, count: 100)).status == .created)
            // 101 Characters, 202 code points: over, a 422 naming the field (was a 500).
            let over = try await Self.createItem(client, name: String(repeating: Self.decomposedE, count: 101))
            try over.expectProblem(422)
            #expect(over.fieldNames == ["name"])
            // 28 emoji are 28 Characters but 196 code points; 29 are 203.
            #expect(try await Self.createItem(client, name: String(repeating: Self.family, count: 28)).status == .created)
            try await Self.createItem(client, name: String(repeating: Self.family, count: 29)).expectProblem(422)

            // The customer's name (limit 100) through sign-up's rule and the settings route.
            let (_, token) = try await signedInCustomer(db)
            let long = String(repeating: Self.decomposedE, count: 51)
            let patched = try await client.send(.patch, "/v1/me", json: #"{"name":"\#(long)"}"#, token: token)
            try patched.expectProblem(422)
            #expect(patched.fieldNames == ["name"])
            let fits = String(repeating: Self.decomposedE, count: 50)
            #expect(try await client.send(.patch, "/v1/me", json: #"{"name":"\#(fits)"}"#, token: token).status == .ok)
        }
    }

    @Test func anyNameIsCreatedOrRefusedByTheSameCountNeverA500() async throws {
        try await withApp { client, _ in
            let pieces = Gen<String>.oneOf(
                Gen.always("a").eraseToAnySequence(), Gen.always(Self.decomposedE).eraseToAnySequence(),
                Gen.always(Self.family).eraseToAnySequence(), Gen.always(" ").eraseToAnySequence(),
                Gen.always("\u{3000}").eraseToAnySequence(), Gen.always("日本").eraseToAnySequence())
            let names = pieces.array(of: 0...120).map { $0.joined() }
            await propertyCheck(count: 60, input: names) { name in
                let response = try await Self.createItem(client, name: name)
                let accepted = !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && name.unicodeScalars.count <= 200
                #expect(response.status == (accepted ? .created : .unprocessableContent), "\(name.unicodeScalars.count) code points")
            }
        }
    }
}
