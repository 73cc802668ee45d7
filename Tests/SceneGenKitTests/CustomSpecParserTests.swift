import Foundation
import SceneGenKit
import Testing

@Suite("scenegen: typed custom use cases and gateway operations")
struct CustomSpecParserTests {
    /// The issue's example: a custom use case with typed input and outcomes over a typed gateway.
    static let share = """
        scene: Wishlist
        summary: Items a customer keeps for later.
        entity:
          name: WishlistEntry
          table: wishlist_entries
          owner: customer
          fields:
            - { name: id, type: uuid, primary: true }
            - { name: note, type: string, max: 200, optional: true }
        useCases:
          - name: share
            kind: custom
            route: "POST /v1/wishlist/{id}/share/{channel}"
            auth: customer
            gateways: [ShareLinks]
            input:
              path:
                - { name: channel, type: enum, values: [email, link] }
              query:
                - { name: dry_run, type: bool, optional: true }
              body:
                - { name: message, type: string, max: 200, optional: true }
                - { name: days, type: int, min: 1, max: 30, default: 7 }
            outcomes:
              - { name: shared, status: 201, body: [ { name: url, type: string }, { name: expires_at, type: timestamp } ] }
              - { name: found, status: 200, body: entity }
              - { name: not_found, status: 404 }
        gateways:
          - name: ShareLinks
            kind: http
            base_url_env: SHARE_API_URL
            operations:
              - name: create_link
                request: "POST /links/{owner_id}"
                input:
                  - { name: owner_id, type: uuid }
                  - { name: note, type: string, optional: true }
                output:
                  - { name: url, type: string }
                errors:
                  - { name: quota_exceeded, status: 429 }
        """

    func errors(_ text: String) -> [String] {
        SpecParser.parse(text, file: "Specs/T.yml").diagnostics.map(\.description)
    }

    func replacing(_ old: String, _ new: String) -> String {
        precondition(Self.share.contains(old), old)
        return Self.share.replacingOccurrences(of: old, with: new)
    }

    @Test func theIssuesExampleParsesIntoTypes() throws {
        let (spec, diagnostics) = SpecParser.parse(Self.share, file: "Specs/Wishlist.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let share = try #require(spec?.useCases.first)
        let input = try #require(share.input)
        #expect(input.path.map(\.name) == ["id", "channel"])
        #expect(input.path[0].type == .uuid, "{id} is a uuid unless declared")
        #expect(input.path[1].type == .enumeration(["email", "link"]))
        #expect(input.query.map(\.name) == ["dry_run"] && input.query[0].optional)
        #expect(input.body.map(\.name) == ["message", "days"])
        #expect(input.body[1].min == 1 && input.body[1].max == 30 && input.body[1].defaultValue == .int(7))
        #expect(share.outcomes.map(\.name) == ["shared", "found", "not_found"])
        #expect(share.outcomes.map(\.status) == [201, 200, 404])
        guard case .fields(let fields) = share.outcomes[0].body else {
            Issue.record("shared has a list of fields")
            return
        }
        #expect(fields.map(\.name) == ["url", "expires_at"] && fields[1].type == .timestamp)
        #expect(share.outcomes[1].body == .entity && share.outcomes[2].body == OutcomeSpec.Body.none)
        let operation = try #require(spec?.gateways.first?.operations.first)
        #expect(operation.route.description == "POST /links/{owner_id}" && operation.route.parameters == ["owner_id"])
        #expect(operation.input.map(\.name) == ["owner_id", "note"] && operation.output.map(\.name) == ["url"])
        #expect(operation.errors.map(\.name) == ["quota_exceeded"] && operation.errors[0].status == 429)
    }

    @Test func anUnknownInputTypeIsNamedAtItsPlace() {
        let found = errors(replacing("{ name: days, type: int,", "{ name: days, type: integer,"))
        #expect(
            found.contains(
                "Specs/T.yml:23:31: error: unknown type 'integer' (known: uuid, string, text, int, bigint, bool, money, timestamp, number, enum); did you mean int?"
            ),
            "\(found)")
    }

    @Test func numbersAnswerOnly() {
        let found = errors(replacing("{ name: days, type: int, min: 1, max: 30, default: 7 }", "{ name: days, type: number }"))
        #expect(found.contains { $0.contains("number is for answers only") }, "\(found)")
        #expect(errors(replacing("{ name: url, type: string }", "{ name: url, type: number }")).isEmpty)
    }

