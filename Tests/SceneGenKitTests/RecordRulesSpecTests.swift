import SceneGenKit
import Testing

/// `replace`, `rules`, `one_per_owner`, `max_per_owner` and `example`: what they accept and how
/// each misuse is named.
@Suite("scenegen: whole-record replacement and the rules across fields and rows")
struct RecordRulesSpecTests {
    static let book = """
        scene: Book
        summary: A customer's entries.
        entity:
          name: BookEntry
          table: book_entries
          owner: customer
          rules: true
          max_per_owner: 3
          fields:
            - { name: id, type: uuid, primary: true }
            - { name: code, type: string, min: 2, max: 2, example: "JP" }
            - { name: favourite, type: bool, default: false, one_per_owner: true }
            - { name: created_at, type: timestamp, default: now, readonly: true }
        useCases:
          - { name: add, kind: create, route: "POST /v1/book", auth: customer }
          - { name: replace, kind: replace, route: "PUT /v1/book/{id}", auth: customer }
        """

    func errors(_ text: String) -> [String] {
        SpecParser.parse(text, file: "Specs/T.yml").diagnostics.map(\.description)
    }

    func book(replacing old: String, with new: String) -> String {
        let changed = Self.book.replacingOccurrences(of: old, with: new)
        #expect(changed != Self.book, "the fixture has no '\(old)'")
        return changed
    }

    @Test func theBookParsesWithEveryKey() throws {
        let (spec, diagnostics) = SpecParser.parse(Self.book, file: "Specs/T.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let entity = try #require(spec?.entity)
        #expect(entity.rules && entity.maxPerOwner == 3)
        #expect(entity.fields.first { $0.name == "code" }?.example == "JP")
        #expect(entity.fields.first { $0.name == "favourite" }?.onePerOwner == true)
        #expect(spec?.useCases.last?.kind == .replace)
    }

    @Test func aReplaceIsAPutOfOneRowByItsOwner() {
        #expect(
            errors(book(replacing: "\"PUT /v1/book/{id}\"", with: "\"PATCH /v1/book/{id}\"")).contains {
                $0.contains("a replace use case is routed with PUT, not PATCH")
            })
        #expect(
            errors(book(replacing: "\"PUT /v1/book/{id}\"", with: "\"PUT /v1/book\"")).contains {
                $0.contains("a replace route must end in /{id}")
            })
        #expect(
            errors(book(replacing: "\"PUT /v1/book/{id}\", auth: customer", with: "\"PUT /v1/book/{id}\", auth: admin")).contains {
                $0.contains("a replace writes a customer's row as its owner: it needs auth: customer")
            })
    }

    @Test func anEntityWithRulesChangesByReplaceNotUpdate() {
        let update = book(
            replacing: "  - { name: replace, kind: replace, route: \"PUT /v1/book/{id}\", auth: customer }",
            with: "  - { name: edit, kind: update, route: \"PATCH /v1/book/{id}\", auth: customer }")
        #expect(errors(update).contains { $0.contains("an entity with rules changes by replace (PUT), not update") })
        #expect(errors(update.replacingOccurrences(of: "  rules: true\n", with: "")).isEmpty)
    }

    @Test func aReplaceLeavesFieldsStaffWriteAlone() {
        let staffOnly = book(
            replacing: "{ name: code, type: string, min: 2, max: 2, example: \"JP\" }",
            with: "{ name: code, type: string, min: 2, max: 2, example: \"JP\", admin_only: true, default: \"JP\" }")
        #expect(errors(staffOnly).contains { $0.contains("a replace writes every field, and 'code' is admin_only") })
    }

    @Test func oneFlagPerOwnerIsABoolOfAnOwnedEntityWrittenByItsOwner() {
        let unowned = book(replacing: "  owner: customer\n  rules: true\n  max_per_owner: 3\n", with: "")
        #expect(errors(unowned).contains { $0.contains("one_per_owner marks one row of each customer's: it needs owner: customer") })
        #expect(
            errors(book(replacing: "name: favourite, type: bool", with: "name: favourite, type: int")).contains {
                $0.contains("one_per_owner needs a bool field that is not optional or readonly")
            })
        let two = book(
            replacing: "    - { name: created_at",
            with: "    - { name: pinned, type: bool, default: false, one_per_owner: true }\n    - { name: created_at")
        #expect(errors(two).contains { $0.contains("an entity has one one_per_owner field at most") })
    }

    @Test func aLimitPerOwnerNeedsAnOwnerAndACount() {
        #expect(
            errors(book(replacing: "max_per_owner: 3", with: "max_per_owner: 0")).contains {
                $0.contains("max_per_owner is a count of rows from 1 to 100000")
            })
        let unowned = book(replacing: "  owner: customer\n", with: "")
        #expect(errors(unowned).contains { $0.contains("max_per_owner bounds each customer's rows: it needs owner: customer") })
    }

    /// An example is a valid value of its field, of any type a client sends but uuids, instants
    /// and numbers (whose samples are made).
    @Test func anExampleIsAValidValueOfItsField() {
        #expect(
            errors(book(replacing: "example: \"JP\"", with: "example: \"JPN\"")).contains {
                $0.contains("example 'JPN' is 3 characters, outside the field's own bounds (min 2, max 2)")
            })
        #expect(
            errors(book(replacing: "default: false, one_per_owner", with: "default: false, example: \"yes\", one_per_owner")).contains {
                $0.contains("example of a bool field is true or false")
            })
        #expect(errors(book(replacing: "default: false, one_per_owner", with: "default: false, example: \"true\", one_per_owner")).isEmpty)
        func rank(_ example: String) -> String {
            book(
                replacing: "    - { name: favourite",
                with: "    - { name: rank, type: int, min: 1, max: 9, example: \(example) }\n    - { name: favourite")
        }
        #expect(errors(rank("\"7\"")).isEmpty)
        #expect(errors(rank("\"10\"")).contains { $0.contains("example '10' must be an integer within the field's own bounds") })
        #expect(
            errors(book(replacing: "type: uuid, primary: true", with: "type: uuid, primary: true, example: \"x\"")).contains {
                $0.contains("uuid samples are made")
            })
    }
}
