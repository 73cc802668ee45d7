/// A file a run produces and who owns it.
public struct PlannedFile: Hashable, Sendable {
    public enum Ownership: String, Hashable, Sendable {
        /// Rewritten on every run; never edited by hand.
        case generated
        /// Created when missing and never touched again.
        case once
    }

    /// Relative to the repository root.
    public let path: String
    public let contents: String
    public let ownership: Ownership
}

/// Stage three: every file the specs produce, in a stable order, with the ownership line on top.
public enum Generator {
    /// - Parameters:
    ///   - specs: every spec of the repository (references and the route registry need all).
    ///   - selected: the scenes to produce files for (all when `nil`).
    ///   - migrations: the names and contents of the files in `Migrations/`.
    ///   - handwrittenOpenAPI: `Specs/OpenAPI/handwritten.yml`, the hand-written scenes' operations.
    /// - Returns: the files, or the errors that keep the API document from being complete.
    ///   - layout: where the specs' files go.
    ///   - referenced: specs of another layout whose tables these may reference (the matrix's
    ///     rows point at the product's items); nothing is generated for them.
    public static func plan(
        specs: [SceneSpec], selected: Set<String>? = nil, migrations: [String: String], handwrittenOpenAPI: String,
        layout: Layout = .product, referenced: [SceneSpec] = []
    ) -> (files: [PlannedFile], errors: [String]) {
        let sorted = specs.sorted { $0.scene < $1.scene }
        let generated = sorted.filter { !$0.handwritten }
        var files: [PlannedFile] = []
        // Hand-written scenes register their own parameter names: theirs come first; then the
        // generated routes, shorter first, so a resource's own `{id}` names the place its children
        // sit under.
        let generatedRoutes = generated.flatMap { $0.useCases.map(\.route) }.sorted {
            ($0.segments.count, $0.description) < ($1.segments.count, $1.description)
        }
        let routerNames = RouterNames(routes: sorted.filter(\.handwritten).flatMap { $0.useCases.map(\.route) } + generatedRoutes)
        var nextVersion = (migrations.keys.compactMap { Int($0.prefix { $0.isNumber }) }.max() ?? 0) + 1
        var columnErrors: [String] = []
        let columns = MigrationColumns(migrations)
        for spec in creationOrder(generated) where selected?.contains(spec.scene) ?? true {
            var migration: String?
            if let entity = spec.entity {
                if let existing = existingMigration(for: entity, in: migrations) {
                    migration = existing
                    if let error = foreignTable(spec, entity: entity, createdBy: existing, in: migrations, layout: layout) {
                        columnErrors.append(error)
                    } else {
                        columnErrors += missingColumns(spec, created: "\(layout.migrations)/\(existing)", in: columns)
                        columnErrors += MigrationConstraints.stale(spec, created: "\(layout.migrations)/\(existing)", in: migrations)
                    }
                } else {
                    migration = MigrationRenderer.fileName(for: spec, version: nextVersion)
                    files.append(
                        PlannedFile(
                            path: "\(layout.migrations)/\(migration!)", contents: MigrationRenderer.sql(for: spec), ownership: .once))
                    nextVersion += 1
                }
            }
            files += scene(
                spec, specs: sorted + referenced, migration: migration.map { "\(layout.migrations)/\($0)" }, layout: layout,
                routerNames: routerNames)
        }
        files.append(
            generatedFile(
                layout.registry, from: "\(layout.specs)/*.yml", layout.extraImports(.http) + WiringRenderer.registry(sorted)))
        if let path = layout.customerOwnedTables {
            files.append(generatedFile(path, from: "\(layout.specs)/*.yml", MigrationRenderer.customerOwnedTables(generated)))
        }
        var seen = Set<String>()
        let clashes = files.map(\.path).filter { !seen.insert($0).inserted }.map {
            "error: two parts of the specs would be written to \($0); rename one (a model, a use case or an entity)"
        }
        guard layout.servesOpenAPI, clashes.isEmpty, columnErrors.isEmpty else { return (files, clashes + columnErrors) }
        let (document, errors) = OpenAPIRenderer.document(specs: sorted, handwritten: handwrittenOpenAPI)
        if let document {
            files += generatedResource(
                OpenAPIRenderer.resourcePath, from: "Specs/*.yml and \(OpenAPIRenderer.handwrittenPath)", document)
        }
        return (files, errors)
    }

