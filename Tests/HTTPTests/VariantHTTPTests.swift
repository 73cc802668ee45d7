import Domain
import Foundation
import Gateway
import HTTPTestSupport
import HummingbirdTesting
import TestSupport
import Testing

/// Items with several variants end to end (issue 15): found with their options, carted by
/// variant, bought with each variant's stock reserved on its own, refunded by variant.
@Suite("Variants over HTTP")
struct VariantHTTPTests {
    /// A T-shirt in S and M (navy), `small` and `medium` units, straight through the store (the
    /// admin routes for variants come later).
    static func shirt(_ db: TestDatabase, small: Int, medium: Int) async throws -> Item {
        let yen = { Money(amount: $0, currency: Currency("JPY")!) }
        return try await PostgresItemStore(database: db.pool).create(
            id: UUID(),
            draft: ItemDraft(
                sku: "TEE", name: "T-shirt", description: "Cotton", category: "apparel",
                options: [ItemOption(name: "size", values: ["S", "M"]), ItemOption(name: "colour", values: ["navy"])],
                variants: [
                    VariantDraft(
                        id: UUID(), sku: "TEE-S", options: [.init(name: "size", value: "S"), .init(name: "colour", value: "navy")],
                        price: yen(2500), stock: small),
                    VariantDraft(
                        id: UUID(), sku: "TEE-M", options: [.init(name: "size", value: "M"), .init(name: "colour", value: "navy")],
                        price: yen(2700), stock: medium),
                ]),
            createdAt: Date())
    }

    static func stock(_ db: TestDatabase, variant: UUID) async throws -> Int {
        try await db.pool.query("SELECT stock FROM item_variants WHERE id = $1", variant).rows[0].decode("stock")
    }

