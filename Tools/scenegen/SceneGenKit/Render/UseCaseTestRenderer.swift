/// Unit tests of a scene's CRUD use cases on its mocks, through the scene container.
enum UseCaseTestRenderer {
    /// The once-file giving the generated tests the scene's hand-written ports, which scenegen
    /// cannot make: an optional one is nil, each other a marked place (`#error`, so the build
    /// names it) for a mock of the user's. The CRUD use cases those tests call never use them.
    static func testPorts(_ names: SceneNames) -> String {
        var out = CodeWriter()
        out.lines(["import Domain", "import MockSupport", ""])
        out.doc(
            """
            The \(names.scene) scene's hand-written ports as its generated use-case tests hold them.
            Those tests call the CRUD use cases alone, which never use the ports: give each a
            stand-in (a mock that fails on any call, as Tests/MockSupport's do, or a fixed value).
            """)
        out.block("extension \(names.scene)GeneratedUseCaseTests") { out in
            for (index, port) in names.spec.ports.enumerated() {
                if index > 0 { out.blank() }
                out.block("static var \(names.portProperty(port)): \(names.portType(port))") { out in
                    if port.optional {
                        out.line("nil")
                    } else {
                        out.line("// scenegen: this file is yours; scenegen never touches it again.")
                        out.line("#error(\"scenegen: give the generated tests their `\(names.portProperty(port))` (\(port.type)) here\")")
                    }
                }
            }
        }
        return out.text
    }