    /// `specs` in the order their tables can be created: one whose table another refers to
    /// first (numbered by name, a new child's migration came before its parent's and failed on
    /// the missing table), by scene name otherwise; a cycle keeps the names' order.
    static func creationOrder(_ specs: [SceneSpec]) -> [SceneSpec] {
        var left = specs
        var ordered: [SceneSpec] = []
        while !left.isEmpty {
            let tables = Set(left.compactMap { $0.entity?.table })
            let next =
                left.firstIndex { spec in
                    !(spec.entity?.fields ?? []).contains { field in
                        field.references.map { $0 != spec.entity?.table && tables.contains($0) } ?? false
                    }
                } ?? 0
            ordered.append(left.remove(at: next))
        }
        return ordered
    }

    /// A spec's table is its own: one created by a migration scenegen did not create from this
    /// spec (a hand-written scene's `orders`, another spec's table) would get this spec's
    /// generated routes, deletes included, over rows other code keeps.
    static func foreignTable(
        _ spec: SceneSpec, entity: EntitySpec, createdBy migration: String, in migrations: [String: String], layout: Layout
    ) -> String? {
        guard !migrations[migration]!.hasPrefix("-- once: created by scenegen from \(spec.file);") else { return nil }
        return
            "\(spec.file):\(Workspace.place(of: spec)): error: table '\(entity.table)' is created by \(layout.migrations)/\(migration), which scenegen did not create from this spec: it belongs to other code, so name a table of this scene's own"
    }

    /// The spec's columns that no migration creates or adds: the migration that created the
    /// table is never rewritten, so a field added to the spec needs a migration of its own (or the
    /// generated code would query a column that is not there).
    static func missingColumns(_ spec: SceneSpec, created: String, in columns: MigrationColumns) -> [String] {
        let entity = spec.record
        let names = SceneNames(spec: spec)
        var missing: [String] = []
        if names.owned && !columns.contains("customer_id", of: entity.table) {
            missing.append("\(spec.file):1:1: error: column 'customer_id' of \(entity.table) (owner: customer) is in no migration")
        }
        for field in names.fields {
            for column in field.columns where !columns.contains(column, of: entity.table) {
                missing.append(
                    "\(spec.file):\(field.field.position.line):\(field.field.position.column): error: column '\(column)' of \(entity.table) is in no migration: \(created) created the table and is never rewritten; add a migration that adds it (ALTER TABLE \(entity.table) ADD COLUMN \(column) ...), or delete \(created) if no database has applied it yet"
                )
            }
        }
        return missing
    }

    /// The migration that already creates the spec's table, if any (a scene's table is created
    /// once; later changes are new hand-written migrations).
    static func existingMigration(for entity: EntitySpec, in migrations: [String: String]) -> String? {
        migrations.keys.sorted().first { name in
            migrations[name]!.contains("CREATE TABLE \(entity.table) (") || name.hasSuffix("_create_\(entity.table).sql")
        }
    }

