import Foundation
import SceneGenKit
import Testing

/// What specs written by people who never read the generator tried, each once producing SQL or
/// Swift that could not work: now refused with its position, or generated so that it works.
@Suite("scenegen: specs from outside")
struct SpecSafetyTests {
    func errors(_ text: String) -> [String] {
        SpecParser.parse(text, file: "Specs/T.yml").diagnostics.map(\.description)
    }

    func wishlist(_ from: String, _ to: String) -> String {
        let changed = SpecParserTests.wishlist.replacingOccurrences(of: from, with: to)
        #expect(changed != SpecParserTests.wishlist, "the replaced text is in the spec")
        return changed
    }

    @Test func postgreSQLReservedWordsAreNoColumnOrTableNames() {
        for word in ["order", "user", "group", "limit", "check", "select", "current_date"] {
            let field = errors(wishlist("{ name: note, type: string", "{ name: \(word), type: string"))
            #expect(
                field.contains { $0.hasPrefix("Specs/T.yml:10:") && $0.contains("'\(word)' is a reserved word in PostgreSQL") }, "\(field)")
        }
        let table = errors(wishlist("table: wishlist_entries", "table: user"))
        #expect(
            table.contains { $0.hasPrefix("Specs/T.yml:5:") && $0.contains("table 'user' is a reserved word in PostgreSQL") }, "\(table)")
        // Words PostgreSQL only reserves in some places stay usable, as the catalog's `position`.
        #expect(errors(wishlist("{ name: note, type: string", "{ name: position, type: string")).isEmpty)
    }

    @Test func aFieldNamedAsAMoneyFieldsColumnIsRefused() {
        for suffix in ["amount", "currency", "complete"] {
            let found = errors(
                wishlist(
                    "    - { name: note,",
                    "    - { name: price, type: money, optional: true }\n    - { name: price_\(suffix), type: int, min: 0 }\n    - { name: note,"
                ))
            #expect(
                found.contains { $0.hasPrefix("Specs/T.yml:10:") && $0.contains("rename field 'price_\(suffix)'") }, "\(found)")
        }
        #expect(errors(wishlist("    - { name: note,", "    - { name: price, type: money, optional: true }\n    - { name: note,")).isEmpty)
    }

    /// Rows nobody owns were changed or deleted by anyone, signed in or not, when a spec said
    /// `auth: public` on an update or a delete.
    @Test func rowsNobodyOwnsAreNotChangedAnonymously() {
        let unowned = SpecParserTests.wishlist.replacingOccurrences(of: "  owner: customer\n", with: "")
        #expect(unowned != SpecParserTests.wishlist)
        for (route, verb) in [
            ("PATCH /v1/wishlist/{id}\",    auth: customer", "change"), ("DELETE /v1/wishlist/{id}\",   auth: customer", "delete"),
        ] {
            let found = SpecParser.parse(
                unowned.replacingOccurrences(of: route, with: route.replacingOccurrences(of: "customer", with: "public")),
                file: "Specs/T.yml"
            ).diagnostics.map(\.description)
            #expect(found.contains { $0.contains("anyone could \(verb) these rows without signing in") }, "\(found)")
        }
        #expect(SpecParser.parse(unowned, file: "Specs/T.yml").diagnostics.isEmpty)
    }

    /// An int past PostgreSQL's integer passed its checks and failed in the column (a 500), and
    /// a negative length was taken without a word.
    @Test func boundsAreWhatTheColumnHolds() {
        for (field, message) in [
            ("{ name: priority, type: int, min: 1, max: 3000000000, default: 3 }", "max (3000000000) is past an int's range"),
            ("{ name: priority, type: int, min: -2147483649, max: 5, default: 3 }", "min (-2147483649) is past an int's range"),
            ("{ name: note, type: string, min: -5, max: 200, optional: true }", "min (-5) is a length: it cannot be negative"),
            (
                "{ name: note, type: string, min: 70000, max: 1000000, optional: true }",
                "min (70000) is more than any request carries: a body holds at most 65536 bytes"
            ),
        ] {
            let line =
                field.contains("priority")
                ? "{ name: priority, type: int, min: 1, max: 5, default: 3 }" : "{ name: note, type: string, max: 200, optional: true }"
            let text = SpecParserTests.wishlist.replacingOccurrences(of: line, with: field)
            #expect(text != SpecParserTests.wishlist)
            let found = SpecParser.parse(text, file: "Specs/T.yml").diagnostics.map(\.description)
            #expect(found.contains { $0.contains(message) }, "\(found)")
        }
        let widest = SpecParserTests.wishlist.replacingOccurrences(
            of: "min: 1, max: 5, default: 3", with: "min: -2147483648, max: 2147483647, default: 3")
        #expect(SpecParser.parse(widest, file: "Specs/T.yml").diagnostics.isEmpty)
    }

    /// A spec writer who forgot `auth: admin` on the staff's routes of rows nobody owns got
    /// routes any signed-in customer could create, read, change and delete them by (auth
    /// defaults to customer); the staff's path did not stop it either.
    @Test func whoChangesRowsNobodyOwnsIsSaidAndTheAdminPathIsTheStaffs() {
        let unowned = SpecParserTests.wishlist.replacingOccurrences(of: "  owner: customer\n", with: "")
        for (line, verb) in [
            ("POST /v1/wishlist\",          auth: customer }", "create"),
            ("PATCH /v1/wishlist/{id}\",    auth: customer }", "change"),
            ("DELETE /v1/wishlist/{id}\",   auth: customer }", "delete"),
            // Reads too: a blind spec writer's gift cards, codes and balances, were listed to
            // every signed-in customer.
            ("GET /v1/wishlist/{id}\",      auth: customer }", "read"),
        ] {
            let unsaid = unowned.replacingOccurrences(of: line, with: line.prefix { $0 != "," } + " }")
            #expect(unsaid != unowned)
            let found = SpecParser.parse(unsaid, file: "Specs/T.yml").diagnostics.map(\.description)
            #expect(found.contains { $0.contains("say who may \(verb) rows no customer owns") }, "\(found)")
        }
        let admin = SpecParser.parse(
            unowned.replacingOccurrences(of: "PATCH /v1/wishlist/{id}\"", with: "PATCH /v1/admin/wishlist/{id}\""), file: "Specs/T.yml"
        ).diagnostics.map(\.description)
        #expect(admin.contains { $0.contains("a route under /v1/admin is the staff's: it needs auth: admin") }, "\(admin)")
    }

    /// An example is sent by every generated create, a customer's too, which refuses a field
    /// only staff write: the scene's own tests failed.
    @Test func aFieldStaffWriteTakesNoExample() {
        let found = errors(
            wishlist(
                "{ name: note, type: string, max: 200, optional: true }",
                "{ name: note, type: string, max: 200, optional: true, admin_only: true, example: \"spam\" }"))
        #expect(found.contains { $0.contains("an admin_only field takes no example") }, "\(found)")
    }

    /// Generated enums write their cases bare: a keyword would not compile, and `none` on an
    /// optional property reads as `Optional.none`.
    @Test func anEnumValueThatIsASwiftKeywordOrNoneIsRefused() {
        for value in ["default", "case", "in", "none"] {
            let found = errors(
                wishlist("{ name: note, type: string, max: 200, optional: true }", "{ name: note, type: enum, values: [\(value), other] }"))
            #expect(found.contains { $0.contains("enum value '\(value)' becomes the Swift case '\(value)'") }, "\(found)")
        }
        #expect(
            errors(
                wishlist("{ name: note, type: string, max: 200, optional: true }", "{ name: note, type: enum, values: [none-yet, other] }")
            ).isEmpty)
    }

    @Test func aSummaryIsOneLine() {
        let found = errors(
            wishlist("summary: Items a customer keeps for later.", "summary: \"Items a customer keeps.\\nDROP TABLE customers;\""))
        #expect(found.contains { $0.hasPrefix("Specs/T.yml:2:") && $0.contains("summary must be one line") }, "\(found)")
    }

    @Test func fieldsThatAreOneSwiftNameAreRefused() {
        let found = errors(
            wishlist(
                "    - { name: note,",
                "    - { name: line_1, type: string, max: 9, optional: true }\n    - { name: line1, type: string, max: 9, optional: true }\n    - { name: note,"
            ))
        #expect(found.contains { $0.contains("fields 'line_1' and 'line1' are both 'line1' in Swift") }, "\(found)")
    }

    @Test func aDefaultKeepsItsFieldsBounds() {
        let number = errors(wishlist("min: 1, max: 5, default: 3", "min: 1, max: 5, default: 9"))
        #expect(number.contains { $0.hasPrefix("Specs/T.yml:11:") && $0.contains("default breaks the field's own bounds") }, "\(number)")
        let text = errors(
            wishlist("{ name: note, type: string, max: 200, optional: true }", "{ name: note, type: string, max: 3, default: toolong }"))
        #expect(text.contains { $0.contains("default breaks the field's own bounds") }, "\(text)")
        #expect(errors(wishlist("min: 1, max: 5, default: 3", "min: 1, max: 5, default: 5")).isEmpty)
    }

    @Test func constraintNamesFitPostgreSQLsLimit() {
        let long = String(repeating: "preferred_", count: 5) + "frequency"
        let found = errors(wishlist("{ name: note, type: string", "{ name: \(long), type: string"))
        #expect(found.contains { $0.hasPrefix("Specs/T.yml:10:") && $0.contains("would pass PostgreSQL's 63 bytes") }, "\(found)")
        let table = errors(wishlist("table: wishlist_entries", "table: \(long)"))
        #expect(table.contains { $0.contains("is too long") }, "\(table)")
    }

    @Test func twoUniqueGroupsMayNotShareTheirConstraintsName() {
        let spec = wishlist("  owner: customer\n", "  owner: customer\n  unique: [[item_id, note], [priority, note]]\n")
        let found = errors(spec)
        #expect(found.contains { $0.contains("both end in 'note'") }, "\(found)")
    }

    /// A newline, a quote followed by `#`, a backslash and a control character in an example: the
    /// generated tests carry them in a one-line raw string as JSON escapes.
    @Test func examplesReachTheGeneratedTestsAsValidJSONInValidSwift() throws {
        let root = try WorkspaceTests.repository(["Wishlist": WorkspaceTests.reference])
        let spec = root.appendingPathComponent("Specs/Wishlist.yml")
        let text = try String(contentsOf: spec, encoding: .utf8).replacingOccurrences(
            of: "{ name: note, type: string, max: 200, optional: true }",
            with: ##"{ name: note, type: string, max: 200, optional: true, example: "a\nb \"# c\\d\u0001" }"##)
        try text.write(to: spec, atomically: true, encoding: .utf8)
        let outcome = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        let tests = try String(
            contentsOf: root.appendingPathComponent("Tests/HTTPTests/Generated/WishlistGeneratedHTTPTests.swift"), encoding: .utf8)
        #expect(tests.contains(#""note": "a\u000ab \u0022# c\\d\u0001""#), "\(tests)")
        #expect(tests.contains(##""a\nb \"# c\\d\u{1}""##), "the Swift literal of the example")
    }

    @Test func anEnumTheGeneratorWouldDeclareTwiceIsRefused() throws {
        let parcel = """
            scene: Parcel
            summary: Parcels.
            entity:
              name: Parcel
              table: parcels
              fields:
                - { name: id, type: uuid, primary: true }
                - { name: label_status, type: enum, values: [new, printed] }
            useCases:
              - { name: show, kind: get, route: "GET /v1/parcels/{id}", auth: admin }
            """
        let label = """
            scene: ParcelLabel
            summary: Labels.
            entity:
              name: ParcelLabel
              table: parcel_labels
              fields:
                - { name: id, type: uuid, primary: true }
                - { name: status, type: enum, values: [new, printed] }
            useCases:
              - { name: show, kind: get, route: "GET /v1/parcel-labels/{id}", auth: admin }
            """
        let root = try WorkspaceTests.repository(["Wishlist": WorkspaceTests.reference, "Parcel": parcel, "ParcelLabel": label])
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/Domain/Shared"), withIntermediateDirectories: true)
        try "public struct Money: Hashable {}\n".write(
            to: root.appendingPathComponent("Sources/Domain/Shared/Money.swift"), atomically: true, encoding: .utf8)
        let outcome = Workspace(root: root).run(specPaths: [], mode: .dryRun)
        #expect(
            outcome.errors.contains { $0.hasPrefix("Specs/ParcelLabel.yml:8:") && $0.contains("ParcelLabelStatus") }, "\(outcome.errors)")
        let money = label.replacingOccurrences(of: "name: ParcelLabel\n", with: "name: Money\n")
        let shared = try WorkspaceTests.repository(["Wishlist": WorkspaceTests.reference, "ParcelLabel": money])
        try FileManager.default.createDirectory(
            at: shared.appendingPathComponent("Sources/Domain/Shared"), withIntermediateDirectories: true)
        try "public struct Money: Hashable {}\n".write(
            to: shared.appendingPathComponent("Sources/Domain/Shared/Money.swift"), atomically: true, encoding: .utf8)
        let refused = Workspace(root: shared).run(specPaths: [], mode: .dryRun)
        #expect(refused.errors.contains { $0.contains("type 'Money' is declared by hand in Sources/Domain/Shared") }, "\(refused.errors)")
    }

    /// An `enum_type` names a `String` enum of Domain with the field's values as raw values and
    /// the case names generated code uses: one naming none, another set of values or other case
    /// names is refused at the field, not left to the compiler or to a value the API document
    /// does not list.
    @Test func anEnumTypeMustNameADomainEnumOfTheFieldsValues() throws {
        let parcel = """
            scene: Parcel
            summary: Parcels.
            entity:
              name: Parcel
              table: parcels
              fields:
                - { name: id, type: uuid, primary: true }
                - { name: state, type: enum, values: [new, in-transit], enum_type: ParcelState }
            useCases:
              - { name: show, kind: get, route: "GET /v1/parcels/{id}", auth: admin }
            """
        let root = try WorkspaceTests.repository(["Parcel": parcel])
        func enumTypeErrors() -> [String] {
            Workspace(root: root).run(specPaths: [], mode: .dryRun).errors.filter { $0.contains("enum_type") }
        }
        let missing = enumTypeErrors()
        #expect(missing.count == 1 && missing[0].hasPrefix("Specs/Parcel.yml:8:"), "\(missing)")
        #expect(missing.first?.contains("names no String enum in Sources/Domain") == true, "\(missing)")
        let folder = root.appendingPathComponent("Sources/Domain/Parcel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "public enum ParcelState: String, Sendable {\n    case new\n    case delivered\n}\n".write(
            to: folder.appendingPathComponent("ParcelState.swift"), atomically: true, encoding: .utf8)
        let other = enumTypeErrors()
        #expect(other.count == 1 && other[0].contains("holds new, delivered"), "\(other)")
        // The values, but a case named otherwise than generated code names it.
        try "public enum ParcelState: String, Sendable {\n    case new\n    case moving = \"in-transit\"\n}\n".write(
            to: folder.appendingPathComponent("ParcelState.swift"), atomically: true, encoding: .utf8)
        let renamed = enumTypeErrors()
        #expect(renamed.count == 1 && renamed[0].contains("`case inTransit` for \"in-transit\" (not `moving`)"), "\(renamed)")
        try "public enum ParcelState: String, Sendable {\n    case new\n    case inTransit = \"in-transit\"\n}\n".write(
            to: folder.appendingPathComponent("ParcelState.swift"), atomically: true, encoding: .utf8)
        #expect(enumTypeErrors().isEmpty)
    }

    /// The route registry and the API document name every spec: a run naming one spec while
    /// another was never generated would register a scene with no code.
    @Test func namingOneSpecNeedsTheOthersGenerated() throws {
        let saved = WorkspaceTests.reference.replacingOccurrences(of: "scene: Wishlist", with: "scene: Saved")
            .replacingOccurrences(of: "name: WishlistEntry", with: "name: SavedEntry")
            .replacingOccurrences(of: "table: wishlist_entries", with: "table: saved_entries")
            .replacingOccurrences(of: "/v1/wishlist", with: "/v1/saved")
        let root = try WorkspaceTests.repository(["Wishlist": WorkspaceTests.reference, "Saved": saved])
        let refused = Workspace(root: root).run(specPaths: ["Specs/Wishlist.yml"], mode: .write)
        #expect(refused.exitCode != 0)
        #expect(refused.errors.contains { $0.hasPrefix("Specs/Saved.yml:1:1:") && $0.contains("not generated yet") }, "\(refused.errors)")
        #expect(Workspace(root: root).run(specPaths: [], mode: .write).exitCode == 0)
        #expect(Workspace(root: root).run(specPaths: ["Specs/Wishlist.yml"], mode: .write).exitCode == 0)
    }

    @Test func aClashIsReportedInBothSpecs() throws {
        let other = WorkspaceTests.reference.replacingOccurrences(of: "scene: Wishlist", with: "scene: Saved")
            .replacingOccurrences(of: "name: WishlistEntry", with: "name: SavedEntry")
        let root = try WorkspaceTests.repository(["Wishlist": WorkspaceTests.reference, "Saved": other])
        let outcome = Workspace(root: root).run(specPaths: [], mode: .dryRun)
        for file in ["Specs/Saved.yml", "Specs/Wishlist.yml"] {
            #expect(
                outcome.errors.contains { $0.hasPrefix(file) && $0.contains("table 'wishlist_entries' is also the table of") }, "\(file)")
            #expect(outcome.errors.contains { $0.hasPrefix(file) && $0.contains("route POST /v1/wishlist clashes") }, "\(file)")
        }
    }
}