    static func tests(_ names: SceneNames) -> String {
        let e = names.entity
        let uc = "Self.useCase(store)"
        // Every call is made in the scope of the stored records: their owner (when the use case
        // acts for the owner), under their parent.
        func ownerArgument(_ useCase: UseCaseSpec) -> String {
            (names.actsForOwner(useCase) ? "customerID: Self.owner, " : "")
                + (names.parent.map { "\($0.bareProperty): Self.parent, " } ?? "")
        }
        /// The scope the store is called with, as the mock records it.
        func ownerCall(_ useCase: UseCaseSpec) -> String {
            (names.owned ? (names.actsForOwner(useCase) ? "Self.owner, " : "nil, ") : "") + (names.parent != nil ? "Self.parent, " : "")
        }
        var containerArguments = ["store: store"]
        // The hand-written ports, from the user's once-file (`testPorts`).
        containerArguments += names.spec.ports.map { "\(names.portProperty($0)): Self.\(names.portProperty($0))" }
        for gateway in names.spec.gateways {
            containerArguments.append("\(names.gatewayProperty(gateway)): Mock\(names.gatewayPort(gateway))()")
        }
        if names.checksShopCurrency { containerArguments.append("shopCurrency: Fixtures.yen") }
        containerArguments.append("system: Fixtures.system")
        var arguments: [String] = []
        for (position, field) in names.fields.enumerated() {
            arguments.append("\(field.bareProperty): " + (field.name == names.parent?.name ? "parent" : storedValue(field)))
            if position == 0 && names.owned { arguments.append("customerID: owner") }
        }
        let notFound = "RecordError.notFound(entity: \(swiftString(UseCaseRenderer.humanName(e))), id: Self.record(2).id)"
        var out = CodeWriter()
        out.lines(["import Domain", "import Foundation", "import MockSupport", "import Scenes", "import Testing", "import UseCase", ""])
        out.line("@Suite(\"\(names.scene) use cases (generated)\")")
        out.block("struct \(names.scene)GeneratedUseCaseTests") { out in
            if names.owned { out.line("static let owner = Fixtures.id(900)") }
            if names.parent != nil { out.line("static let parent = Fixtures.id(902)") }
            out.line("static let reference = Fixtures.id(901)")
            out.blank()
            out.block("static func useCase(_ store: Mock\(names.store)) -> \(names.useCase)") {
                $0.line("\(names.container)(\(containerArguments.joined(separator: ", "))).useCase")
            }
            out.blank()
            out.doc("A stored record, `index` seconds older than the fixed now.")
            out.block("static func record(_ index: Int) -> \(e)") { out in
                out.list("\(e)(", arguments)
            }
            if names.drafts {
                let sent = names.writable.filter(\.sentInSamples)
                let draft = sent.map { "\($0.bareProperty): \(Samples.input($0, reference: "Self.reference"))" }
                out.blank()
                out.line("static let draft = \(names.draft)(\(draft.joined(separator: ", ")))")
            }
            if let create = names.useCases(.create).first {
                createTests(names, create, uc: uc, ownerArgument: ownerArgument(create), into: &out)
            }
            for list in names.useCases(.list) {
                let call = names.method(list)
                // The filter a call without filter values passes on, as the mock records it.
                let noFilter = names.filterFields.isEmpty ? "" : "\(names.filter)(), "
                let filterParameter = names.filterFields.isEmpty ? "" : "_, "
                out.blank()
                out.block("@Test func \(Names.camelCase(list.name))PagesNewestFirstWithACursor() async throws") { out in
                    out.line(
                        "let store = Mock\(names.store) { $0.page = { \(names.scopeClosureParameter)\(filterParameter)_, _ in [Self.record(1), Self.record(2)] } }"
                    )
                    out.line("let page = try await \(uc).\(call)(\(ownerArgument(list))limit: 1, cursor: nil)")
                    out.line("#expect(page.items == [Self.record(1)])")
                    out.line("#expect(page.nextCursor == PageCursor(createdAt: Self.record(1).createdAt, id: Self.record(1).id))")
                    out.line("#expect(store.calls == [.page(\(ownerCall(list))\(noFilter)nil, 2)])")
                    out.line("let next = try #require(page.nextCursor)")
                    out.line("_ = try await \(uc).\(call)(\(ownerArgument(list))limit: nil, cursor: next.token)")
                    out.line("#expect(store.calls.last == .page(\(ownerCall(list))\(noFilter)next, \((list.page ?? 20) + 1)))")
                }
                refusal(
                    "\(Names.camelCase(list.name))RefusesABadLimitOrCursor", names,
                    call: "try await \(uc).\(call)(\(ownerArgument(list))limit: 0, cursor: \"not a cursor\")",
                    fields: ["\"limit\"", "\"cursor\""],
                    into: &out)
                let checked = names.fields.filter { field in
                    guard list.filters.contains(field.name) else { return false }
                    if case .string = field.field.type { return false }
                    return true
                }
                if !checked.isEmpty {
                    let values = checked.map { ", \($0.bareProperty): \"not a value\"" }.joined()
                    refusal(
                        "\(Names.camelCase(list.name))RefusesFilterValuesItsFieldsCannotHold", names,
                        call: "try await \(uc).\(call)(\(ownerArgument(list))limit: nil, cursor: nil\(values))",
                        fields: checked.map { swiftString($0.name) },
                        into: &out)
                }
            }
            for get in names.useCases(.get) {
                let call = names.method(get)
                out.blank()
                out.block("@Test func \(Names.camelCase(get.name))FindsTheRecordOrAnswersNotFound() async throws") { out in
                    out.line(
                        "let store = Mock\(names.store) { $0.find = { \(names.scopeClosureParameter)id in id == Self.record(1).id ? Self.record(1) : nil } }"
                    )
                    out.line("#expect(try await \(uc).\(call)(\(ownerArgument(get))id: Self.record(1).id) == Self.record(1))")
                    out.block("await #expect(throws: \(notFound))") {
                        $0.line("try await \(uc).\(call)(\(ownerArgument(get))id: Self.record(2).id)")
                    }
                    out.line(
                        "#expect(store.calls == [.find(\(ownerCall(get))Self.record(1).id), .find(\(ownerCall(get))Self.record(2).id)])")
                }
            }
            for update in names.useCases(.update) {
                updateTests(names, update, uc: uc, ownerArgument: ownerArgument(update), ownerCall: ownerCall(update), into: &out)
            }
            for replace in names.useCases(.replace) {
                replaceTests(names, replace, uc: uc, ownerArgument: ownerArgument(replace), ownerCall: ownerCall(replace), into: &out)
            }
            for delete in names.useCases(.delete) {
                let call = names.method(delete)
                out.blank()
                out.block("@Test func \(Names.camelCase(delete.name))DeletesOrAnswersNotFound() async throws") { out in
                    out.line(
                        "let store = Mock\(names.store) { $0.delete = { \(names.scopeClosureParameter)id in id == Self.record(1).id } }")
                    out.line("try await \(uc).\(call)(\(ownerArgument(delete))id: Self.record(1).id)")
                    out.block("await #expect(throws: \(notFound))") {
                        $0.line("try await \(uc).\(call)(\(ownerArgument(delete))id: Self.record(2).id)")
                    }
                    out.line(
                        "#expect(store.calls == [.delete(\(ownerCall(delete))Self.record(1).id), .delete(\(ownerCall(delete))Self.record(2).id)])"
                    )
                }
            }
        }
        return out.text
    }

