/// Unit tests of a scene's CRUD use cases on its mocks, through the scene container.
enum UseCaseTestRenderer {
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
        var out = "import Domain\nimport Foundation\nimport MockSupport\nimport Scenes\nimport Testing\nimport UseCase\n\n"
        out += "@Suite(\"\(names.scene) use cases (generated)\")\n"
        out += "struct \(names.scene)GeneratedUseCaseTests {\n"
        if names.owned { out += "    static let owner = Fixtures.id(900)\n" }
        if names.parent != nil { out += "    static let parent = Fixtures.id(902)\n" }
        out += "    static let reference = Fixtures.id(901)\n\n"
        var containerArguments = ["store: store"]
        for gateway in names.spec.gateways {
            containerArguments.append("\(names.gatewayProperty(gateway)): Mock\(names.gatewayPort(gateway))()")
        }
        containerArguments.append("system: Fixtures.system")
        out += "    static func useCase(_ store: Mock\(names.store)) -> \(names.useCase) {\n"
        out += "        \(names.container)(\(containerArguments.joined(separator: ", "))).useCase\n    }\n\n"

        // A stored record, `index` seconds older than now.
        out += "    /// A stored record, `index` seconds older than the fixed now.\n"
        out += "    static func record(_ index: Int) -> \(e) {\n        \(e)(\n"
        var arguments: [String] = []
        for (position, field) in names.fields.enumerated() {
            arguments.append("            \(field.bareProperty): " + (field.name == names.parent?.name ? "parent" : storedValue(field)))
            if position == 0 && names.owned { arguments.append("            customerID: owner") }
        }
        out += arguments.joined(separator: ",\n") + "\n        )\n    }\n"

