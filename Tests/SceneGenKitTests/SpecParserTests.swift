import SceneGenKit
import Testing

@Suite("scenegen: spec parsing and validation")
struct SpecParserTests {
    static let wishlist = """
        scene: Wishlist
        summary: Items a customer keeps for later.
        entity:
          name: WishlistEntry
          table: wishlist_entries
          owner: customer
          fields:
            - { name: id, type: uuid, primary: true }
            - { name: item_id, type: uuid, references: items }
            - { name: note, type: string, max: 200, optional: true }
            - { name: priority, type: int, min: 1, max: 5, default: 3 }
            - { name: created_at, type: timestamp, default: now, readonly: true }
        useCases:
          - { name: add,    kind: create, route: "POST /v1/wishlist",          auth: customer }
          - { name: list,   kind: list,   route: "GET /v1/wishlist",           auth: customer, page: 50 }
          - { name: show,   kind: get,    route: "GET /v1/wishlist/{id}",      auth: customer }
          - { name: edit,   kind: update, route: "PATCH /v1/wishlist/{id}",    auth: customer }
          - { name: remove, kind: delete, route: "DELETE /v1/wishlist/{id}",   auth: customer }
          - { name: share,  kind: custom, route: "POST /v1/wishlist/{id}/share", auth: customer, gateways: [ShareLinks], outcomes: [{ name: shared, status: 204 }] }
        gateways:
          - { name: ShareLinks, kind: http, base_url_env: SHARE_API_URL, operations: [{ name: ping, request: "GET /ping" }] }
        """

    func errors(_ text: String) -> [String] {
        SpecParser.parse(text, file: "Specs/T.yml").diagnostics.map(\.description)
    }