    /// A test that `call` throws a `ValidationError` naming `fields` (Swift string literals) and
    /// that the store is never called.
    private static func refusal(_ test: String, _ names: SceneNames, call: String, fields: [String], into out: inout CodeWriter) {
        out.blank()
        out.block("@Test func \(test)() async throws") { out in
            out.line("let store = Mock\(names.store)()")
            out.block("let error = await #expect(throws: ValidationError.self)") { $0.line(call) }
            out.line("#expect(error?.fields.map(\\.field) == [\(fields.joined(separator: ", "))])")
            out.line("#expect(store.calls.isEmpty)")
        }
    }

    /// The entity value of what the samples send for `field`.
    private static func sentValue(_ field: SwiftField) -> String {
        guard case .enumeration(let values) = field.field.type else { return Samples.input(field, reference: "Self.reference") }
        return ".\(SceneNames.identifier(Names.caseName(Samples.enumValue(field.field, values))))"
    }

    /// The entity value of a stored sample record.
    private static func storedValue(_ field: SwiftField) -> String {
        let f = field.field
        if f.primary { return "Fixtures.id(index)" }
        if f.name == "created_at" && f.type == .timestamp { return "Fixtures.now.addingTimeInterval(-Double(index))" }
        if f.optional { return "nil" }
        switch f.type {
        case .money: return "Money(amount: \(Samples.integer(f, preferring: 100)), currency: Fixtures.yen)"
        case .enumeration(let values): return ".\(SceneNames.identifier(Names.caseName(Samples.enumValue(f, values))))"
        default: return Samples.input(field, reference: "reference")
        }
    }