    @Test func fiftyCheckoutsForTheLastUnitsOfOneVariantWhileItsSiblingSellsFreely() async throws {
        try await withApp { client, db in
            let shirt = try await Self.shirt(db, small: 5, medium: 25)
            let (small, medium) = (shirt.variants[0].id, shirt.variants[1].id)
            var carts: [(token: String, variant: UUID)] = []
            for index in 0..<50 {
                let (_, token) = try await signedInCustomer(db)
                let variant = index.isMultiple(of: 2) ? small : medium
                let carted = try await client.send(.put, "/v1/cart/variants/\(variant)", json: #"{"quantity": 1}"#, token: token)
                #expect(carted.status == .ok)
                carts.append((token, variant))
            }
            let results = try await withThrowingTaskGroup(of: (UUID, Int).self) { group in
                for cart in carts {
                    group.addTask {
                        (cart.variant, Int(try await CheckoutHTTPTests.checkout(client, cart.token, key: "race").status.code))
                    }
                }
                return try await group.reduce(into: [(UUID, Int)]()) { $0.append($1) }
            }
            let smallStatuses = results.filter { $0.0 == small }.map(\.1)
            let mediumStatuses = results.filter { $0.0 == medium }.map(\.1)
            #expect(smallStatuses.filter { $0 == 201 }.count == 5 && smallStatuses.filter { $0 == 409 }.count == 20, "\(smallStatuses)")
            #expect(mediumStatuses.allSatisfy { $0 == 201 }, "the sibling sells freely: \(mediumStatuses)")
            #expect(try await Self.stock(db, variant: small) == 0)
            #expect(try await Self.stock(db, variant: medium) == 0)
            let taken: [Int] = try await db.pool.query(
                "SELECT delta FROM stock_movements WHERE variant_id = $1 AND reason = 'ordered'", small
            ).rows.map { try $0.decode("delta") }
            #expect(taken == Array(repeating: -1, count: 5), "each unit sold is one recorded movement")
        }
    }

    @Test func foundCartedByVariantBoughtAndRefunded() async throws {
        try await withApp { client, db in
            let shirt = try await Self.shirt(db, small: 3, medium: 4)
            let medium = shirt.variants[1]
            let shown = try await client.send(.get, "/v1/items/\(shirt.id)").json
            #expect((shown["price"] as? [String: Any])?["amount"] as? Int == 2500, "an item's price is its lowest")
            #expect(shown["stock"] as? Int == 7)
            let options = try #require(shown["options"] as? [[String: Any]])
            #expect(options.map { $0["name"] as? String } == ["size", "colour"])
            let variants = try #require(shown["variants"] as? [[String: Any]])
            #expect(variants.map { $0["sku"] as? String } == ["TEE-S", "TEE-M"])
            #expect(
                variants[1]["options"] as? [[String: String]] == [["name": "size", "value": "M"], ["name": "colour", "value": "navy"]])

            let (_, token) = try await signedInCustomer(db)
            let byItem = try await client.send(.put, "/v1/cart/items/\(shirt.id)", json: #"{"quantity": 1}"#, token: token)
            let problem = try byItem.expectProblem(409)
            #expect(problem["variant_ids"] as? [String] == shirt.variants.map { $0.id.uuidString.lowercased() })
            let cart = try await client.send(.put, "/v1/cart/variants/\(medium.id)", json: #"{"quantity": 2}"#, token: token).json
            let line = try #require((cart["lines"] as? [[String: Any]])?.first)
            #expect(line["variant_id"] as? String == medium.id.uuidString.lowercased() && line["sku"] as? String == "TEE-M")
            #expect(line["item_id"] as? String == shirt.id.uuidString.lowercased())
            let tooMany = try await client.send(.put, "/v1/cart/variants/\(medium.id)", json: #"{"quantity": 5}"#, token: token)
            #expect(try tooMany.expectProblem(409)["available"] as? Int == 4)

            let order = try await CheckoutHTTPTests.checkout(client, token, key: "tee").json
            let ordered = try #require((order["lines"] as? [[String: Any]])?.first)
            #expect(ordered["variant_id"] as? String == medium.id.uuidString.lowercased() && ordered["sku"] as? String == "TEE-M")
            #expect(ordered["options"] as? [[String: String]] == [["name": "size", "value": "M"], ["name": "colour", "value": "navy"]])
            #expect(try await Self.stock(db, variant: medium.id) == 2)
            #expect(try await Self.stock(db, variant: shirt.variants[0].id) == 3)

            // The staff cannot set one price or stock for an item whose variants have their own.
            let patch = try await client.send(
                .patch, "/v1/admin/items/\(shirt.id)", json: #"{"price": {"amount": 1}}"#, token: adminToken)
            #expect(try patch.expectProblem(409)["count"] as? Int == 2)

            let orderID = try #require(order["id"] as? String)
            let refund = try await RefundHTTPTests.refund(
                client, orderID, #"{"reason": "other", "restock": true, "lines": [{"variant_id": "\#(medium.id)", "quantity": 1}]}"#,
                key: "r1")
            #expect(refund.status == .created, "\(String(buffer: refund.body))")
            #expect(try await Self.stock(db, variant: medium.id) == 3, "the refunded unit comes back to its variant")
            #expect(try await Self.stock(db, variant: shirt.variants[0].id) == 3)
        }
    }

    /// A T-shirt in 3 sizes and 2 colours, made in one request by the staff.
    static let tee = """
        {"sku": "TEE", "name": "T-shirt", "category": "apparel",
         "options": [{"name": "size", "values": ["S", "M", "L"]}, {"name": "colour", "values": ["navy", "white"]}],
         "variants": [
        """
        + ["S", "M", "L"].flatMap { size in
            ["navy", "white"].map { colour in
                #"{"sku": "TEE-\#(size)-\#(colour.uppercased())", "price": {"amount": \#(size == "L" ? 2800 : 2500), "currency": "JPY"}, "stock": 3, "options": [{"name": "size", "value": "\#(size)"}, {"name": "colour", "value": "\#(colour)"}]}"#
            }
        }.joined(separator: ", ") + "]}"

    @Test func theStaffMakeAnItemOfSixVariantsInOneRequestAndManageThem() async throws {
        try await withApp { client, db in
            let created = try await client.send(.post, "/v1/admin/items", json: Self.tee, token: adminToken)
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let item = try created.json
            let id = try #require(item["id"] as? String)
            let variants = try #require(item["variants"] as? [[String: Any]])
            #expect(variants.count == 6 && item["stock"] as? Int == 18)
            #expect((item["price"] as? [String: Any])?["amount"] as? Int == 2500)

            // Every rule broken at once, each error named by its place.
            let bad = """
                {"sku": "BAD", "name": "Bad", "category": "apparel", "price": {"amount": 1, "currency": "JPY"},
                 "options": [{"name": "Size", "values": ["S", "S"]}],
                 "variants": [{"sku": "B-1", "price": {"amount": 1, "currency": "JPY"}, "stock": 1, "options": [{"name": "size", "value": "S"}]},
                              {"sku": "B-1", "price": {"amount": 1, "currency": "USD"}, "stock": 1, "options": [{"name": "colour", "value": "red"}]}]}
                """
            let refused = try await client.send(.post, "/v1/admin/items", json: bad, token: adminToken)
            try refused.expectProblem(422)
            #expect(
                Set(refused.fieldNames) == [
                    "price", "options[0].name", "options[0].values[1]", "variants[0].options[0].name", "variants[1].sku",
                    "variants[1].price.currency", "variants[1].options[0].name", "variants[1].options", "variants[0].options",
                ], "\(refused.fieldNames)")

            // A variant of a new size; its value joins the option.
            let xl =
                #"{"sku": "TEE-XL-NAVY", "price": {"amount": 3000, "currency": "JPY"}, "stock": 1, "options": [{"name": "size", "value": "XL"}, {"name": "colour", "value": "navy"}]}"#
            let added = try await client.send(.post, "/v1/admin/items/\(id)/variants", json: xl, token: adminToken)
            #expect(added.status == .created, "\(String(buffer: added.body))")
            let options = try #require(try added.json["options"] as? [[String: Any]])
            #expect(options[0]["values"] as? [String] == ["S", "M", "L", "XL"])
            let again = try await client.send(
                .post, "/v1/admin/items/\(id)/variants", json: xl.replacingOccurrences(of: "TEE-XL-NAVY", with: "TEE-XL-NAVY-2"),
                token: adminToken)
            try again.expectProblem(409)

            // Stock by delta, never below zero, kept as history.
            let small = try #require(variants[0]["id"] as? String)
            let taken = try await client.send(
                .post, "/v1/admin/variants/\(small)/stock", json: #"{"delta": -2, "reason": "damaged in the shop"}"#, token: adminToken)
            #expect(try taken.json["stock_after"] as? Int == 1)
            let short = try await client.send(
                .post, "/v1/admin/variants/\(small)/stock", json: #"{"delta": -2, "reason": "lost"}"#, token: adminToken)
            #expect(try short.expectProblem(409)["available"] as? Int == 1)
            let zero = try await client.send(
                .post, "/v1/admin/variants/\(small)/stock", json: #"{"delta": 0, "reason": "x"}"#, token: adminToken)
            try zero.expectProblem(422)
            let first = try await client.send(.get, "/v1/admin/variants/\(small)/stock-movements?limit=1", token: adminToken).json
            #expect((first["data"] as? [[String: Any]])?.first?["reason"] as? String == "damaged in the shop")
            let cursor = try #require(first["next_cursor"] as? String)
            let rest = try await client.send(.get, "/v1/admin/variants/\(small)/stock-movements?cursor=\(cursor)", token: adminToken).json
            #expect((rest["data"] as? [[String: Any]])?.map { $0["reason"] as? String } == ["created"] && rest["next_cursor"] is NSNull)
            let forged = try await client.send(.get, "/v1/admin/variants/\(small)/stock-movements?cursor=abc", token: adminToken)
            try forged.expectProblem(400)
            // Never past the most a variant holds: before, two large deltas overflowed the column (a 500).
            let over = try await client.send(
                .post, "/v1/admin/variants/\(small)/stock", json: #"{"delta": 1000000000, "reason": "miscount"}"#, token: adminToken)
            let limit = try over.expectProblem(409)
            #expect(limit["type"] as? String == "/problems/stock-limit" && limit["available"] as? Int == 1 && over.fieldNames == ["delta"])
            let full = try await client.send(
                .post, "/v1/admin/variants/\(small)/stock", json: #"{"delta": 999999999, "reason": "delivery"}"#, token: adminToken)
            #expect(try full.json["stock_after"] as? Int == 1_000_000_000)
            let emptied = try await client.send(
                .post, "/v1/admin/variants/\(small)/stock", json: #"{"delta": -999999999, "reason": "recount"}"#, token: adminToken)
            #expect(try emptied.json["stock_after"] as? Int == 1)

            // Several variants repriced in one request, or none: an unknown id undoes the rest.
            let large = try #require(variants[4]["id"] as? String)
            let xlarge = try #require(variants[5]["id"] as? String)
            let both =
                #"{"variants": [{"id": "\#(large)", "price": {"amount": 2600, "currency": "JPY"}}, {"id": "\#(xlarge)", "sku": "TEE-L-W"}]}"#
            let patched = try await client.send(.patch, "/v1/admin/items/\(id)", json: both, token: adminToken)
            #expect(patched.status == .ok, "\(String(buffer: patched.body))")
            let after = try #require(try patched.json["variants"] as? [[String: Any]])
            #expect(after.map { $0["sku"] as? String }.contains("TEE-L-W"))
            let unknown = #"{"variants": [{"id": "\#(large)", "sku": "NEVER"}, {"id": "\#(UUID())", "sku": "X"}]}"#
            let refusedPatch = try await client.send(.patch, "/v1/admin/items/\(id)", json: unknown, token: adminToken)
            try refusedPatch.expectProblem(422)
            #expect(refusedPatch.fieldNames == ["variants[1].id"])
            let unchanged = try await client.send(.get, "/v1/items/\(id)").json
            #expect(!((unchanged["variants"] as? [[String: Any]])?.contains { $0["sku"] as? String == "NEVER" } ?? true), "all or none")
            let clash = #"{"variants": [{"id": "\#(large)", "sku": "TEE-S-NAVY"}]}"#
            let takenPatch = try await client.send(.patch, "/v1/admin/items/\(id)", json: clash, token: adminToken)
            #expect(try takenPatch.expectProblem(409)["sku"] as? String == "TEE-S-NAVY")
            #expect(takenPatch.fieldNames == ["variants[0].sku"])

            // The options anew: values added and reordered; not a value a variant holds dropped, not a
            // name changed.
            let reordered =
                #"{"options": [{"name": "size", "values": ["XS", "S", "M", "L", "XL"]}, {"name": "colour", "values": ["white", "navy"]}]}"#
            let optioned = try await client.send(.patch, "/v1/admin/items/\(id)", json: reordered, token: adminToken)
            #expect((try optioned.json["options"] as? [[String: Any]])?.first?["values"] as? [String] == ["XS", "S", "M", "L", "XL"])
            let dropped = #"{"options": [{"name": "size", "values": ["M", "L", "XL"]}, {"name": "colour", "values": ["white", "navy"]}]}"#
            let droppedPatch = try await client.send(.patch, "/v1/admin/items/\(id)", json: dropped, token: adminToken)
            try droppedPatch.expectProblem(422)
            #expect(droppedPatch.fieldNames == ["options[0].values"])
            let renamed =
                #"{"options": [{"name": "sizing", "values": ["S", "M", "L", "XL"]}, {"name": "colour", "values": ["navy", "white"]}]}"#
            let renamedPatch = try await client.send(.patch, "/v1/admin/items/\(id)", json: renamed, token: adminToken)
            try renamedPatch.expectProblem(422)
            #expect(renamedPatch.fieldNames.contains("options"))

            // A price of the variant's, in the item's currency only; a removal; never the last.
            let medium = try #require(variants[2]["id"] as? String)
            let repriced = try await client.send(
                .patch, "/v1/admin/variants/\(medium)", json: #"{"price": {"amount": 100}}"#, token: adminToken)
            #expect((try repriced.json["price"] as? [String: Any])?["amount"] as? Int == 100)
            let dollars = try await client.send(
                .patch, "/v1/admin/variants/\(medium)", json: #"{"price": {"amount": 1, "currency": "USD"}}"#, token: adminToken)
            #expect(try dollars.expectProblem(422)["errors"] != nil)
            let removed = try await client.send(.delete, "/v1/admin/variants/\(medium)", token: adminToken)
            #expect((try removed.json["variants"] as? [[String: Any]])?.count == 6)
            try await client.send(.delete, "/v1/admin/variants/\(medium)", token: adminToken).expectProblem(404)
            #expect(try await db.pool.query("SELECT 1 FROM item_variants WHERE id = $1", UUID(uuidString: medium)!).rows.count == 1)
        }
    }

    @Test func theTShirtIsFoundBySizeStockAndPriceSortedAndCounted() async throws {
        try await withApp { client, _ in
            let created = try await client.send(.post, "/v1/admin/items", json: Self.tee, token: adminToken)
            #expect(created.status == .created)
            let mug = #"{"sku":"MUG","name":"Mug","category":"kitchen","price":{"amount":1200,"currency":"JPY"},"stock":0}"#
            #expect(try await client.send(.post, "/v1/admin/items", json: mug, token: adminToken).status == .created)

            func skus(_ query: String) async throws -> [String] {
                let page = try await client.send(.get, "/v1/items?\(query)")
                #expect(page.status == .ok, "\(query): \(String(buffer: page.body))")
                return (try page.json["data"] as? [[String: Any]])?.compactMap { $0["sku"] as? String } ?? []
            }
            #expect(try await skus("sort=price_asc") == ["MUG", "TEE"])
            #expect(try await skus("sort=price_desc") == ["TEE", "MUG"])
            #expect(try await skus("sort=name") == ["MUG", "TEE"], "Mug before T-shirt")
            #expect(try await skus("in_stock=true") == ["TEE"])
            #expect(try await skus("option.size=L&price_min=2600") == ["TEE"])
            #expect(try await skus("option[size]=L&price_max=2600") == [], "the L variants cost 2800")
            #expect(try await skus("option.size=XL") == [])
            #expect(try await skus("option%5Bsize%5D=XL") == [], "a name percent-encoded, as generated clients send it")
            #expect(try await skus("option%5Bsize%5D=L&price_min=2600") == ["TEE"])

            let mixed = try await client.send(.get, "/v1/items?sort=name&limit=1")
            let cursor = try #require(try mixed.json["next_cursor"] as? String)
            try await client.send(.get, "/v1/items?sort=rating&cursor=\(cursor)").expectProblem(422)
            let twice = try await client.send(.get, "/v1/items?option.size=S&option[size]=M")
            #expect(try twice.expectProblem(422)["errors"] != nil)
            try await client.send(.get, "/v1/items?option.size=S&option%5Bsize%5D=M").expectProblem(422)
            let unclosed = try await client.send(.get, "/v1/items?option%5Bsize=M")
            _ = try unclosed.expectProblem(422)
            #expect(unclosed.fieldNames == ["option"], "a name meant as the map, naming no key, is refused, not dropped")
            let nul = try await client.send(.get, "/v1/items?option.size=%00")
            _ = try nul.expectProblem(422)
            #expect(nul.fieldNames == ["option.size"])
            try await client.send(.get, "/v1/items?option.Size=S").expectProblem(422)
            try await client.send(.get, "/v1/items?price_min=5&price_max=1").expectProblem(422)

            let facets = try await client.send(.get, "/v1/items/facets?in_stock=true").json
            #expect(facets["total"] as? Int == 1)
            #expect((facets["categories"] as? [[String: Any]])?.map { $0["name"] as? String } == ["apparel"])
            let options = try #require(facets["options"] as? [[String: Any]])
            #expect(options.map { $0["name"] as? String } == ["colour", "size"])
            let sizes = try #require(options[1]["values"] as? [[String: Any]])
            #expect(Set(sizes.compactMap { $0["value"] as? String }) == ["S", "M", "L"] && sizes.allSatisfy { $0["count"] as? Int == 1 })
            let all = try await client.send(.get, "/v1/items/facets").json
            let bands = try #require(all["price_bands"] as? [[String: Any]])
            #expect(bands.map { $0["count"] as? Int } == [0, 2, 0, 0, 0, 0], "¥1,200 and from ¥2,500: both in ¥1,000 to ¥2,999")
            #expect(bands.last?["max"] is NSNull && bands.first?["min"] as? Int == 0)
        }
    }
}
