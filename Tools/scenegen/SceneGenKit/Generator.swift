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
    public static func plan(
        specs: [SceneSpec], selected: Set<String>? = nil, migrations: [String: String], handwrittenOpenAPI: String
    ) -> (files: [PlannedFile], errors: [String]) {
        let sorted = specs.sorted { $0.scene < $1.scene }
        let generated = sorted.filter { !$0.handwritten }
        var files: [PlannedFile] = []
        var nextVersion = (migrations.keys.compactMap { Int($0.prefix { $0.isNumber }) }.max() ?? 0) + 1
        for spec in generated where selected?.contains(spec.scene) ?? true {
            let migration: String
            if let existing = existingMigration(for: spec, in: migrations) {
                migration = existing
            } else {
                migration = MigrationRenderer.fileName(for: spec, version: nextVersion)
                files.append(PlannedFile(path: "Migrations/\(migration)", contents: MigrationRenderer.sql(for: spec), ownership: .once))
                nextVersion += 1
            }
            files += scene(spec, specs: sorted, migration: migration)
        }
        files.append(generatedFile("Sources/HTTP/App/GeneratedSceneRoutes.swift", from: "Specs/*.yml", WiringRenderer.registry(generated)))
        let (document, errors) = OpenAPIRenderer.document(specs: sorted, handwritten: handwrittenOpenAPI)
        if let document {
            files.append(
                generatedFile(
                    "Sources/HTTP/App/OpenAPIDocument.swift", from: "Specs/*.yml and \(OpenAPIRenderer.handwrittenPath)",
                    OpenAPIRenderer.swiftFile(document)))
        }
        return (files, errors)
    }

    /// The migration that already creates the spec's table, if any (a scene's table is created
    /// once; later changes are new hand-written migrations).
    static func existingMigration(for spec: SceneSpec, in migrations: [String: String]) -> String? {
        migrations.keys.sorted().first { name in
            migrations[name]!.contains("CREATE TABLE \(spec.entity.table) (") || name.hasSuffix("_create_\(spec.entity.table).sql")
        }
    }

    static func scene(_ spec: SceneSpec, specs: [SceneSpec], migration: String) -> [PlannedFile] {
        let names = SceneNames(spec: spec)
        let s = spec.scene
        func file(_ path: String, _ contents: String) -> PlannedFile { generatedFile(path, from: spec.file, contents) }
        var files = [
            file("Sources/Domain/\(s)/\(names.entity).swift", DomainRenderer.entity(names)),
            file("Sources/Domain/\(s)/\(s)Ports.swift", DomainRenderer.ports(names)),
            file("Sources/UseCase/\(s)/\(s)UseCase.swift", UseCaseRenderer.useCase(names)),
            file("Sources/Translator/\(s)/\(s)Translator.swift", OutputRenderer.translator(names)),
            file("Sources/Presenter/\(s)/\(s)Presenter.swift", OutputRenderer.presenter(names)),
            file("Sources/Gateway/\(s)/\(names.postgresStore).swift", GatewayRenderer.store(names, migration: "Migrations/\(migration)")),
        ]
        for gateway in spec.gateways {
            files.append(file("Sources/Domain/\(s)/\(names.gatewayPort(gateway)).swift", HTTPGatewayRenderer.port(names, gateway)))
            files.append(file("Sources/Gateway/\(s)/HTTP\(names.gatewayPort(gateway)).swift", HTTPGatewayRenderer.http(names, gateway)))
        }
        for useCase in spec.useCases where useCase.kind == .custom {
            let type = "\(s)\(Names.typeName(useCase.name))"
            files.append(file("Sources/Domain/\(s)/\(type).swift", CustomUseCaseRenderer.domain(names, useCase)))
        }
        files += [
            file("Sources/Scenes/\(s)/\(s)Container.swift", WiringRenderer.container(names)),
            file("Sources/HTTP/\(s)/\(s)Routes.swift", WiringRenderer.routes(names)),
            file("Tests/UseCaseTests/Generated/\(s)Mocks.swift", MockRenderer.mocks(names)),
            file("Tests/UseCaseTests/Generated/\(s)UseCaseTests.swift", UseCaseTestRenderer.tests(names)),
            file("Tests/HTTPTests/Generated/\(s)HTTPTests.swift", HTTPTestRenderer(names: names, specs: specs).render()),
        ]
        for useCase in spec.useCases where useCase.kind == .custom {
            let path = "Sources/UseCase/\(s)/\(s)UseCase+\(names.upper(useCase)).swift"
            files.append(
                PlannedFile(
                    path: path, contents: Ownership.onceHeader(spec.file) + CustomUseCaseRenderer.once(names, useCase), ownership: .once))
        }
        return files
    }

    /// A generated Swift file: the ownership line, then a directive keeping the formatter's lint
    /// off it (`scenegen --check` guards its exact bytes instead).
    static func generatedFile(_ path: String, from source: String, _ body: String) -> PlannedFile {
        let body = "// swift-format-ignore-file\n" + body
        return PlannedFile(path: path, contents: Ownership.generatedHeader(source, body: body) + body, ownership: .generated)
    }
}
