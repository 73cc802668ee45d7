import Foundation
import SceneGenKit
import Testing

/// Scenes without an entity: hand-written ports, models, and answers that are models or pages.
@Suite("scenegen: ports, models and scenes without an entity")
struct ModelSpecTests {
    static let board = """
        scene: Board
        summary: A board of the items.
        ports:
          - { name: store, type: BoardStore }
        models:
          - name: BoardView
            fields:
              - { name: title, type: string }
              - { name: level, type: enum, values: [low, HIGH] }
              - { name: tags, type: string, list: true }
              - { name: lead, type: Item, optional: true }
              - { name: items, type: Item, list: true }
        useCases:
          - name: show
            kind: custom
            route: "GET /v1/board"
            auth: public
            outcomes:
              - { name: shown, status: 200, body: BoardView }
              - { name: empty, status: 404 }
          - name: browse
            kind: custom
            route: "GET /v1/board/items"
            auth: public
            outcomes:
              - { name: page, status: 200, body: { page: Item } }
        """

    static func errors(_ text: String) -> [String] {
        SpecParser.parse(text, file: "Specs/Board.yml").diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    @Test func portsModelsAndNamedAnswersParse() throws {
        let (spec, diagnostics) = SpecParser.parse(Self.board, file: "Specs/Board.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let board = try #require(spec)
        #expect(board.entity == nil)
        #expect(board.ports.map(\.type) == ["BoardStore"] && board.declaredTypes == ["BoardView"])
        let fields = try #require(board.models.first?.fields)
        #expect(fields.map(\.list) == [false, false, true, false, true])
        #expect(fields[3].value == .named("Item") && fields[3].optional)
        #expect(board.useCases[0].outcomes.map(\.body) == [.model("BoardView"), .none])
        #expect(board.useCases[1].outcomes[0].body == .page("Item"))
    }

    @Test func misusesAreRefusedWithTheirReason() {
        func replacing(_ old: String, _ new: String) -> [String] { Self.errors(Self.board.replacingOccurrences(of: old, with: new)) }
        #expect(
            replacing("type: Item, list: true", "type: Item, list: true, optional: true").contains { $0.contains("a list is never null") })
        #expect(replacing("type: BoardStore", "type: boardStore").contains { $0.contains("must be an UpperCamelCase protocol name") })
        #expect(replacing("name: store,", "name: system,").contains { $0.contains("port name 'system' is taken") })
        #expect(replacing("body: BoardView", "body: entity").contains { $0.contains("body 'entity' needs the scene's entity") })
        #expect(replacing("body: { page: Item }", "body: { page: item }").contains { $0.contains("page names a model or entity") })
        let crud = Self.board + "\n  - { name: add, kind: create, route: \"POST /v1/board\", auth: admin }"
        #expect(Self.errors(crud).contains { $0.contains("a create use case needs the scene's entity") })
        let withEntity = Self.board.replacingOccurrences(
            of: "ports:",
            with: "entity:\n  name: Pin\n  table: pins\n  fields:\n    - { name: id, type: uuid, primary: true }\nports:")
        #expect(Self.errors(withEntity).contains { $0.contains("port name 'store' is taken by the scene's own store") })
        #expect(
            replacing("{ name: tags, type: string, list: true }", "{ name: tags, type: int, map: true, list: true }").contains {
                $0.contains("a map is an object of values, never null: not with list or optional")
            })
        #expect(
            replacing("type: Item, optional: true }", "type: Item, map: true }").contains {
                $0.contains("a map holds values of a field type")
            })
        #expect(
            replacing("  - name: BoardView\n", "  - name: BoardView\n    domain: mine\n").contains {
                $0.contains("domain must be 'generated' (the default) or 'handwritten'")
            })
        #expect(replacing("  - name: BoardView\n", "  - name: BoardView\n    domain: handwritten\n").isEmpty)
        let upload = Self.board.replacingOccurrences(
            of: "route: \"GET /v1/board\"\n    auth: public\n",
            with: "route: \"GET /v1/board\"\n    auth: public\n    input:\n      upload: { field: photo, max: 0 }\n")
        let refused = Self.errors(upload)
        #expect(refused.contains { $0.contains("upload max is a byte count from 1 to 1073741824") }, "\(refused)")
        #expect(refused.contains { $0.contains("an upload is sent with POST or PUT, not GET") }, "\(refused)")
    }

    /// A resumable upload is kept between requests as its customer and its route's path: a
    /// route that reads more than that, or no customer, cannot take one.
    @Test func aResumableUploadNeedsACustomerAndAPathOnlyInput() {
        func resumable(auth: String, input: String, extra: String = "") -> [String] {
            Self.errors(
                Self.board.replacingOccurrences(
                    of: "route: \"GET /v1/board\"\n    auth: public\n",
                    with: "route: \"POST /v1/board/{id}\"\n    auth: \(auth)\n\(extra)    input:\n\(input)"
                        + "      upload: { field: photo, max: 10, resumable: true }\n"))
        }
        #expect(resumable(auth: "customer", input: "").isEmpty)
        #expect(resumable(auth: "public", input: "").contains { $0.contains("it needs auth: customer") })
        #expect(resumable(auth: "admin", input: "").contains { $0.contains("it needs auth: customer") })
        let query = "      query: [ { name: q, type: string, optional: true } ]\n"
        #expect(resumable(auth: "customer", input: query).contains { $0.contains("from the path only: no query, headers or session") })
        #expect(
            resumable(auth: "customer", input: "", extra: "    background: true\n").contains {
                $0.contains("it starts no background work")
            })
    }

    /// Across specs: a type must be declared once, by some spec, and two parts of the specs may
    /// not be written to one file.
    /// `enum_type` names the hand-written Domain enum of an enum field; no other field takes one.
    @Test func anEnumTypeNamesTheDomainEnumOfAnEnumField() {
        let level = "{ name: level, type: enum, values: [low, HIGH] }"
        #expect(
            Self.errors(
                Self.board.replacingOccurrences(of: level, with: "{ name: level, type: enum, values: [low, HIGH], enum_type: Level }")
            ).isEmpty)
        #expect(
            Self.errors(
                Self.board.replacingOccurrences(of: level, with: "{ name: level, type: enum, values: [low, HIGH], enum_type: level }")
            )
            .contains { $0.contains("enum_type 'level' must be the UpperCamelCase name of a Domain enum") })
        #expect(
            Self.errors(
                Self.board.replacingOccurrences(
                    of: "{ name: title, type: string }", with: "{ name: title, type: string, enum_type: Title }")
            )
            .contains { $0.contains("enum_type names the Swift enum of an enum field; 'title' is string") })
    }

    /// `from` reads a member of a hand-written Domain type from a property of another name.
    @Test func fromNamesAPropertyOfAHandWrittenType() {
        let from = Self.board.replacingOccurrences(
            of: "{ name: title, type: string }", with: "{ name: title, type: string, from: heading }")
        #expect(
            Self.errors(from).contains {
                $0.contains("from reads a property of a hand-written Domain type: the model needs domain: handwritten")
            })
        #expect(
            Self.errors(from.replacingOccurrences(of: "  - name: BoardView\n", with: "  - name: BoardView\n    domain: handwritten\n"))
                .isEmpty)
        let bad = Self.board.replacingOccurrences(of: "{ name: title, type: string }", with: "{ name: title, type: string, from: Heading }")
        #expect(Self.errors(bad).contains { $0.contains("from names a property of the hand-written Domain type, in lowerCamelCase") })
    }

    @Test func typesResolveAcrossSpecsAndFilesNeverClash() throws {
        let unknown = try WorkspaceTests.repository([
            "Board": Self.board.replacingOccurrences(of: "type: Item, optional", with: "type: Itm, optional")
        ])
        let refused = Workspace(root: unknown).run(specPaths: [], mode: .dryRun)
        #expect(refused.errors.contains { $0.contains("type 'Itm' is declared by no spec") }, "\(refused.errors)")
        let twice = try WorkspaceTests.repository(["Board": Self.board.replacingOccurrences(of: "name: BoardView", with: "name: Item")])
        // Named where the model is declared, not at the top of the file.
        let declaredTwice = Workspace(root: twice).run(specPaths: [], mode: .dryRun).errors
        #expect(
            declaredTwice.contains { $0.hasPrefix("Specs/Board.yml:6:5:") && $0.contains("type 'Item' is also declared in") },
            "\(declaredTwice)")
        // The use case `show` of scene Board has its input in BoardShowInput.swift; a model BoardShowInput would too.
        let clash = Self.board.replacingOccurrences(of: "name: BoardView", with: "name: BoardShowInput").replacingOccurrences(
            of: "body: BoardView", with: "body: BoardShowInput")
        let outcome = Workspace(root: try WorkspaceTests.repository(["Board": clash])).run(specPaths: [], mode: .dryRun)
        #expect(
            outcome.errors.contains { $0.contains("two parts of the specs would be written to Sources/Domain/Board/BoardShowInput.swift") })
        let fine = Workspace(root: try WorkspaceTests.repository(["Board": Self.board])).run(specPaths: [], mode: .write)
        #expect(fine.exitCode == 0, "\(fine.errors)")
    }
}