    @Test func aPartialMoneyIsAnOptionalMoney() {
        let partial = "{ name: price, type: money, optional: true, partial: true }"
        #expect(errors(replacing("{ name: message, type: string, max: 200, optional: true }", partial)).isEmpty)
        for bad in ["{ name: price, type: money, partial: true }", "{ name: price, type: int, optional: true, partial: true }"] {
            let found = errors(replacing("{ name: message, type: string, max: 200, optional: true }", bad))
            #expect(found.contains { $0.contains("partial marks an optional money input") }, "\(found)")
        }
    }

    @Test func listsOfValuesAndNestedObjectsAreBoundedBodyMembers() {
        let message = "{ name: message, type: string, max: 200, optional: true }"
        let nested = """
            { name: variants, type: VariantIn, list: true, max_items: 100, fields: [
                  { name: sku, type: string, max: 64 },
                  { name: tags, type: string, max: 20, list: true, max_items: 5 },
                  { name: options, type: OptionIn, list: true, fields: [ { name: value, type: string, max: 50 } ] } ] }
            """
        #expect(errors(replacing(message, "{ name: tags, type: string, max: 20, list: true, max_items: 5 }")).isEmpty)
        #expect(errors(replacing(message, "{ name: tags, type: string, max: 20, list: true, min_items: 5, max_items: 5 }")).isEmpty)
        #expect(errors(replacing(message, "{ name: v, type: V, list: true, min_items: 1, fields: [ { name: a, type: int } ] }")).isEmpty)
        #expect(errors(replacing(message, nested)).isEmpty, "\(errors(replacing(message, nested)))")
        let refusals = [
            ("{ name: tags, type: string, max: 20, max_items: 5 }", "max_items bounds a list"),
            ("{ name: tags, type: money, list: true }", "a list in a body holds"),
            ("{ name: tags, type: string, max: 20, list: true, default: a }", "a list takes no default"),
            ("{ name: tags, type: string, max: 20, list: true, max_items: 0 }", "max_items is a count"),
            ("{ name: tags, type: string, max: 20, min_items: 1 }", "min_items bounds a list"),
            ("{ name: tags, type: string, max: 20, list: true, min_items: 0 }", "min_items is a count"),
            ("{ name: tags, type: string, max: 20, list: true, min_items: 6, max_items: 5 }", "min_items 6 is more than max_items 5"),
            ("{ name: v, type: V, min_items: 1, fields: [ { name: a, type: int } ] }", "min_items bounds a list"),
            (
                "{ name: a, type: A, fields: [ { name: b, type: B, fields: [ { name: c, type: C, fields: [ { name: d, type: D, fields: [ { name: e, type: int } ] } ] } ] } ] }",
                "objects nest at most 3 deep"
            ),
        ]
        for (field, refusal) in refusals {
            let found = errors(replacing(message, field))
            #expect(found.contains { $0.contains(refusal) }, "\(field): \(found)")
        }
        let listInQuery = errors(replacing("{ name: dry_run, type: bool, optional: true }", "{ name: ids, type: uuid, list: true }"))
        #expect(listInQuery.contains { $0.contains("a list goes in the body") }, "\(listInQuery)")
    }

    @Test func aMapReadsPrefixedQueryParametersOnly() {
        let dryRun = "{ name: dry_run, type: bool, optional: true }"
        #expect(errors(replacing(dryRun, "{ name: option, type: string, max: 50, map: true, max_items: 3 }")).isEmpty)
        let refusals = [
            (dryRun, "{ name: option, type: string, max: 50, map: true, optional: true }", "a map is never absent"),
            (dryRun, "{ name: option, type: bool, map: true }", "a map holds string"),
            (
                "{ name: message, type: string, max: 200, optional: true }", "{ name: option, type: string, max: 50, map: true }",
                "a body field is not one"
            ),
        ]
        for (old, field, refusal) in refusals {
            let found = errors(replacing(old, field))
            #expect(found.contains { $0.contains(refusal) }, "\(field): \(found)")
        }
    }