        if let create = names.useCases(.create).first { out += createTests(names, create, uc: uc, ownerArgument: ownerArgument(create)) }
        if let list = names.useCases(.list).first {
            let call = names.method(list)
            // The filter a call without filter values passes on, as the mock records it.
            let noFilter = names.filterFields.isEmpty ? "" : "\(names.filter)(), "
            let filterParameter = names.filterFields.isEmpty ? "" : "_, "
            out += "\n    @Test func \(Names.camelCase(list.name))PagesNewestFirstWithACursor() async throws {\n"
            out +=
                "        let store = Mock\(names.store) { $0.page = { \(names.scopeClosureParameter)\(filterParameter)_, _ in [Self.record(1), Self.record(2)] } }\n"
            out += "        let page = try await \(uc).\(call)(\(ownerArgument(list))limit: 1, cursor: nil)\n"
            out += "        #expect(page.items == [Self.record(1)])\n"
            out += "        #expect(page.nextCursor == PageCursor(createdAt: Self.record(1).createdAt, id: Self.record(1).id))\n"
            out += "        #expect(store.calls == [.page(\(ownerCall(list))\(noFilter)nil, 2)])\n"
            out += "        let next = try #require(page.nextCursor)\n"
            out += "        _ = try await \(uc).\(call)(\(ownerArgument(list))limit: nil, cursor: next.token)\n"
            out += "        #expect(store.calls.last == .page(\(ownerCall(list))\(noFilter)next, \((list.page ?? 20) + 1)))\n"
            out += "    }\n"
            out += "\n    @Test func \(Names.camelCase(list.name))RefusesABadLimitOrCursor() async throws {\n"
            out += "        let store = Mock\(names.store)()\n"
            out += "        let error = await #expect(throws: ValidationError.self) {\n"
            out += "            try await \(uc).\(call)(\(ownerArgument(list))limit: 0, cursor: \"not a cursor\")\n        }\n"
            out += "        #expect(error?.fields.map(\\.field) == [\"limit\", \"cursor\"])\n"
            out += "        #expect(store.calls.isEmpty)\n    }\n"
            let checked = names.fields.filter { field in
                guard list.filters.contains(field.name) else { return false }
                if case .string = field.field.type { return false }
                return true
            }
            if !checked.isEmpty {
                let values = checked.map { ", \($0.bareProperty): \"not a value\"" }.joined()
                out += "\n    @Test func \(Names.camelCase(list.name))RefusesFilterValuesItsFieldsCannotHold() async throws {\n"
                out += "        let store = Mock\(names.store)()\n"
                out += "        let error = await #expect(throws: ValidationError.self) {\n"
                out += "            try await \(uc).\(call)(\(ownerArgument(list))limit: nil, cursor: nil\(values))\n        }\n"
                out += "        #expect(error?.fields.map(\\.field) == [\(checked.map { swiftString($0.name) }.joined(separator: ", "))])\n"
                out += "        #expect(store.calls.isEmpty)\n    }\n"
            }
        }
        if let get = names.useCases(.get).first {
            let call = names.method(get)
            out += "\n    @Test func \(Names.camelCase(get.name))FindsTheRecordOrAnswersNotFound() async throws {\n"
            out +=
                "        let store = Mock\(names.store) { $0.find = { \(names.scopeClosureParameter)id in id == Self.record(1).id ? Self.record(1) : nil } }\n"
            out += "        #expect(try await \(uc).\(call)(\(ownerArgument(get))id: Self.record(1).id) == Self.record(1))\n"
            out +=
                "        await #expect(throws: RecordError.notFound(entity: \(swiftString(UseCaseRenderer.humanName(e))), id: Self.record(2).id)) {\n"
            out += "            try await \(uc).\(call)(\(ownerArgument(get))id: Self.record(2).id)\n        }\n"
            out +=
                "        #expect(store.calls == [.find(\(ownerCall(get))Self.record(1).id), .find(\(ownerCall(get))Self.record(2).id)])\n    }\n"
        }
        if let update = names.useCases(.update).first {
            out += updateTests(names, update, uc: uc, ownerArgument: ownerArgument(update), ownerCall: ownerCall(update))
        }
        if let delete = names.useCases(.delete).first {
            let call = names.method(delete)
            out += "\n    @Test func \(Names.camelCase(delete.name))DeletesOrAnswersNotFound() async throws {\n"
            out +=
                "        let store = Mock\(names.store) { $0.delete = { \(names.scopeClosureParameter)id in id == Self.record(1).id } }\n"
            out += "        try await \(uc).\(call)(\(ownerArgument(delete))id: Self.record(1).id)\n"
            out +=
                "        await #expect(throws: RecordError.notFound(entity: \(swiftString(UseCaseRenderer.humanName(e))), id: Self.record(2).id)) {\n"
            out += "            try await \(uc).\(call)(\(ownerArgument(delete))id: Self.record(2).id)\n        }\n"
            out +=
                "        #expect(store.calls == [.delete(\(ownerCall(delete))Self.record(1).id), .delete(\(ownerCall(delete))Self.record(2).id)])\n    }\n"
        }
        return out + "}\n"
    }

    /// The entity value of a stored sample record.
    private static func storedValue(_ field: SwiftField) -> String {
        let f = field.field
        if f.primary { return "Fixtures.id(index)" }
        if f.name == "created_at" && f.type == .timestamp { return "Fixtures.now.addingTimeInterval(-Double(index))" }
        if f.optional { return "nil" }
        switch f.type {
        case .money: return "Money(amount: \(Samples.number(f, preferring: 100)), currency: Fixtures.yen)"
        case .enumeration(let values): return ".\(SceneNames.identifier(Names.caseName(values[0])))"
        default: return Samples.input(field, reference: "reference")
        }
    }

    private static func createTests(_ names: SceneNames, _ create: UseCaseSpec, uc: String, ownerArgument: String) -> String {
        let call = names.method(create)
        let required = names.writable.filter(\.requiredOnCreate)
        let draft =
            "\(names.draft)("
            + required.map { "\($0.bareProperty): \(Samples.input($0, reference: "Self.reference"))" }.joined(separator: ", ") + ")"
        var out = "\n    static let draft = \(draft)\n"
        out += "\n    @Test func \(Names.camelCase(create.name))StoresTheCheckedRecordWithItsDefaults() async throws {\n"
        out += "        let store = Mock\(names.store) { $0.insert = { $0 } }\n"
        out += "        let saved = try await \(uc).\(call)(\(ownerArgument)Self.draft)\n"
        out += "        #expect(saved.id == Fixtures.fixedID)\n"
        if names.owned { out += "        #expect(saved.customerID == Self.owner)\n" }
        if let parent = names.parent { out += "        #expect(saved.\(parent.property) == Self.parent)\n" }
        for field in names.fields where !field.field.primary {
            if field.field.defaultValue == .now {
                out += "        #expect(saved.\(field.property) == Fixtures.now)\n"
            } else if let literal = field.defaultLiteral {
                out += "        #expect(saved.\(field.property) == \(literal))\n"
            } else if field.field.optional {
                out += "        #expect(saved.\(field.property) == nil)\n"
            }
        }
        out += "        #expect(store.calls == [.insert(saved)])\n    }\n"
        if let parent = names.parent, let label = names.parentLabel {
            out += "\n    @Test func \(Names.camelCase(create.name))UnderAnUnknownParentAnswersNotFound() async throws {\n"
            out +=
                "        let store = Mock\(names.store) { $0.insert = { _ in throw RecordError.missingReference(field: \(swiftString(parent.name))) } }\n"
            out += "        await #expect(throws: RecordError.notFound(entity: \(swiftString(label)), id: Self.parent)) {\n"
            out += "            try await \(uc).\(call)(\(ownerArgument)Self.draft)\n        }\n    }\n"
        }
        if create.auth != .admin, let field = names.writable.first(where: \.field.adminOnly) {
            out += "\n    @Test func \(Names.camelCase(create.name))RefusesAFieldStaffWrite() async throws {\n"
            out += "        let store = Mock\(names.store)()\n"
            out += "        var draft = Self.draft\n"
            out += "        draft.\(field.property) = \(Samples.input(field, reference: "Self.reference"))\n"
            out += "        let error = await #expect(throws: ValidationError.self) { try await \(uc).\(call)(\(ownerArgument)draft) }\n"
            out += "        #expect(error?.fields.map(\\.field) == [\(swiftString(field.name))])\n"
            out += "        #expect(store.calls.isEmpty)\n    }\n"
        }
        if let (field, bad) = names.writable.lazy.compactMap({ field in Samples.invalid(field).map { (field, $0) } }).first {
            out += "\n    @Test func \(Names.camelCase(create.name))RefusesAnInvalidFieldAndStoresNothing() async throws {\n"
            out += "        let store = Mock\(names.store)()\n"
            out += "        var draft = Self.draft\n"
            out += "        draft.\(field.property) = \(bad.input)\n"
            out += "        let error = await #expect(throws: ValidationError.self) { try await \(uc).\(call)(\(ownerArgument)draft) }\n"
            out += "        #expect(error?.fields.map(\\.field) == [\(swiftString(bad.errorField))])\n"
            out += "        #expect(store.calls.isEmpty)\n    }\n"
        }
        return out
    }

    private static func updateTests(_ names: SceneNames, _ update: UseCaseSpec, uc: String, ownerArgument: String, ownerCall: String)
        -> String
    {
        let call = names.method(update)
        var out = ""
        if let (field, other) = names.writable.lazy.compactMap({ field in Samples.other(field).map { (field, $0) } }).first {
            out += "\n    @Test func \(Names.camelCase(update.name))PassesOnlyTheCheckedChanges() async throws {\n"
            out += "        let store = Mock\(names.store) { $0.update = { \(names.scopeClosureParameter)_, _ in Self.record(1) } }\n"
            out +=
                "        _ = try await \(uc).\(call)(\(ownerArgument)id: Self.record(1).id, \(names.changes)(\(field.bareProperty): \(other.input)))\n"
            out +=
                "        #expect(store.calls == [.update(\(ownerCall)Self.record(1).id, \(names.patch)(\(field.bareProperty): \(other.value)))])\n"
            out += "    }\n"
        }
        out += "\n    @Test func \(Names.camelCase(update.name))RefusesAnEmptyChangeAndAnswersNotFound() async throws {\n"
        out += "        let store = Mock\(names.store) { $0.update = { \(names.scopeClosureParameter)_, _ in nil } }\n"
        out += "        let error = await #expect(throws: ValidationError.self) {\n"
        out += "            try await \(uc).\(call)(\(ownerArgument)id: Self.record(1).id, \(names.changes)())\n        }\n"
        out += "        #expect(error?.fields.map(\\.field) == [\"body\"])\n"
        out += "        #expect(store.calls.isEmpty)\n"
        if let field = names.writable.first, let sample = Optional(Samples.input(field, reference: "Self.reference")) {
            out +=
                "        await #expect(throws: RecordError.notFound(entity: \(swiftString(UseCaseRenderer.humanName(names.entity))), id: Self.record(1).id)) {\n"
            out +=
                "            try await \(uc).\(call)(\(ownerArgument)id: Self.record(1).id, \(names.changes)(\(field.bareProperty): \(sample)))\n        }\n"
        }
        out += "    }\n"
        return out
    }
}