    private static func createTests(
        _ names: SceneNames, _ create: UseCaseSpec, uc: String, ownerArgument: String, into out: inout CodeWriter
    ) {
        let call = "try await \(uc).\(names.method(create))(\(ownerArgument)"
        out.blank()
        out.block("@Test func \(Names.camelCase(create.name))StoresTheCheckedRecordWithItsDefaults() async throws") { out in
            out.line("let store = Mock\(names.store) { $0.insert = { $0 } }")
            out.line("let saved = \(call)Self.draft)")
            out.line("#expect(saved.id == Fixtures.fixedID)")
            if names.owned { out.line("#expect(saved.customerID == Self.owner)") }
            if let parent = names.parent { out.line("#expect(saved.\(parent.property) == Self.parent)") }
            for field in names.fields where !field.field.primary {
                if field.sentInSamples, field.field.defaultValue != nil, field.field.example != nil {
                    out.line("#expect(saved.\(field.property) == \(sentValue(field)), \"the example the draft sends, not the default\")")
                } else if field.field.defaultValue == .now {
                    out.line("#expect(saved.\(field.property) == Fixtures.now)")
                } else if let literal = field.defaultLiteral {
                    out.line("#expect(saved.\(field.property) == \(literal))")
                } else if field.field.optional && !field.sentInSamples {
                    out.line("#expect(saved.\(field.property) == nil)")
                }
            }
            out.line("#expect(store.calls == [.insert(saved)])")
        }
        if let parent = names.parent, let label = names.parentLabel {
            out.blank()
            out.block("@Test func \(Names.camelCase(create.name))UnderAnUnknownParentAnswersNotFound() async throws") { out in
                out.line(
                    "let store = Mock\(names.store) { $0.insert = { _ in throw RecordError.missingReference(field: \(swiftString(parent.name))) } }"
                )
                out.block("await #expect(throws: RecordError.notFound(entity: \(swiftString(label)), id: Self.parent))") {
                    $0.line("\(call)Self.draft)")
                }
            }
        }
        if create.auth != .admin, let field = names.writable.first(where: \.field.adminOnly) {
            let value = Samples.input(field, reference: "Self.reference")
            draftRefusal(
                "\(Names.camelCase(create.name))RefusesAFieldStaffWrite", names, field, value, call: call, errorField: field.name,
                into: &out)
        }
        if let (field, bad) = names.writable.lazy.compactMap({ field in Samples.invalid(field).map { (field, $0) } }).first {
            draftRefusal(
                "\(Names.camelCase(create.name))RefusesAnInvalidFieldAndStoresNothing", names, field, bad.input, call: call,
                errorField: bad.errorField, into: &out)
        }
        if let field = names.writable(by: create).first(where: \.field.shopCurrency) {
            draftRefusal(
                "\(Names.camelCase(create.name))RefusesAnotherCurrencyThanTheShops", names, field, Samples.foreignMoney(field.field),
                call: call,
                errorField: "\(field.name).currency", into: &out)
        }
    }

    /// A test that creating from the draft with `field` set to `value` throws a `ValidationError`
    /// naming `errorField` and stores nothing.
    private static func draftRefusal(
        _ test: String, _ names: SceneNames, _ field: SwiftField, _ value: String, call: String, errorField: String,
        into out: inout CodeWriter
    ) {
        out.blank()
        out.block("@Test func \(test)() async throws") { out in
            out.line("let store = Mock\(names.store)()")
            out.line("var draft = Self.draft")
            out.line("draft.\(field.property) = \(value)")
            out.line("let error = await #expect(throws: ValidationError.self) { \(call)draft) }")
            out.line("#expect(error?.fields.map(\\.field) == [\(swiftString(errorField))])")
            out.line("#expect(store.calls.isEmpty)")
        }
    }

    private static func updateTests(
        _ names: SceneNames, _ update: UseCaseSpec, uc: String, ownerArgument: String, ownerCall: String, into out: inout CodeWriter
    ) {
        let call = "try await \(uc).\(names.method(update))(\(ownerArgument)id: Self.record(1).id, "
        if let (field, other) = names.writable(by: update).lazy.compactMap({ field in Samples.other(field).map { (field, $0) } }).first {
            out.blank()
            out.block("@Test func \(Names.camelCase(update.name))PassesOnlyTheCheckedChanges() async throws") { out in
                out.line("let store = Mock\(names.store) { $0.update = { \(names.scopeClosureParameter)_, _ in Self.record(1) } }")
                out.line("_ = \(call)\(names.changes)(\(field.bareProperty): \(other.input)))")
                out.line(
                    "#expect(store.calls == [.update(\(ownerCall)Self.record(1).id, \(names.patch)(\(field.bareProperty): \(other.value)))])"
                )
            }
        }
        if update.auth != .admin, let field = names.removableFields.first(where: \.field.adminOnly) {
            // Removing is writing: a customer's null erased what staff wrote.
            refusal(
                "\(Names.camelCase(update.name))RefusesRemovingAFieldStaffWrite", names,
                call: "\(call)\(names.changes)(removing: [.\(field.property)]))", fields: [swiftString(field.name)], into: &out)
        }
        if let field = names.writable(by: update).first(where: \.field.shopCurrency) {
            refusal(
                "\(Names.camelCase(update.name))RefusesAnotherCurrencyThanTheShops", names,
                call: "\(call)\(names.changes)(\(field.bareProperty): \(Samples.foreignMoney(field.field))))",
                fields: [swiftString("\(field.name).currency")], into: &out)
        }
        out.blank()
        out.block("@Test func \(Names.camelCase(update.name))RefusesAnEmptyChangeAndAnswersNotFound() async throws") { out in
            out.line("let store = Mock\(names.store) { $0.update = { \(names.scopeClosureParameter)_, _ in nil } }")
            out.block("let error = await #expect(throws: ValidationError.self)") { $0.line("\(call)\(names.changes)())") }
            out.line("#expect(error?.fields.map(\\.field) == [\"body\"])")
            out.line("#expect(store.calls.isEmpty)")
            if let field = names.writable(by: update).first {
                let sample = Samples.input(field, reference: "Self.reference")
                let notFound =
                    "RecordError.notFound(entity: \(swiftString(UseCaseRenderer.humanName(names.entity))), id: Self.record(1).id)"
                out.block("await #expect(throws: \(notFound))") { $0.line("\(call)\(names.changes)(\(field.bareProperty): \(sample)))") }
            }
        }
    }

