import Foundation
import SceneGenKit
import Testing

/// scenegen's runs over a scratch repository: what it writes, what it refuses, what it reports.
@Suite("scenegen: runs over a repository")
struct WorkspaceTests {
    /// A scratch repository with `Specs/` holding `specs` (name -> YAML), the hand-written scene
    /// of the items they reference, and one migration.
    static func repository(_ specs: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scenegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Specs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Migrations"), withIntermediateDirectories: true)
        try "CREATE TABLE items (id uuid PRIMARY KEY);\n".write(
            to: root.appendingPathComponent("Migrations/0001_catalog.sql"), atomically: true, encoding: .utf8)
        // The table the reference spec's rows point at, described as a hand-written scene.
        try """
        scene: Item
        summary: Items, written by hand.
        code: handwritten
        entity:
          name: Item
          table: items
          fields:
            - { name: id, type: uuid, primary: true }
            - { name: name, type: string, max: 80 }
        useCases:
          - { name: list, kind: custom, route: "GET /v1/items", auth: public }
          - { name: show, kind: custom, route: "GET /v1/items/{id}", auth: public }
        """.write(to: root.appendingPathComponent("Specs/Item.yml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Specs/OpenAPI"), withIntermediateDirectories: true)
        try """
        paths:
          /v1/items:
            get:
              responses:
                '200': { description: The items. }
          /v1/items/{id}:
            get:
              responses:
                '200': { description: The item. }
        components:
          schemas:
            Item:
              type: object
              required: [id, name]
              properties: { id: { type: string, format: uuid }, name: { type: string } }

        """.write(
            to: root.appendingPathComponent("Specs/OpenAPI/handwritten.yml"), atomically: true, encoding: .utf8)
        for (name, text) in specs {
            try text.write(to: root.appendingPathComponent("Specs/\(name).yml"), atomically: true, encoding: .utf8)
        }
        return root
    }