    @Test func aLocationNamesAnIDOfTheAnswer() {
        func located(_ outcome: String) -> [String] {
            errors(replacing("{ name: found, status: 200, body: entity }", outcome))
        }
        #expect(located(#"{ name: found, status: 200, body: entity, location: "/v1/wishlist/{id}" }"#).isEmpty)
        #expect(
            located(#"{ name: found, status: 200, body: entity, location: "/v1/wishlist/{note}" }"#).contains {
                $0.contains("'{note}' in location \"/v1/wishlist/{note}\" must name a required uuid, int or bigint member")
            })
        #expect(located(#"{ name: found, status: 200, body: entity, location: "v1/x" }"#).contains { $0.contains("location is a path") })
        #expect(
            errors(replacing(#"{ name: not_found, status: 404 }"#, #"{ name: not_found, status: 404, location: "/x" }"#)).contains {
                $0.contains("location belongs to a success or a redirect")
            })
        #expect(
            errors(replacing(#"{ name: not_found, status: 404 }"#, #"{ name: gone, status: 303, location: "/x/{id}" }"#)).contains {
                $0.contains("location names members of the answer")
            })
    }

    @Test func headersRawBodiesAndBackgroundWorkAreChecked() {
        let query = "query:\n        - { name: dry_run, type: bool, optional: true }"
        let rawWithBody = errors(replacing(query, query + "\n      raw_body: { max: 1024 }"))
        #expect(rawWithBody.contains { $0.contains("a raw body is read unparsed: it takes no body fields") }, "\(rawWithBody)")
        let zero = errors(replacing(query, query + "\n      raw_body: { max: 0 }\n      headers: [ { name: x_key, type: money } ]"))
        #expect(zero.contains { $0.contains("raw_body max is a byte count from 1 to 67108864") }, "\(zero)")
        #expect(zero.contains { $0.contains("a header parameter cannot be of type money") }, "\(zero)")
        let background = errors(
            replacing("gateways: [ShareLinks]\n    input:", "gateways: [ShareLinks]\n    background: maybe\n    input:"))
        #expect(background.contains { $0.contains("background") }, "\(background)")
    }

    @Test func bodyObjectsAreNamedTypesOfPlainFields() throws {
        let message = "- { name: message, type: string, max: 200, optional: true }"
        func objects(_ object: String) -> [String] { errors(replacing(message, message + "\n        - " + object)) }
        let lines =
            "{ name: lines, type: ShareLine, list: true, fields: [ { name: item_id, type: uuid }, { name: count, type: int, min: 1 } ] }"
        #expect(objects(lines).isEmpty)
        let spec = try #require(SpecParser.parse(replacing(message, message + "\n        - " + lines), file: "Specs/T.yml").spec)
        let object = try #require(spec.useCases.first?.input?.objects.first)
        #expect(object.type == "ShareLine" && object.list && object.required && object.fields.map(\.name) == ["item_id", "count"])
        #expect(spec.declaredTypes.contains("ShareLine"))
        #expect(
            objects("{ name: lines, type: shareLine, fields: [ { name: a, type: int } ] }").contains {
                $0.contains("object type 'shareLine'")
            })
        #expect(objects("{ name: lines, type: ShareLine, fields: [] }").contains { $0.contains("an object lists at least one field") })
        #expect(
            objects("{ name: lines, type: ShareLine, fields: [ { name: at, type: timestamp } ] }").contains {
                $0.contains("a field of an object is uuid, string, text, int, bigint, bool, money or enum, not timestamp")
            })
        #expect(
            objects("{ name: message, type: ShareLine, fields: [ { name: a, type: int } ] }").contains {
                $0.contains("duplicate input field name 'message'")
            })
    }

    @Test func problemsMayListMembersAndCarryTheLogicsFieldErrors() {
        func outcome(_ text: String) -> [String] { errors(replacing("{ name: not_found, status: 404 }", text)) }
        #expect(outcome("{ name: short, status: 409, body: [ { name: item_ids, type: uuid, list: true } ], logic_errors: true }").isEmpty)
        #expect(
            outcome("{ name: short, status: 409, body: [ { name: counts, type: int, list: true } ] }").contains {
                $0.contains("a problem's list member 'counts' holds uuid, string, text or enum values")
            })
        #expect(
            outcome(#"{ name: short, status: 409, detail: "{ids}", body: [ { name: ids, type: uuid, list: true } ] }"#).contains {
                $0.contains("'{ids}'")
            })
        #expect(
            outcome("{ name: fine, status: 200, body: [ { name: ids, type: uuid, list: true } ] }").contains {
                $0.contains("a list member ('ids') belongs to a problem")
            })
        #expect(outcome("{ name: fine, status: 200, logic_errors: true }").contains { $0.contains("logic_errors are a problem's") })
    }

    @Test func inputFieldsTakeOnlyTheirKeys() {
        let found = errors(replacing("{ name: days, type: int, min: 1,", "{ name: days, type: int, unique: true, min: 1,"))
        #expect(found.contains { $0.hasPrefix("Specs/T.yml:23:36") && $0.contains("unknown key 'unique' in input field") }, "\(found)")
    }

    @Test func duplicateNamesAreRefused() {
        let field = errors(replacing("{ name: message, type: string", "{ name: dry_run, type: string"))
        #expect(field.contains("Specs/T.yml:22:11: error: duplicate input field name 'dry_run'"), "\(field)")
        let outcome = errors(replacing("{ name: found, status: 200", "{ name: shared, status: 200"))
        #expect(outcome.contains("Specs/T.yml:26:9: error: duplicate outcome name 'shared'"), "\(outcome)")
        let member = errors(replacing("{ name: expires_at, type: timestamp }", "{ name: url, type: timestamp }"))
        #expect(member.contains { $0.hasPrefix("Specs/T.yml:25:75:") && $0.contains("duplicate body field name 'url'") }, "\(member)")
    }

    @Test func anOutcomeStatusOutside200To599IsRefused() {
        for status in ["199", "600", "99"] {
            let found = errors(replacing("status: 404", "status: \(status)"))
            #expect(found == ["Specs/T.yml:27:36: error: status \(status) is outside 200-599"], "\(found)")
        }
        let noContent = errors(replacing("{ name: found, status: 200, body: entity }", "{ name: found, status: 204, body: entity }"))
        #expect(noContent.contains { $0.contains("a 204 answer has no body") }, "\(noContent)")
        let badBody = errors(replacing("body: entity", "body: record"))
        #expect(
            badBody.contains {
                $0.contains("body must be 'entity' (the scene's entity), a model or entity's name, { page: Name } or a list of fields")
            }, "\(badBody)")
    }

    /// From 400 up an answer is problem+json: its body is fields, the problem's members, which its
    /// detail and field errors may name as `{name}`.
    @Test func aProblemOutcomesBodyIsItsMembers() {
        func problem(_ outcome: String) -> [String] { errors(replacing("{ name: not_found, status: 404 }", outcome)) }
        let members = "body: [ { name: left, type: int }, { name: note, type: text, optional: true } ]"
        #expect(problem("{ name: not_found, status: 404, detail: \"{left} left\", \(members) }").isEmpty)
        #expect(problem("{ name: not_found, status: 404, body: entity }").contains { $0.contains("its body is a list of fields") })
        #expect(problem("{ name: not_found, status: 404, detail: \"{gone} left\", \(members) }").contains { $0.contains("'{gone}'") })
        #expect(problem("{ name: not_found, status: 404, detail: \"{note}\", \(members) }").contains { $0.contains("'{note}'") })
        #expect(problem("{ name: not_found, status: 404, detail: \"{left}\" }").contains { $0.contains("(it has none)") })
        let money = "{ name: not_found, status: 404, detail: \"{owed} owed\", body: [ { name: owed, type: money } ] }"
        #expect(problem(money).isEmpty)
        let monies = "{ name: not_found, status: 404, body: [ { name: owed, type: money, list: true } ] }"
        #expect(problem(monies).contains { $0.contains("a problem's list member 'owed' holds uuid, string, text or enum values") })
        #expect(
            problem("{ name: not_found, status: 200, detail: \"no\" }").contains {
                $0.contains("only an outcome of status 400 or more has them")
            })
    }

    @Test func pathParametersMatchTheRoute() {
        let extra = errors(
            replacing(
                "- { name: channel, type: enum, values: [email, link] }",
                "- { name: channel, type: enum, values: [email, link] }\n        - { name: slug, type: string, max: 20 }"))
        #expect(
            extra.contains("Specs/T.yml:19:11: error: path parameter 'slug' is not in the route POST /v1/wishlist/{id}/share/{channel}"),
            "\(extra)")
        let untyped = errors(replacing("/share/{channel}\"", "/share/{channel}/{code}\""))
        #expect(
            untyped.contains(
                "Specs/T.yml:13:12: error: route parameter {code} has no type: declare it under input.path, e.g. { name: code, type: uuid }"
            ),
            "\(untyped)")
        let optional = errors(replacing("values: [email, link] }", "values: [email, link], optional: true }"))
        #expect(optional.contains { $0.contains("a path parameter is always present: no optional, no default") }, "\(optional)")
        let money = errors(replacing("{ name: dry_run, type: bool, optional: true }", "{ name: dry_run, type: money, optional: true }"))
        #expect(money.contains { $0.contains("a query parameter cannot be of type money") }, "\(money)")
    }

    @Test func whereInputAndOutcomesBelong() {
        let get = errors(replacing("route: \"POST /v1/wishlist", "route: \"GET /v1/wishlist"))
        #expect(get.contains { $0.contains("a GET route takes no body; use input.query") }, "\(get)")
        let noOutcomes = errors(Self.share.components(separatedBy: "    outcomes:")[0] + "gateways: []\n")
        #expect(noOutcomes.contains { $0.contains("a custom use case of a generated scene needs 'outcomes'") }, "\(noOutcomes)")
        let crud = errors(replacing("kind: custom", "kind: create"))
        #expect(crud.contains { $0.contains("only custom use cases declare 'input'") }, "\(crud)")
        #expect(crud.contains { $0.contains("only custom use cases declare 'outcomes'") }, "\(crud)")
        let customer = errors(replacing("{ name: message, type: string", "{ name: customer_id, type: string"))
        #expect(customer.contains { $0.contains("'customer_id' is the signed-in customer") }, "\(customer)")
        let now = errors(replacing("{ name: dry_run, type: bool, optional: true }", "{ name: since, type: timestamp, default: now }"))
        #expect(now.contains { $0.contains("default 'now' belongs to entity fields only") }, "\(now)")
    }

    /// `Reference/TypedShapes.yml` uses every type in every place the format allows.
    @Test func everyTypedShapeParses() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reference/TypedShapes.yml")
        let (spec, diagnostics) = SpecParser.parse(try String(contentsOf: url, encoding: .utf8), file: "Specs/Gadget.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(spec?.useCases.compactMap(\.input).map(\.all.count) == [0, 8, 7])
        #expect(spec?.gateways.first?.operations.map(\.name) == ["ping", "lookup", "push"])
    }

    @Test func aGeneratedScenesRoutesGiveEachParameterPlaceOneName() {
        let peek =
            "  - { name: peek, kind: custom, route: \"GET /v1/wishlist/{entry}\", input: { path: [{ name: entry, type: uuid }] }, outcomes: [{ name: seen, status: 204 }] }"
        let found = errors(replacing("\ngateways:\n", "\n\(peek)\ngateways:\n"))
        #expect(
            found.contains {
                $0.contains(
                    "route parameter {entry} sits where POST /v1/wishlist/{id}/share/{channel} of use case 'share' has {id}; the router needs one name per place"
                )
            }, "\(found)")
        let empty = errors(replacing("body: entity", "body: []"))
        #expect(empty.contains { $0.contains("body lists no fields; leave it out for an answer without a body") }, "\(empty)")
    }

    @Test func gatewayOperationsAreChecked() {
        let path = errors(replacing("request: \"POST /links/{owner_id}\"", "request: \"POST /links/{link_id}\""))
        #expect(
            path.contains("Specs/T.yml:34:18: error: request path parameter {link_id} is not one of the operation's input fields"),
            "\(path)")
        let get = errors(replacing("request: \"POST /links", "request: \"GET /links"))
        #expect(get.contains { $0.contains("a GET request sends no body: input field 'note' must be a path parameter") }, "\(get)")
        let status = errors(replacing("status: 429", "status: 302"))
        #expect(status.contains { $0.contains("status 302 is outside 400-599") }, "\(status)")
        let request = errors(replacing("request: \"POST /links/{owner_id}\"", "request: \"SEND links\""))
        #expect(request.contains { $0.contains("request 'SEND links' must be 'METHOD /path' under the base URL") }, "\(request)")
        let none = errors(Self.share.components(separatedBy: "    operations:")[0])
        #expect(none.contains { $0.contains("an http gateway of a generated scene needs 'operations'") }, "\(none)")
        let handwritten = errors(
            Self.share.components(separatedBy: "    operations:")[0].replacingOccurrences(
                of: "summary:", with: "code: handwritten\nsummary:"))
        #expect(handwritten.isEmpty, "\(handwritten)")
    }
}