    @Test func theIssuesExampleParses() throws {
        let (spec, diagnostics) = SpecParser.parse(Self.wishlist, file: "Specs/Wishlist.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let wishlist = try #require(spec)
        let entity = try #require(wishlist.entity)
        #expect(wishlist.scene == "Wishlist" && entity.owner == "customer")
        #expect(entity.fields.map(\.name) == ["id", "item_id", "note", "priority", "created_at"])
        #expect(entity.fields[3].defaultValue == .int(3) && entity.fields[3].max == 5)
        #expect(entity.fields[4].defaultValue == .now && entity.fields[4].readonly)
        #expect(wishlist.useCases.map(\.kind) == [.create, .list, .get, .update, .delete, .custom])
        #expect(wishlist.useCases[1].page == 50)
        #expect(wishlist.useCases[5].route.parameters == ["id"] && wishlist.useCases[5].gateways == ["ShareLinks"])
        #expect(wishlist.gateways.map(\.name) == ["ShareLinks"] && wishlist.gateways[0].baseURLEnv == "SHARE_API_URL")
    }

    @Test func currencyShopMarksAMoneyFieldAndNothingElse() throws {
        let note = "{ name: note, type: string, max: 200, optional: true }"
        let priced = Self.wishlist.replacingOccurrences(
            of: note, with: note + "\n    - { name: budget, type: money, optional: true, currency: shop }")
        let (spec, diagnostics) = SpecParser.parse(priced, file: "Specs/T.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(try #require(spec?.entity).fields.map(\.shopCurrency) == [false, false, false, true, false, false])
        let misplaced = errors(Self.wishlist.replacingOccurrences(of: note, with: "{ name: note, type: string, max: 200, currency: shop }"))
        #expect(misplaced == ["Specs/T.yml:10:55: error: currency: shop belongs to money fields"], "\(misplaced)")
        let other = errors(priced.replacingOccurrences(of: "currency: shop", with: "currency: USD"))
        #expect(other.count == 1 && other[0].hasSuffix("error: currency takes one value: shop"), "\(other)")
        let unwritten = errors(priced.replacingOccurrences(of: "optional: true, currency: shop", with: "readonly: true, currency: shop"))
        #expect(unwritten.contains { $0.hasSuffix("a readonly field is written by none") }, "\(unwritten)")
        // The checks take the shop's currency as `shopCurrency`: no field or port may take the name.
        let taken = errors(
            priced.replacingOccurrences(of: note, with: "{ name: shop_currency, type: string, max: 3 }")
                .replacingOccurrences(of: "useCases:", with: "ports:\n  - { name: shop_currency, type: Currency, value: true }\nuseCases:"))
        #expect(
            taken.contains {
                $0.hasSuffix("field name 'shop_currency' is taken by the shop's currency, which currency: shop checks against")
            }, "\(taken)")
        #expect(taken.contains { $0.hasSuffix("port name 'shop_currency' is taken by the scene's own shop_currency") }, "\(taken)")
    }

    @Test func yamlSyntaxErrorsHaveLineAndColumn() {
        let found = errors("scene: [Wishlist\nsummary: x\n")
        #expect(found.count == 1)
        #expect(found[0].hasPrefix("Specs/T.yml:3:1: error: YAML syntax:") || found[0].hasPrefix("Specs/T.yml:2:"), "\(found)")
    }

    @Test func everyProblemIsReportedAtOnceWithItsPosition() {
        let text = Self.wishlist
            .replacingOccurrences(
                of: "{ name: note, type: string, max: 200, optional: true }", with: "{ name: note, type: strng, colour: red }"
            )
            .replacingOccurrences(of: "min: 1, max: 5", with: "min: 9, max: 5")
            .replacingOccurrences(of: "name: show,", with: "name: add,")
            .replacingOccurrences(of: "gateways: [ShareLinks]", with: "gateways: [Mailer]")
            .replacingOccurrences(of: "{ name: remove,", with: "{ name: class,")
        let found = errors(text)
        #expect(
            found.contains(
                "Specs/T.yml:10:34: error: unknown key 'colour' in field (allowed: name, type, values, enum_type, primary, optional, default, readonly, admin_only, one_per_owner, unique, references, min, max, example, currency)"
            ), "\(found)")
        #expect(
            found.contains(
                "Specs/T.yml:10:27: error: unknown type 'strng' (known: uuid, string, text, int, bigint, bool, money, timestamp, number, enum)"
            ))
        #expect(found.contains { $0.hasPrefix("Specs/T.yml:11:") && $0.contains("min (9) is greater than max (5)") }, "\(found)")
        #expect(found.contains("Specs/T.yml:16:5: error: duplicate use case name 'add'"))
        #expect(found.contains { $0.hasPrefix("Specs/T.yml:19:101:") && $0.contains("gateway 'Mailer' is not declared") }, "\(found)")
        #expect(found.contains("Specs/T.yml:18:13: error: use case name 'class' is a Swift keyword"))
        // The default 3 no longer fits the bounds 9...5 either.
        #expect(found.contains { $0.hasPrefix("Specs/T.yml:11:") && $0.contains("default breaks the field's own bounds") }, "\(found)")
        #expect(found.count == 7, "\(found)")
    }

    @Test func routesMustParseAndNotClash() {
        let bad = Self.wishlist.replacingOccurrences(of: "\"GET /v1/wishlist/{id}\"", with: "\"FETCH wishlist\"")
        #expect(errors(bad).contains { $0.contains("route 'FETCH wishlist' must be 'METHOD /path'") })
        let clash = Self.wishlist.replacingOccurrences(of: "\"POST /v1/wishlist/{id}/share\"", with: "\"POST /v1/wishlist\"")
        #expect(errors(clash).contains { $0.contains("route POST /v1/wishlist clashes with POST /v1/wishlist of use case 'add'") })
        // A fixed segment beside a parameter is no clash: the router tries the fixed one first.
        let beside = Self.wishlist.replacingOccurrences(
            of: "useCases:\n",
            with: "useCases:\n  - { name: cheapest, kind: custom, route: \"GET /v1/wishlist/cheapest\", auth: customer }\n")
        #expect(!errors(beside).contains { $0.contains("clashes") }, "\(errors(beside))")
        let shape = Self.wishlist.replacingOccurrences(of: "\"DELETE /v1/wishlist/{id}\"", with: "\"POST /v1/wishlist/{id}/remove\"")
        #expect(errors(shape).contains { $0.contains("a delete use case is routed with DELETE, not POST") })
    }

    @Test func namesFollowTheirConventions() {
        let text = Self.wishlist
            .replacingOccurrences(of: "scene: Wishlist", with: "scene: wish_list")
            .replacingOccurrences(of: "name: item_id", with: "name: itemId")
        let found = errors(text)
        #expect(found.contains { $0.contains("scene 'wish_list' must be UpperCamelCase") })
        #expect(found.contains { $0.contains("field name 'itemId' must be snake_case") })
    }

    @Test func missingPiecesAreNamed() {
        let found = errors("scene: Empty\nentity:\n  name: E\n  table: es\n  fields: []\n")
        #expect(found.contains("Specs/T.yml:1:1: error: the spec is missing 'summary'"))
        #expect(found.contains("Specs/T.yml:1:1: error: the spec is missing 'useCases'"))
        #expect(found.contains { $0.contains("entity needs a field with 'primary: true'") })
    }

    @Test func fieldRulesAreChecked() {
        let text = Self.wishlist.replacingOccurrences(
            of: "- { name: created_at, type: timestamp, default: now, readonly: true }",
            with:
                "- { name: state, type: enum }\n    - { name: total, type: money, default: 5 }\n    - { name: flag, type: bool, min: 1 }\n    - { name: body, type: string }"
        )
        let found = errors(text)
        #expect(found.contains { $0.contains("an enum field needs 'values'") })
        #expect(found.contains { $0.contains("a money field takes no default") })
        #expect(found.contains { $0.contains("min and max apply to") })
        #expect(found.contains { $0.contains("a string field needs 'max'") })
    }

    /// Enum values as the outside world writes them are kept verbatim; the Swift case name is
    /// derived, and two values that would make one case name are refused.
    @Test func enumValuesAreKeptVerbatimAndTheirCaseNamesDerived() throws {
        func withStatus(_ values: String) -> String {
            Self.wishlist.replacingOccurrences(
                of: "- { name: created_at,", with: "- { name: status, type: enum, values: \(values) }\n    - { name: created_at,")
        }
        let outside = withStatus("[JP, US, in-stock, IN_STOCK2, PayPal, 3ds]")
        let (spec, diagnostics) = SpecParser.parse(outside, file: "Specs/T.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let status = try #require(spec?.entity?.fields.first { $0.name == "status" })
        #expect(status.type == .enumeration(["JP", "US", "in-stock", "IN_STOCK2", "PayPal", "3ds"]))
        #expect(
            ["JP", "US", "in-stock", "IN_STOCK2", "PayPal", "3ds", "image/jpeg"].map(Names.caseName) == [
                "jp", "us", "inStock", "inStock2", "payPal", "value3ds", "imageJpeg",
            ])
        #expect(errors(withStatus("[wanted, image/jpeg, image/png]")).isEmpty)
        #expect(
            errors(withStatus("[wanted, in-stock, in_stock]")).contains {
                $0.contains("enum values 'in-stock' and 'in_stock' both become the Swift case 'inStock'")
            })
        #expect(errors(withStatus("[wanted, JP, JP]")).contains { $0.contains("duplicate enum value 'JP'") })
        #expect(!errors(withStatus("[wanted, \"\"]")).isEmpty)
        for bad in ["\"-x\"", "\"/x\"", "\"a+b\"", "\"a b\"", "\"it's\"", "\"é\"", String(repeating: "a", count: 64)] {
            #expect(errors(withStatus("[wanted, \(bad)]")).contains { $0.contains("must be 1 to 63 ASCII letters, digits") }, "\(bad)")
        }
    }

    /// CRUD routes nest under one parent: a readonly, required uuid reference named by the
    /// route's other parameter; every CRUD route of the scene shares it.
    @Test func nestedRoutesShareOneParentThatIsAReadonlyReference() {
        // Without the custom use case, whose route parameters are its own input.
        let crud = Self.wishlist.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("name: share") }
            .joined(separator: "\n")
        let nested =
            crud
            .replacingOccurrences(
                of: "{ name: item_id, type: uuid, references: items }",
                with: "{ name: item_id, type: uuid, references: items, readonly: true }"
            )
            .replacingOccurrences(of: "/v1/wishlist", with: "/v1/items/{item_id}/wishes")
        #expect(errors(nested).isEmpty, "\(errors(nested))")
        let (spec, _) = SpecParser.parse(nested, file: "Specs/T.yml")
        #expect(spec?.parent?.name == "item_id")

        let writable = nested.replacingOccurrences(of: "references: items, readonly: true", with: "references: items")
        #expect(errors(writable).contains { $0.contains("'item_id' nests the routes") && $0.contains("readonly: true") })
        let unknown = nested.replacingOccurrences(of: "{item_id}", with: "{shop_id}")
        #expect(errors(unknown).contains { $0.contains("{shop_id} in POST /v1/items/{shop_id}/wishes names no field") })
        let mixed = nested.replacingOccurrences(of: "GET /v1/items/{item_id}/wishes/{id}", with: "GET /v1/wishes/{id}")
        #expect(errors(mixed).contains { $0.contains("nested under one parent") && $0.contains("GET /v1/wishes/{id} does not") })
        let two = nested.replacingOccurrences(
            of: "POST /v1/items/{item_id}/wishes\"", with: "POST /v1/shops/{shop_id}/items/{item_id}/wishes\"")
        #expect(errors(two).contains { $0.contains("nested under one parent at most, not {shop_id} and {item_id}") })
        let listByID = nested.replacingOccurrences(
            of: "GET /v1/items/{item_id}/wishes\"", with: "GET /v1/items/{item_id}/wishes/{id}/all\"")
        #expect(errors(listByID).contains { $0.contains("a list route takes no {id}") })
    }

    /// A customer's rows: anyone may list and get them, staff may read and change them, only
    /// the owner creates them, and nobody writes them over a public route.
    @Test func ownedRowsArePublicToReadAndStaffToChangeButOwnedToWrite() {
        let shared = Self.wishlist
            .replacingOccurrences(
                of: "route: \"GET /v1/wishlist\",           auth: customer", with: "route: \"GET /v1/wishlist\", auth: public"
            )
            .replacingOccurrences(
                of: "route: \"PATCH /v1/wishlist/{id}\",    auth: customer", with: "route: \"PATCH /v1/wishlist/{id}\", auth: admin")
        #expect(errors(shared).isEmpty, "\(errors(shared))")
        let publicDelete = Self.wishlist.replacingOccurrences(
            of: "route: \"DELETE /v1/wishlist/{id}\",   auth: customer", with: "route: \"DELETE /v1/wishlist/{id}\", auth: public")
        #expect(errors(publicDelete).contains { $0.contains("a public route only lists or gets them") })
        let adminCreate = Self.wishlist.replacingOccurrences(
            of: "route: \"POST /v1/wishlist\",          auth: customer", with: "route: \"POST /v1/wishlist\", auth: admin")
        #expect(errors(adminCreate).contains { $0.contains("an admin create could not say whose it is") })
    }

    /// Two-column uniqueness: fields (or the owner's customer_id), two or more, none money or
    /// unique alone.
    @Test func uniqueGroupsNameTwoOrMoreFields() {
        func with(_ unique: String) -> String {
            Self.wishlist.replacingOccurrences(of: "  owner: customer\n", with: "  owner: customer\n  unique: \(unique)\n")
        }
        #expect(errors(with("[[customer_id, item_id]]")).isEmpty, "\(errors(with("[[customer_id, item_id]]")))")
        #expect(errors(with("[[item_id]]")).contains { $0.contains("a unique group lists two or more different fields") })
        #expect(errors(with("[[item_id, item_id]]")).contains { $0.contains("a unique group lists two or more different fields") })
        #expect(errors(with("[[customer_id, shop_id]]")).contains { $0.contains("unique group names 'shop_id', which is no field") })
        #expect(errors(with("[[customer_id, id]]")).contains { $0.contains("'id' cannot be in a unique group: it is unique alone") })
    }

    /// A list filters by equality on fields a query parameter can hold.
    @Test func listFiltersNameFieldsAQueryCanHold() {
        func with(_ filters: String) -> String {
            Self.wishlist.replacingOccurrences(of: "auth: customer, page: 50 }", with: "auth: customer, page: 50, filters: \(filters) }")
        }
        #expect(errors(with("[item_id, priority]")).isEmpty, "\(errors(with("[item_id, priority]")))")
        #expect(errors(with("[shop]")).contains { $0.contains("filter 'shop' names no field of the entity") })
        #expect(errors(with("[created_at]")).contains { $0.contains("filter 'created_at' is a timestamp field") })
        #expect(errors(with("[priority, priority]")).contains { $0.contains("duplicate filter 'priority'") })
        let onGet = Self.wishlist.replacingOccurrences(
            of: "route: \"GET /v1/wishlist/{id}\",      auth: customer }",
            with: "route: \"GET /v1/wishlist/{id}\", auth: customer, filters: [note] }")
        #expect(errors(onGet).contains { $0.contains("filters apply to list use cases only") })
    }

    /// A field that does not read is reported once: filters and unique groups naming the other
    /// fields are not also "no field" (the entity was dropped, and every filter was reported).
    @Test func aFieldThatDoesNotReadLeavesTheNamesOfTheOthersAlone() {
        let broken = Self.wishlist
            .replacingOccurrences(of: "{ name: note, type: string, max: 200, optional: true }", with: "{ name: note, type: date }")
            .replacingOccurrences(of: "auth: customer, page: 50 }", with: "auth: customer, page: 50, filters: [item_id, priority] }")
            .replacingOccurrences(of: "  owner: customer\n", with: "  owner: customer\n  unique: [[customer_id, item_id]]\n")
        let found = errors(broken)
        #expect(found.contains { $0.contains("unknown type 'date'") }, "\(found)")
        #expect(!found.contains { $0.contains("names no field") || $0.contains("which is no field") }, "\(found)")
    }

    @Test func whatGeneratedCodeNeedsIsCheckedUnlessTheSceneIsHandwritten() {
        let composite = Self.wishlist.replacingOccurrences(
            of: "{ name: item_id, type: uuid, references: items }", with: "{ name: item_id, type: uuid, primary: true }")
        #expect(errors(composite).contains { $0.contains("a composite key needs code: handwritten") })
        let textKey = Self.wishlist.replacingOccurrences(
            of: "{ name: id, type: uuid, primary: true }", with: "{ name: id, type: text, primary: true }")
        #expect(errors(textKey).contains { $0.contains("the primary field of a generated scene must be of type uuid") })
        let handwritten = composite.replacingOccurrences(of: "summary:", with: "code: handwritten\nsummary:")
        #expect(errors(handwritten).isEmpty)
        let noCreatedAt = Self.wishlist.replacingOccurrences(
            of: "{ name: created_at, type: timestamp, default: now, readonly: true }", with: "{ name: seen, type: bool }")
        #expect(errors(noCreatedAt).contains { $0.contains("a list pages newest first by created_at") })
        let readonlyWithoutDefault = Self.wishlist.replacingOccurrences(
            of: "{ name: priority, type: int, min: 1, max: 5, default: 3 }", with: "{ name: priority, type: int, readonly: true }")
        #expect(errors(readonlyWithoutDefault).contains { $0.contains("a readonly field needs a default or optional: true") })
        #expect(
            errors(Self.wishlist.replacingOccurrences(of: "summary:", with: "code: magic\nsummary:")).contains {
                $0.contains("code must be 'generated' (the default) or 'handwritten'")
            })
    }
}