    static let reference = try! String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reference/Wishlist.yml"),
        encoding: .utf8)

    static func snapshot(_ root: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: root.path)!
        for case let path as String in walker {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if exists && !isDirectory.boolValue {
                files[path] = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            }
        }
        return files
    }

    @Test func writesEveryLayerOnceThenNothingChanges() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        let first = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(first.exitCode == 0, "\(first.errors)")
        let files = try Self.snapshot(root)
        for path in [
            "Sources/Domain/Wishlist/WishlistEntry.swift", "Sources/Domain/Wishlist/WishlistPorts.swift",
            "Sources/UseCase/Wishlist/WishlistUseCase.swift", "Sources/UseCase/Wishlist/WishlistUseCase+Share.swift",
            "Sources/Translator/Wishlist/WishlistTranslator.swift", "Sources/Presenter/Wishlist/WishlistPresenter.swift",
            "Sources/Gateway/Wishlist/PostgresWishlistEntryStore.swift", "Sources/Gateway/Wishlist/HTTPShareLinksGateway.swift",
            "Sources/Scenes/Wishlist/WishlistContainer.swift", "Sources/HTTP/Wishlist/WishlistRoutes.swift",
            "Sources/HTTP/App/SceneRegistry.swift", "Tests/UseCaseTests/Generated/WishlistMocks.swift",
            "Tests/UseCaseTests/Generated/WishlistGeneratedUseCaseTests.swift",
            "Tests/HTTPTests/Generated/WishlistGeneratedHTTPTests.swift",
            "Migrations/0002_create_wishlist_entries.sql", "Sources/HTTP/Resources/openapi.json",
            "Sources/HTTP/Resources/openapi.json.scenegen",
            "Migrations/0002_create_wishlist_entries.sql", "Sources/Domain/Wishlist/WishlistShareInput.swift",
            "Sources/Domain/Wishlist/ShareLinksGateway.swift",
        ] {
            #expect(files[path] != nil, "\(path) missing")
        }
        #expect(files["Sources/UseCase/Wishlist/WishlistUseCase+Share.swift"]?.hasPrefix("// once: ") == true)
        #expect(files["Sources/UseCase/Wishlist/WishlistUseCase+Share.swift"]?.contains("throw NotImplemented") == true)
        #expect(
            files["Sources/UseCase/Wishlist/WishlistUseCase+Share.swift"]?.contains(
                "public func share(_ input: WishlistShareInput) async throws -> WishlistShareOutcome {") == true)
        #expect(files["Sources/Domain/Wishlist/WishlistShareInput.swift"]?.contains("status") == false, "no HTTP status in Domain")
        #expect(files["Sources/Domain/Wishlist/WishlistEntry.swift"]?.hasPrefix("// generated by scenegen from Specs/Wishlist.yml") == true)
        // Deterministic: a second run changes no byte and says so.
        let second = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(try Self.snapshot(root) == files)
        #expect(second.lines.last?.contains("0 create") != true)
        #expect(Workspace(root: root).run(specPaths: [], mode: .check).exitCode == 0)
    }

    /// An entity's scene with hand-written ports: the generated use-case tests take them from a
    /// once-file beside them (outside `Generated`), and each production port from the live
    /// once-file; both mark what the user must write with `#error`, so the build names it
    /// instead of a test or the service crashing. An optional port needs nothing.
    @Test func portsBesideAnEntityAreMarkedPlacesForTheTestsAndProduction() throws {
        let ported = Self.reference.replacingOccurrences(
            of: "\nuseCases:",
            with:
                "\nports:\n  - { name: notes, type: NoteBook }\n  - { name: spare, type: NoteBook, optional: true }\n  - { name: cap, type: Int, value: true }\nuseCases:"
        )
        #expect(ported != Self.reference)
        let root = try Self.repository(["Wishlist": ported])
        let run = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(run.exitCode == 0, "\(run.errors)")
        let files = try Self.snapshot(root)
        let tests = try #require(files["Tests/UseCaseTests/Generated/WishlistGeneratedUseCaseTests.swift"])
        #expect(tests.contains("WishlistContainer(store: store, notes: Self.notes, spare: Self.spare, cap: Self.cap,"))
        let testPorts = try #require(files["Tests/UseCaseTests/WishlistGeneratedUseCaseTests+Ports.swift"])
        #expect(testPorts.hasPrefix("// once: "))
        #expect(testPorts.contains("#error(\"scenegen: give the generated tests their `notes` (NoteBook) here\")"))
        #expect(testPorts.contains("#error(\"scenegen: give the generated tests their `cap` (Int) here\")"))
        #expect(testPorts.contains("static var spare: (any NoteBook)? {\n        nil\n    }"))
        let live = try #require(files["Sources/LiveScenes/Wishlist/WishlistContainer+Ports.swift"])
        #expect(live.contains("#error(\"scenegen: build the production NoteBook of `notes` here\")") && !live.contains("fatalError"))
    }

    /// The migration that created a table is a once-file: a field added to the spec later needs
    /// a migration of its own, and until one adds the column nothing is written.
    @Test func aFieldNoMigrationAddsStopsTheRun() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        #expect(Workspace(root: root).run(specPaths: [], mode: .write).exitCode == 0)
        let grown = Self.reference.replacingOccurrences(
            of: "    - { name: priority,", with: "    - { name: weight, type: int, optional: true }\n    - { name: priority,")
        try grown.write(to: root.appendingPathComponent("Specs/Wishlist.yml"), atomically: true, encoding: .utf8)
        let refused = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(refused.exitCode != 0)
        #expect(refused.errors.contains { $0.contains("column 'weight' of wishlist_entries is in no migration") }, "\(refused.errors)")
        try "ALTER TABLE wishlist_entries ADD COLUMN weight integer;\n".write(
            to: root.appendingPathComponent("Migrations/0003_wishlist_weight.sql"), atomically: true, encoding: .utf8)
        let added = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(added.exitCode == 0, "\(added.errors)")
    }

    /// The reference spec with a longer `note`, and the migration that widens its column's CHECK.
    static func widenNote(_ root: URL) throws -> String {
        let changed = Self.reference.replacingOccurrences(of: "max: 200", with: "max: 300")
        try changed.write(to: root.appendingPathComponent("Specs/Wishlist.yml"), atomically: true, encoding: .utf8)
        try """
        ALTER TABLE wishlist_entries DROP CONSTRAINT wishlist_entries_note_check,
            ADD CONSTRAINT wishlist_entries_note_check CHECK (char_length(note) <= 300);
        """.write(to: root.appendingPathComponent("Migrations/0003_wishlist_note.sql"), atomically: true, encoding: .utf8)
        return changed
    }

    /// Timestamps declared in order get samples in order, so a rule across them (`ends_at` after
    /// `starts_at`) holds for the generated tests' bodies: both took one instant, and the
    /// generated tests of a valid spec failed on its own rule.
    @Test func timestampSamplesFollowTheirDeclarationOrder() throws {
        let windowed = Self.reference.replacingOccurrences(
            of: "    - { name: created_at,",
            with: "    - { name: starts_at, type: timestamp }\n    - { name: ends_at, type: timestamp }\n    - { name: created_at,")
        let root = try Self.repository(["Wishlist": windowed])
        let run = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(run.exitCode == 0, "\(run.errors)")
        let tests = try #require(try Self.snapshot(root)["Tests/HTTPTests/Generated/WishlistGeneratedHTTPTests.swift"])
        func instant(_ member: String) throws -> Date {
            let start = try #require(tests.range(of: "\"\(member)\": \""))
            let text = tests[start.upperBound...].prefix { $0 != "\"" }
            return try #require(ISO8601DateFormatter().date(from: String(text)), "\(text)")
        }
        #expect(try instant("starts_at") < instant("ends_at"))
    }

    /// A bound, enum or uniqueness changed on a table already created is a rule the table does
    /// not keep: nothing is written until a migration states it as the spec now has it (a
    /// priority of 9 passed the checks and the column's CHECK answered it with a 500).
    @Test func aChangedRuleNoMigrationStatesStopsTheRun() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        #expect(Workspace(root: root).run(specPaths: [], mode: .write).exitCode == 0)
        let widened = Self.reference.replacingOccurrences(of: "type: int, min: 1, max: 5,", with: "type: int, min: 1, max: 9,")
        #expect(widened != Self.reference)
        try widened.write(to: root.appendingPathComponent("Specs/Wishlist.yml"), atomically: true, encoding: .utf8)
        let refused = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(refused.exitCode != 0)
        #expect(
            refused.errors.contains {
                $0.hasPrefix("Specs/Wishlist.yml:11:") && $0.contains("the rule for 'priority' is not the one the migrations leave")
                    && $0.contains("ADD CONSTRAINT wishlist_entries_priority_check CHECK (priority BETWEEN 1 AND 9)")
            }, "\(refused.errors)")
        try """
        ALTER TABLE wishlist_entries DROP CONSTRAINT wishlist_entries_priority_check,
            ADD CONSTRAINT wishlist_entries_priority_check
                CHECK (priority BETWEEN 1 AND 9);
        """.write(to: root.appendingPathComponent("Migrations/0003_wishlist_priority.sql"), atomically: true, encoding: .utf8)
        let stated = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(stated.exitCode == 0, "\(stated.errors)")
        // Back to 1...5 with no migration: the create migration states 1...5, but the one after
        // it left the table at 1...9, and the last statement is what the table keeps.
        try Self.reference.write(to: root.appendingPathComponent("Specs/Wishlist.yml"), atomically: true, encoding: .utf8)
        let reverted = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(reverted.exitCode != 0)
        #expect(reverted.errors.contains { $0.contains("CHECK (priority BETWEEN 1 AND 5)") }, "\(reverted.errors)")
        // A bound removed: the table would still keep it.
        let unbounded = Self.reference.replacingOccurrences(of: "type: int, min: 1, max: 5,", with: "type: int,")
        try unbounded.write(to: root.appendingPathComponent("Specs/Wishlist.yml"), atomically: true, encoding: .utf8)
        let removed = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(
            removed.errors.contains { $0.contains("keeps wishlist_entries_priority_check, which the spec no longer asks for") },
            "\(removed.errors)")
        try "ALTER TABLE wishlist_entries DROP CONSTRAINT wishlist_entries_priority_check;\n".write(
            to: root.appendingPathComponent("Migrations/0004_wishlist_priority_unbounded.sql"), atomically: true, encoding: .utf8)
        #expect(Workspace(root: root).run(specPaths: [], mode: .write).exitCode == 0)
    }

    /// A spec naming a table other code created (a hand-written migration's, or another spec's)
    /// would get generated routes, deletes included, over that code's rows.
    @Test func aTableOtherCodeCreatedIsRefused() throws {
        let adopting = Self.reference.replacingOccurrences(of: "table: wishlist_entries", with: "table: legacy_orders")
        #expect(adopting != Self.reference)
        let root = try Self.repository(["Wishlist": adopting])
        try "CREATE TABLE legacy_orders (id uuid PRIMARY KEY);\n".write(
            to: root.appendingPathComponent("Migrations/0002_legacy.sql"), atomically: true, encoding: .utf8)
        let refused = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(refused.exitCode != 0)
        #expect(
            refused.errors.contains {
                $0.hasPrefix("Specs/Wishlist.yml:5:") && $0.contains("table 'legacy_orders' is created by Migrations/0002_legacy.sql")
            }, "\(refused.errors)")
        let shared = try Self.repository([
            "Wishlist": Self.reference.replacingOccurrences(of: "table: wishlist_entries", with: "table: items")
        ])
        #expect(
            Workspace(root: shared).run(specPaths: [], mode: .write).errors.contains {
                $0.hasPrefix("Specs/Wishlist.yml:5:") && $0.contains("is also the table of Specs/Item.yml")
            })
    }

    /// One request schema serves staff and customers, so a field only staff write says so there.
    @Test func anAdminOnlyFieldIsDescribedInTheAPIDocument() throws {
        let staffNote = Self.reference.replacingOccurrences(
            of: "{ name: note, type: string, max: 200, optional: true }",
            with: "{ name: note, type: string, max: 200, optional: true, admin_only: true }")
        #expect(staffNote != Self.reference)
        let root = try Self.repository(["Wishlist": staffNote])
        let run = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(run.exitCode == 0, "\(run.errors)")
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/HTTP/Resources/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        for name in ["WishlistEntryCreate", "WishlistEntryPatch"] {
            let properties = (schemas?[name] as? [String: Any])?["properties"] as? [String: Any]
            let note = properties?["note"] as? [String: Any]
            #expect((note?["description"] as? String)?.hasPrefix("Written by staff") == true, "\(name): \(String(describing: note))")
            #expect((properties?["priority"] as? [String: Any])?["description"] == nil)
        }
    }

    /// A 422 outcome with members is one of the route's 422s: the input's own refusal, a plain
    /// problem naming fields, is the other. Described as the outcome's alone, a client generated
    /// from the document could not decode a refused input.
    @Test func aRoutes422IsAlsoThePlainProblemOfItsInput() throws {
        let spec = Self.reference.replacingOccurrences(
            of: "      - { name: not_found, status: 404 }\n",
            with:
                "      - { name: not_found, status: 404 }\n      - { name: too_long, status: 422, body: [ { name: limit, type: int } ] }\n")
        #expect(spec != Self.reference)
        let root = try Self.repository(["Wishlist": spec])
        let run = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(run.exitCode == 0, "\(run.errors)")
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/HTTP/Resources/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let share = ((document["paths"] as? [String: Any])?["/v1/wishlist/{id}/share"] as? [String: Any])?["post"] as? [String: Any]
        let refused = ((share?["responses"] as? [String: Any])?["422"] as? [String: Any])?["content"] as? [String: Any]
        let schema = (refused?["application/problem+json"] as? [String: Any])?["schema"] as? [String: Any]
        let alternatives = try #require(schema?["anyOf"] as? [[String: Any]], "\(String(describing: schema))")
        #expect(alternatives.contains { $0["$ref"] as? String == "#/components/schemas/Problem" })
        #expect(alternatives.contains { $0["allOf"] != nil })
    }

    /// A body no route takes is not in the API document: without an update route, no `Patch`.
    @Test func theAPIDocumentDescribesOnlyTheBodiesRoutesTake() throws {
        let noUpdate = Self.reference.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("kind: update") }.joined(separator: "\n")
        #expect(noUpdate != Self.reference)
        let root = try Self.repository(["Wishlist": noUpdate])
        let run = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(run.exitCode == 0, "\(run.errors)")
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/HTTP/Resources/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        #expect(schemas["WishlistEntryCreate"] != nil && schemas["WishlistEntryPatch"] == nil)
    }

    @Test func dryRunWritesNothingAndSaysWhatWouldHappen() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        let before = try Self.snapshot(root)
        let outcome = Workspace(root: root).run(specPaths: ["Specs/Wishlist.yml"], mode: .dryRun)
        #expect(outcome.exitCode == 0)
        #expect(try Self.snapshot(root) == before)
        #expect(outcome.lines.contains { $0.hasPrefix("create") && $0.hasSuffix("Sources/Domain/Wishlist/WishlistEntry.swift") })
    }

    @Test func checkFailsWithADiffOnMissingStaleOrEditedFiles() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        let missing = Workspace(root: root).run(specPaths: [], mode: .check)
        #expect(missing.exitCode != 0)
        #expect(missing.lines.contains { $0.contains("--- /dev/null\n+++ b/Sources/Domain/Wishlist/WishlistEntry.swift") })

        _ = Workspace(root: root).run(specPaths: [], mode: .write)
        // The spec changes: the generated files are stale.
        let changed = try Self.widenNote(root)
        let stale = Workspace(root: root).run(specPaths: [], mode: .check)
        #expect(stale.exitCode != 0)
        #expect(
            stale.lines.contains { $0.contains("-        let valid = length <= 200") && $0.contains("+        let valid = length <= 300") })
        #expect(try Self.snapshot(root)["Specs/Wishlist.yml"] == changed, "check writes nothing")
    }

    /// A hand-written file where scenegen would write one (a scene converted to a spec, its old
    /// code still in place) is someone's work: the run stops and names it.
    @Test func aFileScenegenDidNotWriteIsNeverOverwritten() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        let path = root.appendingPathComponent("Sources/UseCase/Wishlist/WishlistUseCase.swift")
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "// my own use case\n".write(to: path, atomically: true, encoding: .utf8)

        let refused = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(refused.exitCode != 0)
        #expect(
            refused.errors.contains {
                $0.hasPrefix("Sources/UseCase/Wishlist/WishlistUseCase.swift: error: a file scenegen did not write is where it writes")
            }, "\(refused.errors)")
        #expect(try String(contentsOf: path, encoding: .utf8) == "// my own use case\n")
        #expect(Workspace(root: root).run(specPaths: [], mode: .write, force: true).exitCode == 0)
    }

    @Test func aHandEditedGeneratedFileStopsTheRunAndIsNamed() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        _ = Workspace(root: root).run(specPaths: [], mode: .write)
        let path = root.appendingPathComponent("Sources/UseCase/Wishlist/WishlistUseCase.swift")
        try (try String(contentsOf: path, encoding: .utf8) + "// my fix\n").write(to: path, atomically: true, encoding: .utf8)
        let changed = try Self.widenNote(root)
        let before = try Self.snapshot(root)

        let refused = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(refused.exitCode != 0)
        #expect(
            refused.errors.contains {
                $0.hasPrefix("Sources/UseCase/Wishlist/WishlistUseCase.swift: error: generated file was edited by hand")
            })
        #expect(try Self.snapshot(root) == before, "nothing written")

        #expect(Workspace(root: root).run(specPaths: [], mode: .write, force: true).exitCode == 0)
        #expect(try String(contentsOf: path, encoding: .utf8).contains("// my fix") == false)
    }

    /// The API document is plain JSON (no room for the ownership line): its sidecar holds the line
    /// with the document's checksum, so a hand edit of the document is noticed all the same.
    @Test func aHandEditedAPIDocumentStopsTheRunAndIsNamed() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        _ = Workspace(root: root).run(specPaths: [], mode: .write)
        let path = root.appendingPathComponent("Sources/HTTP/Resources/openapi.json")
        let written = try Data(contentsOf: path)
        #expect(try JSONSerialization.jsonObject(with: written) is [String: Any], "the document is JSON, nothing before it")
        try String(decoding: written, as: UTF8.self).replacingOccurrences(of: "\"Storefront\"", with: "\"Mine\"")
            .write(to: path, atomically: true, encoding: .utf8)
        let changed = try Self.widenNote(root)

        let refused = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(refused.exitCode != 0)
        #expect(
            refused.errors == [
                "Sources/HTTP/Resources/openapi.json: error: generated file was edited by hand; "
                    + "move the change into the spec or a once-file, or rerun with --force to overwrite it"
            ])

        #expect(Workspace(root: root).run(specPaths: [], mode: .write, force: true).exitCode == 0)
        #expect(try String(contentsOf: path, encoding: .utf8).contains("\"Mine\"") == false)
        #expect(Workspace(root: root).run(specPaths: [], mode: .check).exitCode == 0)
    }

    /// A generated file its sidecar describes goes with the sidecar when no spec produces it, as an
    /// older run's generated Swift file does.
    @Test func staleGeneratedFilesAndSidecarsAreDeleted() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        _ = Workspace(root: root).run(specPaths: [], mode: .write)
        let resources = root.appendingPathComponent("Sources/HTTP/Resources")
        let sidecar = try String(contentsOf: resources.appendingPathComponent("openapi.json.scenegen"), encoding: .utf8)
        try "{}\n".write(to: resources.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try sidecar.write(to: resources.appendingPathComponent("old.json.scenegen"), atomically: true, encoding: .utf8)
        let swift = root.appendingPathComponent("Sources/HTTP/App/OpenAPIDocument.swift")
        try "// generated by scenegen from Specs/*.yml; do not edit (checksum 0000000000000000)\nenum OpenAPIDocument {}\n"
            .write(to: swift, atomically: true, encoding: .utf8)
        #expect(Workspace(root: root).run(specPaths: [], mode: .check).exitCode != 0)

        #expect(Workspace(root: root).run(specPaths: [], mode: .write).exitCode == 0)
        let files = try Self.snapshot(root)
        #expect(files["Sources/HTTP/Resources/old.json"] == nil && files["Sources/HTTP/Resources/old.json.scenegen"] == nil)
        #expect(files["Sources/HTTP/App/OpenAPIDocument.swift"] == nil)
        #expect(files["Sources/HTTP/Resources/openapi.json"] != nil && files["Sources/HTTP/Resources/openapi.json.scenegen"] != nil)
    }

    @Test func onceFilesAreNeverRewritten() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        _ = Workspace(root: root).run(specPaths: [], mode: .write)
        let path = root.appendingPathComponent("Sources/UseCase/Wishlist/WishlistUseCase+Share.swift")
        try "// once: mine\n".write(to: path, atomically: true, encoding: .utf8)
        let outcome = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(outcome.exitCode == 0)
        #expect(try String(contentsOf: path, encoding: .utf8) == "// once: mine\n")
        #expect(Workspace(root: root).run(specPaths: [], mode: .check).exitCode == 0)
    }

    @Test func aRemovedSpecsGeneratedFilesAreDeleted() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        _ = Workspace(root: root).run(specPaths: [], mode: .write)
        try FileManager.default.removeItem(at: root.appendingPathComponent("Specs/Wishlist.yml"))
        #expect(Workspace(root: root).run(specPaths: [], mode: .check).exitCode != 0)
        _ = Workspace(root: root).run(specPaths: [], mode: .write)
        let files = try Self.snapshot(root)
        #expect(files["Sources/Domain/Wishlist/WishlistEntry.swift"] == nil)
        #expect(files["Sources/UseCase/Wishlist/WishlistUseCase+Share.swift"] != nil, "once-files stay")
        #expect(files["Sources/HTTP/App/SceneRegistry.swift"]?.contains("WishlistRoutes") == false)
    }

    @Test func everyErrorOfEverySpecIsReportedAndNothingWritten() throws {
        let bad = Self.reference.replacingOccurrences(of: "type: int, min: 1, max: 5", with: "type: int, min: 9, max: 5")
            .replacingOccurrences(of: "gateways: [ShareLinks]", with: "gateways: [Nope]")
        let root = try Self.repository(["Wishlist": bad, "Other": "scene: Other\nsummary: [unclosed\n"])
        let before = try Self.snapshot(root)
        let outcome = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(outcome.exitCode != 0)
        #expect(try Self.snapshot(root) == before)
        #expect(outcome.errors.contains { $0.hasPrefix("Specs/Wishlist.yml:11:") && $0.contains("error: min (9) is greater than max (5)") })
        #expect(outcome.errors.contains { $0.hasPrefix("Specs/Wishlist.yml:") && $0.contains("gateway 'Nope' is not declared") })
        #expect(outcome.errors.contains { $0.hasPrefix("Specs/Other.yml:") && $0.contains("YAML syntax") })
    }

    @Test func routesMayNotClashAcrossSpecs() throws {
        let other = Self.reference.replacingOccurrences(of: "scene: Wishlist", with: "scene: Saved")
            .replacingOccurrences(of: "name: WishlistEntry", with: "name: SavedEntry")
            .replacingOccurrences(of: "table: wishlist_entries", with: "table: saved_entries")
        let root = try Self.repository(["Wishlist": Self.reference, "Saved": other])
        let outcome = Workspace(root: root).run(specPaths: [], mode: .dryRun)
        #expect(outcome.exitCode != 0)
        #expect(outcome.errors.contains { $0.contains("route POST /v1/wishlist clashes with POST /v1/wishlist of Specs/") })
    }

    /// An unquoted comma inside `{ }` in the hand-written fragment makes a member without a value
    /// (`newest first: null`), which a client generator refuses: named, nothing written.
    @Test func aMemberWithoutAValueInTheHandWrittenFragmentIsRefused() throws {
        let root = try Self.repository(["Wishlist": Self.reference])
        let fragment = root.appendingPathComponent("Specs/OpenAPI/handwritten.yml")
        try (try String(contentsOf: fragment, encoding: .utf8))
            .replacingOccurrences(of: "{ description: The items. }", with: "{ description: The items, newest first }")
            .write(to: fragment, atomically: true, encoding: .utf8)
        let outcome = Workspace(root: root).run(specPaths: [], mode: .dryRun)
        #expect(outcome.exitCode != 0)
        #expect(
            outcome.errors.contains {
                $0.contains("'paths > /v1/items > get > responses > 200 > newest first' has no value")
            }, "\(outcome.errors)")
    }

    /// Rows nested under rows customers own are owned too, and reached only with a session: a
    /// spec without `owner`, or with a public route, let anyone write under any customer's row.
    @Test func rowsUnderRowsCustomersOwnAreOwnedAndGuarded() throws {
        let notes = """
            scene: WishNote
            summary: Notes on wishlist entries.
            entity:
              name: WishNote
              table: wish_notes
              fields:
                - { name: id, type: uuid, primary: true }
                - { name: entry_id, type: uuid, references: wishlist_entries, readonly: true }
                - { name: text, type: string, max: 100 }
                - { name: created_at, type: timestamp, default: now, readonly: true }
            useCases:
              - { name: add,  kind: create, route: "POST /v1/wishlist/{entry_id}/notes", auth: public }
              - { name: list, kind: list,   route: "GET /v1/wishlist/{entry_id}/notes",  auth: customer }

            """
        let root = try Self.repository(["Wishlist": Self.reference, "WishNote": notes])
        let errors = Workspace(root: root).run(specPaths: [], mode: .dryRun).errors
        #expect(
            errors.contains {
                $0.hasPrefix("Specs/WishNote.yml:8:")
                    && $0.contains("nested under 'wishlist_entries', whose rows customers own: give the entity `owner: customer`")
            }, "\(errors)")
        #expect(
            errors.contains { $0.hasPrefix("Specs/WishNote.yml:12:") && $0.contains("POST /v1/wishlist/{entry_id}/notes is public") },
            "\(errors)")
    }

    /// A reference to a table no spec describes would leave the generated tests unable to make
    /// the row it points at: refused, naming the tables there are.
    @Test func aReferenceToATableOfNoSpecIsRefused() throws {
        let dangling = Self.reference.replacingOccurrences(of: "references: items", with: "references: vendors")
        let root = try Self.repository(["Wishlist": dangling])
        let outcome = Workspace(root: root).run(specPaths: [], mode: .dryRun)
        #expect(outcome.exitCode != 0)
        #expect(
            outcome.errors.contains {
                $0.contains("Specs/Wishlist.yml:9:")
                    && $0.contains(
                        "references 'vendors', which is the table of no spec (known: customers, items, reviews, wishlist_entries)")
            })
    }

    /// New specs' tables are created parents first: numbered by the specs' names, a blind spec
    /// writer's opening hours (`PickupHours`) came before the locations they refer to and the
    /// migration failed on the missing table.
    @Test func aNewTableIsCreatedAfterTheTablesItRefersTo() throws {
        let parent = """
            scene: Zone
            summary: Zones.
            entity:
              name: Zone
              table: zones
              fields:
                - { name: id, type: uuid, primary: true }
                - { name: name, type: string, max: 80 }
            useCases:
              - { name: add, kind: create, route: "POST /v1/admin/zones", auth: admin }
            """
        let child = """
            scene: Alarm
            summary: Alarms of a zone.
            entity:
              name: Alarm
              table: alarms
              fields:
                - { name: id, type: uuid, primary: true }
                - { name: zone_id, type: uuid, references: zones }
            useCases:
              - { name: add, kind: create, route: "POST /v1/admin/alarms", auth: admin }
            """
        let root = try Self.repository(["Alarm": child, "Zone": parent])
        let outcome = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        let files = try Self.snapshot(root)
        #expect(
            files["Migrations/0002_create_zones.sql"] != nil && files["Migrations/0003_create_alarms.sql"] != nil, "\(files.keys.sorted())")
    }

    /// A schema the document refers to, plainly or as an optional member's `Nullable<Name>`, is
    /// declared by a spec or by the hand-written fragment's components, or the run stops.
    @Test func aSchemaNoOneDeclaresIsRefused() throws {
        let root = try Self.repository(["Board": ModelSpecTests.board])
        let fragment = root.appendingPathComponent("Specs/OpenAPI/handwritten.yml")
        let text = try String(contentsOf: fragment, encoding: .utf8)
        try String(text[..<text.range(of: "components:")!.lowerBound]).write(to: fragment, atomically: true, encoding: .utf8)
        let errors = Workspace(root: root).run(specPaths: [], mode: .dryRun).errors
        #expect(errors.contains { $0.contains("refers to the schema Item,") }, "\(errors)")
        #expect(errors.contains { $0.contains("refers to the schema NullableItem,") }, "\(errors)")
    }

    /// A generated route nested under a hand-written one's place takes the name the router has
    /// there: Hummingbird keeps one parameter name per place and stops the server at start when
    /// two differ (`/v1/items/{id}` of the items, `/v1/items/{item_id}/notes` of the notes).
    @Test func aRouteUnderAHandWrittenPlaceTakesTheRoutersName() throws {
        let notes = """
            scene: Note
            summary: Notes on items.
            entity:
              name: Note
              table: notes
              owner: customer
              fields:
                - { name: id, type: uuid, primary: true }
                - { name: item_id, type: uuid, references: items, readonly: true }
                - { name: text, type: string, max: 80 }
            useCases:
              - { name: add, kind: create, route: "POST /v1/items/{item_id}/notes", auth: customer }
              - { name: show, kind: get, route: "GET /v1/items/{item_id}/notes/{id}", auth: customer }
            """
        let root = try Self.repository(["Note": notes])
        let outcome = Workspace(root: root).run(specPaths: [], mode: .write)
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        let routes = try #require(try Self.snapshot(root)["Sources/HTTP/Note/NoteRoutes.swift"])
        #expect(routes.contains("routers.customer.post(\"/v1/items/:id/notes\")"))
        #expect(routes.contains("routers.customer.get(\"/v1/items/:id/notes/:id4\")"))
        #expect(routes.contains("RequestParsing.uuid(\"item_id\", in: context, routed: \"id\")"))
        #expect(routes.contains("RequestParsing.uuid(\"id\", in: context, routed: \"id4\")"))
    }

    /// Many specs: each is reported as it is read, and all are written. (How fast is measured by
    /// `Benchmarks/scenegen`, not here.)
    @Test func progressIsShownForEverySpec() throws {
        let root = try Self.repository(Self.fiftySpecs)
        var progress: [String] = []
        let outcome = Workspace(root: root).run(specPaths: [], mode: .write) { progress.append($0) }
        #expect(outcome.exitCode == 0, "\(outcome.errors.prefix(3))")
        // The 50 and the items' hand-written spec, in name order.
        #expect(progress.count == 51 && progress.first == "[1/51] Specs/Item.yml" && progress[1] == "[2/51] Specs/Scene0.yml")
        #expect(outcome.lines.last?.hasPrefix("scenegen: 51 spec(s)") == true)
    }

    /// 50 variations of the reference spec, each with its own names, table and routes.
    static var fiftySpecs: [String: String] {
        var specs: [String: String] = [:]
        for index in 0..<50 {
            let name = "Scene\(index)"
            specs[name] = reference.replacingOccurrences(of: "scene: Wishlist", with: "scene: \(name)")
                .replacingOccurrences(of: "name: WishlistEntry", with: "name: Entry\(index)")
                .replacingOccurrences(of: "table: wishlist_entries", with: "table: entries_\(index)")
                .replacingOccurrences(of: "/v1/wishlist", with: "/v1/list\(index)")
        }
        return specs
    }
}