    private static func replaceTests(
        _ names: SceneNames, _ replace: UseCaseSpec, uc: String, ownerArgument: String, ownerCall: String, into out: inout CodeWriter
    ) {
        let call = "try await \(uc).\(names.method(replace))(\(ownerArgument)id: Self.record(1).id, "
        let closure = "\(names.scopeClosureParameter)id, \(names.entityVariable)"
        out.blank()
        out.block("@Test func \(Names.camelCase(replace.name))WritesTheCheckedDraftOverTheRecord() async throws") { out in
            out.line("let store = Mock\(names.store) { $0.replace = { \(closure) in \(names.entityVariable) } }")
            out.line("let saved = \(call)Self.draft)")
            out.line("#expect(saved.id == Self.record(1).id)")
            if names.owned { out.line("#expect(saved.customerID == Self.owner)") }
            for field in names.writable {
                if field.sentInSamples, field.field.defaultValue != nil, field.field.example != nil {
                    out.line("#expect(saved.\(field.property) == \(sentValue(field)), \"the example the draft sends, not the default\")")
                } else if let literal = field.defaultLiteral {
                    out.line("#expect(saved.\(field.property) == \(literal))")
                } else if field.field.optional && !field.sentInSamples {
                    // Left out of the draft, an optional field is cleared.
                    out.line("#expect(saved.\(field.property) == nil)")
                }
            }
            out.line("#expect(store.calls == [.replace(\(ownerCall)Self.record(1).id, saved)])")
        }
        out.blank()
        out.block("@Test func \(Names.camelCase(replace.name))AnswersNotFound() async throws") { out in
            out.line("let store = Mock\(names.store) { $0.replace = { \(names.scopeClosureParameter)_, _ in nil } }")
            let notFound = "RecordError.notFound(entity: \(swiftString(UseCaseRenderer.humanName(names.entity))), id: Self.record(1).id)"
            out.block("await #expect(throws: \(notFound))") { $0.line("\(call)Self.draft)") }
        }
        if let (field, bad) = names.writable.lazy.compactMap({ field in Samples.invalid(field).map { (field, $0) } }).first {
            draftRefusal(
                "\(Names.camelCase(replace.name))RefusesAnInvalidFieldAndStoresNothing", names, field, bad.input, call: call,
                errorField: bad.errorField, into: &out)
        }
        if let field = names.writable(by: replace).first(where: \.field.shopCurrency) {
            draftRefusal(
                "\(Names.camelCase(replace.name))RefusesAnotherCurrencyThanTheShops", names, field, Samples.foreignMoney(field.field),
                call: call, errorField: "\(field.name).currency", into: &out)
        }
    }
}