    /// - Parameter migration: the migration creating the entity's table (`nil` without one).
    static func scene(_ spec: SceneSpec, specs: [SceneSpec], migration: String?, layout: Layout, routerNames: RouterNames)
        -> [PlannedFile]
    {
        var names = SceneNames(spec: spec)
        names.routerNames = routerNames
        names.parentOwned =
            spec.parent?.references.map { table in specs.contains { $0.entity?.table == table && $0.record.owner != nil } } ?? false
        names.ownedTables = Set(specs.filter { $0.entity?.owner != nil }.compactMap(\.entity?.table))
        for other in specs { for type in other.declaredTypes { names.typeScenes[type] = other.scene } }
        let s = spec.scene
        func file(_ layer: Layout.Layer, _ name: String, _ contents: String) -> PlannedFile {
            generatedFile(layout.path(layer, scene: s, file: name), from: spec.file, layout.extraImports(layer) + contents)
        }
        var files: [PlannedFile] = []
        if let migration {
            files += [
                file(.domain, "\(names.entity).swift", DomainRenderer.entity(names)),
                file(.domain, "\(s)Ports.swift", DomainRenderer.ports(names)),
                file(.gateway, "\(names.postgresStore).swift", GatewayRenderer.store(names, migration: migration)),
            ]
        }
        for model in spec.models where !model.handwrittenDomain {
            files.append(file(.domain, "\(model.name).swift", ModelRenderer.domain(names, model)))
        }
        files += [
            file(.useCase, "\(s)UseCase.swift", UseCaseRenderer.useCase(names)),
            file(.translator, "\(s)Translator.swift", OutputRenderer.translator(names)),
            file(.presenter, "\(s)Presenter.swift", OutputRenderer.presenter(names)),
        ]
        for gateway in spec.gateways {
            files.append(file(.domain, "\(names.gatewayPort(gateway)).swift", HTTPGatewayRenderer.port(names, gateway)))
            files.append(file(.gateway, "HTTP\(names.gatewayPort(gateway)).swift", HTTPGatewayRenderer.http(names, gateway)))
        }
        for useCase in spec.useCases where useCase.kind == .custom {
            files.append(file(.domain, "\(names.input(useCase)).swift", CustomUseCaseRenderer.domain(names, useCase)))
        }
        files += [
            file(.scenes, "\(s)Container.swift", WiringRenderer.container(names)),
            file(.live, "\(s)Container+Live.swift", WiringRenderer.live(names)),
            file(.http, "\(s)Routes.swift", WiringRenderer.routes(names)),
            file(
                .httpTests, "\(s)GeneratedHTTPTests.swift",
                HTTPTestRenderer(names: names, specs: specs, logicIsStubbed: !layout.customLogicIsOnce).render()),
        ]
        if let bodies = WiringRenderer.requestBodies(names) { files.append(file(.http, "\(s)Requests.swift", bodies)) }
        if spec.entity != nil {
            files += [
                file(.useCaseTests, "\(s)Mocks.swift", MockRenderer.mocks(names)),
                file(.useCaseTests, "\(s)GeneratedUseCaseTests.swift", UseCaseTestRenderer.tests(names)),
            ]
            if !spec.ports.isEmpty {
                // What the generated use-case tests hold as the hand-written ports: the user's.
                let path = layout.ownedTestPath(.useCaseTests, scene: s, file: "\(s)GeneratedUseCaseTests+Ports.swift")
                files.append(
                    PlannedFile(
                        path: path, contents: Ownership.onceHeader(spec.file) + UseCaseTestRenderer.testPorts(names), ownership: .once))
            }
        }
        if !spec.ports.isEmpty {
            // How each hand-written port is built for production: the user's, created once.
            let path = layout.path(.live, scene: s, file: "\(s)Container+Ports.swift")
            files.append(
                PlannedFile(
                    path: path,
                    contents: Ownership.onceHeader(spec.file)
                        + WiringRenderer.livePorts(names, testableImports: layout.extraImports(.live)),
                    ownership: .once))
        }
        // The user's logic: each custom use case's, and the rules across the entity's fields.
        var logic = spec.useCases.filter { $0.kind == .custom }.map { useCase in
            (Layout.Layer.useCase, "\(s)UseCase+\(names.upper(useCase)).swift", CustomUseCaseRenderer.once(names, useCase))
        }
        if migration != nil && spec.record.rules {
            logic.append((.domain, "\(names.entity)+Rules.swift", DomainRenderer.rulesOnce(names)))
        }
        for (layer, name, contents) in logic {
            if layout.customLogicIsOnce {
                let path = layout.path(layer, scene: s, file: name)
                files.append(PlannedFile(path: path, contents: Ownership.onceHeader(spec.file) + contents, ownership: .once))
            } else {
                files.append(file(layer, name, contents))
            }
        }
        return files
    }

    /// A generated Swift file: the ownership line, then a directive keeping the formatter's lint
    /// off it (`scenegen --check` guards its exact bytes instead).
    static func generatedFile(_ path: String, from source: String, _ body: String) -> PlannedFile {
        let body = "// swift-format-ignore-file\n" + body
        return PlannedFile(path: path, contents: Ownership.generatedHeader(source, body: body) + body, ownership: .generated)
    }

    /// A generated file that cannot carry the ownership line (JSON): its bytes as rendered, and
    /// the line in a sidecar beside it (`Ownership.sidecarSuffix`) with the checksum of those bytes.
    static func generatedResource(_ path: String, from source: String, _ contents: String) -> [PlannedFile] {
        [
            PlannedFile(path: path, contents: contents, ownership: .generated),
            PlannedFile(
                path: path + Ownership.sidecarSuffix, contents: Ownership.generatedHeader(source, body: contents), ownership: .generated),
        ]
    }
}