@Suite("scenegen: unified diff")
struct UnifiedDiffTests {
    @Test func showsChangedLinesWithContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        let diff = UnifiedDiff.render(old: old, new: new, oldName: "a/f", newName: "b/f")
        #expect(
            diff == """
                --- a/f
                +++ b/f
                @@ -2,7 +2,7 @@
                 line 2
                 line 3
                 line 4
                -line 5
                +line five
                 line 6
                 line 7
                 line 8

                """)
        #expect(UnifiedDiff.render(old: old, new: old, oldName: "a", newName: "b").isEmpty)
    }

    @Test func aNewFileIsAllAdditions() {
        let diff = UnifiedDiff.render(old: "", new: "a\nb\n", oldName: "/dev/null", newName: "b/f")
        #expect(diff == "--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n")
    }
}

/// The whole output for the reference spec (the Wishlist, with a custom use case over
/// an http gateway) is committed under `Reference/Wishlist/`, so a change of any renderer shows
/// up as a reviewed diff. `SCENEGEN_RECORD=1` rewrites it.
@Suite("scenegen: reference output")
struct ReferenceOutputTests {
    @Test func matchesTheCommittedReferenceOutput() throws {
        let root = try WorkspaceTests.repository(["Wishlist": WorkspaceTests.reference])
        #expect(Workspace(root: root).run(specPaths: [], mode: .write).exitCode == 0)
        var produced = try WorkspaceTests.snapshot(root)
        produced = produced.filter { !$0.key.hasPrefix("Specs/") && $0.key != "Migrations/0001_catalog.sql" }
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reference/Wishlist")
        if ProcessInfo.processInfo.environment["SCENEGEN_RECORD"] == "1" {
            try? FileManager.default.removeItem(at: directory)
            for (path, contents) in produced {
                let url = directory.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try contents.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        let committed = try WorkspaceTests.snapshot(directory)
        #expect(Set(committed.keys) == Set(produced.keys))
        for (path, contents) in produced {
            let diff = UnifiedDiff.render(
                old: committed[path] ?? "", new: contents, oldName: "committed/\(path)", newName: "produced/\(path)")
            #expect(diff.isEmpty, "\(diff)")
        }
    }
}
