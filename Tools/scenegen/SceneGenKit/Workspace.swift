import Foundation

/// One run of scenegen over a repository: read the specs, plan the files, compare them with the
/// disk, then write, only report (`dryRun`), or fail with a diff (`check`).
public struct Workspace {
    public enum Mode: Sendable { case write, dryRun, check }

    /// What a run does to one file.
    public enum Action: String, Sendable {
        case create, rewrite, unchanged
        /// A once-file that exists: never touched.
        case keep
        /// A generated file edited by hand, or a file scenegen did not write in its place: the run
        /// stops rather than overwrite it.
        case edited
        /// A generated file no spec produces any more.
        case delete
    }

    public struct Outcome {
        public var lines: [String] = []
        public var errors: [String] = []
        public var exitCode: Int32 = 0
    }

    let root: URL
    let fileManager = FileManager.default

    public init(root: URL) {
        self.root = root
    }

    /// - Parameters:
    ///   - specPaths: the specs to regenerate (relative paths); every `Specs/*.yml` when empty.
    ///   - force: overwrite generated files edited by hand.
    ///   - progress: called with `[i/n] Specs/File.yml` as each spec is read.
    public func run(specPaths: [String], mode: Mode, force: Bool = false, progress: (String) -> Void = { _ in }) -> Outcome {
        var outcome = Outcome()
        // A layout without specs (a repository with no matrix) produces nothing.
        let layouts = Layout.all.map { layout in (layout, specFiles(layout)) }.filter { $0.0 == .product || !$0.1.isEmpty }
        let allPaths = layouts.flatMap(\.1)
        for path in specPaths where !allPaths.contains(path) {
            outcome.errors.append("\(path): error: no such spec (specs live in Specs/*.yml)")
        }
        var read: [(Layout, [SceneSpec])] = []
        var index = 0
        for (layout, paths) in layouts {
            var specs: [SceneSpec] = []
            for path in paths {
                index += 1
                progress("[\(index)/\(allPaths.count)] \(path)")
                if let spec = readSpec(path, layout: layout, errors: &outcome.errors) { specs.append(spec) }
            }
            let referenced = read.first { $0.0 == .product }?.1 ?? []
            outcome.errors +=
                crossSpecErrors(specs) + referenceErrors(specs, known: specs + referenced)
                + ownedParentErrors(specs, known: specs + referenced)
                + typeReferenceErrors(specs, known: specs + referenced) + typeClashErrors(specs, known: specs + referenced)
                + enumTypeErrors(specs, layout: layout)
            if !specPaths.isEmpty { outcome.errors += ungeneratedErrors(specs.filter { !specPaths.contains($0.file) }, layout: layout) }
            read.append((layout, specs))
        }
        guard outcome.errors.isEmpty else {
            outcome.exitCode = 1
            outcome.lines.append("scenegen: \(outcome.errors.count) error(s); nothing written")
            return outcome
        }
        var planned: [PlannedFile] = []
        var planErrors: [String] = []
        for (layout, specs) in read {
            let selected = specPaths.isEmpty ? nil : Set(specs.filter { specPaths.contains($0.file) }.map(\.scene))
            if selected?.isEmpty == true { continue }
            let handwritten =
                layout.servesOpenAPI
                ? (try? String(contentsOf: root.appendingPathComponent(OpenAPIRenderer.handwrittenPath), encoding: .utf8)) ?? "" : ""
            let referenced = layout == .product ? [] : read.first { $0.0 == .product }?.1 ?? []
            let plan = Generator.plan(
                specs: specs, selected: selected, migrations: migrations(layout), handwrittenOpenAPI: handwritten, layout: layout,
                referenced: referenced)
            planned += plan.files
            planErrors += plan.errors
        }
        guard planErrors.isEmpty else {
            outcome.errors += planErrors
            outcome.exitCode = 1
            outcome.lines.append("scenegen: \(planErrors.count) error(s); nothing written")
            return outcome
        }
        var actions: [(PlannedFile, Action, String?)] = planned.map { file in
            let existing = try? String(contentsOf: root.appendingPathComponent(file.path), encoding: .utf8)
            return (file, action(for: file, existing: existing), existing)
        }
        if specPaths.isEmpty {
            let plannedPaths = Set(planned.map(\.path))
            for path in generatedFilesOnDisk() where !plannedPaths.contains(path) {
                let existing = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                actions.append((PlannedFile(path: path, contents: "", ownership: .generated), .delete, existing))
            }
        }
        return finish(actions, mode: mode, force: force, outcome: outcome, specCount: allPaths.count)
    }

    /// The spec files of a layout, relative to the root, in name order.
    private func specFiles(_ layout: Layout) -> [String] {
        let names = (try? fileManager.contentsOfDirectory(atPath: root.appendingPathComponent(layout.specs).path)) ?? []
        return names.filter { $0.hasSuffix(".yml") }.sorted().map { "\(layout.specs)/\($0)" }
    }

    /// Parses one spec, appending its problems to `errors`.
    private func readSpec(_ path: String, layout: Layout, errors: inout [String]) -> SceneSpec? {
        guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else {
            errors.append("\(path):1:1: error: cannot be read")
            return nil
        }
        let (spec, diagnostics) = SpecParser.parse(text, file: path)
        errors += diagnostics.map(\.description)
        if let spec, spec.scene != String(path.dropFirst(layout.specs.count + 1).dropLast(4)) {
            errors.append("\(path):1:1: error: the file must be named after its scene, \(layout.specs)/\(spec.scene).yml")
        }
        return spec
    }

    private func finish(_ actions: [(PlannedFile, Action, String?)], mode: Mode, force: Bool, outcome: Outcome, specCount: Int) -> Outcome {
        var outcome = outcome
        let edited = actions.filter { $0.1 == .edited }
        let pending = actions.filter { [.create, .rewrite, .delete, .edited].contains($0.1) }
        switch mode {
        case .dryRun:
            for (file, action, _) in actions {
                outcome.lines.append("\(action.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(file.path)")
            }
        case .check:
            for (file, _, existing) in pending {
                let old = existing ?? ""
                outcome.lines.append(
                    UnifiedDiff.render(
                        old: old, new: file.contents, oldName: existing == nil ? "/dev/null" : "a/\(file.path)",
                        newName: file.contents.isEmpty ? "/dev/null" : "b/\(file.path)"))
            }
            if !pending.isEmpty {
                outcome.errors.append(
                    "scenegen --check: \(pending.count) file(s) differ from what the specs produce; run `swift run scenegen`")
                outcome.exitCode = 1
            }
        case .write:
            if !edited.isEmpty && !force {
                for (file, _, existing) in edited {
                    let sidecar = try? String(contentsOf: root.appendingPathComponent(file.path + Ownership.sidecarSuffix), encoding: .utf8)
                    outcome.errors.append(
                        Ownership.isGenerated((sidecar ?? "") + (existing ?? ""))
                            ? "\(file.path): error: generated file was edited by hand; move the change into the spec or a once-file, or rerun with --force to overwrite it"
                            : "\(file.path): error: a file scenegen did not write is where it writes; move it away (its code into a once-file), or rerun with --force to overwrite it"
                    )
                }
                outcome.exitCode = 1
                outcome.lines.append("scenegen: nothing written")
                return outcome
            }
            var directories: Set<String> = []
            for (file, action, _) in pending {
                let url = root.appendingPathComponent(file.path)
                do {
                    if action == .delete {
                        try fileManager.removeItem(at: url)
                    } else {
                        let directory = url.deletingLastPathComponent()
                        if directories.insert(directory.path).inserted {
                            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
                        }
                        try Self.write(file.contents, to: url.path)
                    }
                    outcome.lines.append("\(action == .edited ? "rewrite" : action.rawValue) \(file.path)")
                } catch {
                    outcome.errors.append("\(file.path): error: \(error.localizedDescription)")
                    outcome.exitCode = 1
                }
            }
        }
        let counts = Dictionary(grouping: actions, by: { $0.1 }).mapValues(\.count)
        let summary = [Action.create, .rewrite, .unchanged, .keep, .edited, .delete].compactMap { action in
            counts[action].map { "\($0) \(action.rawValue)" }
        }
        outcome.lines.append("scenegen: \(specCount) spec(s), \(actions.count) file(s): \(summary.joined(separator: ", "))")
        return outcome
    }

    /// Writes with plain stdio: Foundation's writes fsync every file, which cost most of a run's
    /// time. An interrupted run leaves a file that `--check` reports and a rerun rewrites.
    private static func write(_ contents: String, to path: String) throws {
        guard let stream = fopen(path, "w") else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        let bytes = Array(contents.utf8)
        let written = fwrite(bytes, 1, bytes.count, stream)
        guard fclose(stream) == 0, written == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    private func action(for file: PlannedFile, existing: String?) -> Action {
        guard let existing else { return .create }
        switch file.ownership {
        case .once: return .keep
        case .generated:
            if existing == file.contents { return .unchanged }
            // A sidecar only records; the file it describes is the one checked for hand edits.
            if file.path.hasSuffix(Ownership.sidecarSuffix) { return .rewrite }
            let sidecar = try? String(contentsOf: root.appendingPathComponent(file.path + Ownership.sidecarSuffix), encoding: .utf8)
            let owned = (sidecar ?? "") + existing
            // A file scenegen did not write (no generated line) is someone's: never overwritten.
            return !Ownership.isGenerated(owned) || !Ownership.isUnedited(owned) ? .edited : .rewrite
        }
    }

    private func migrations(_ layout: Layout) -> [String: String] {
        let directory = root.appendingPathComponent(layout.migrations)
        let names = (try? fileManager.contentsOfDirectory(atPath: directory.path))?.filter { $0.hasSuffix(".sql") } ?? []
        var migrations: [String: String] = [:]
        for name in names { migrations[name] = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        return migrations
    }

    /// Swift files where scenegen writes (each layout's `generatedFolders`) whose first line says
    /// it generated them, and sidecars saying so with the files they describe.
    private func generatedFilesOnDisk() -> [String] {
        var paths: [String] = []
        for top in Layout.all.flatMap(\.generatedFolders) {
            guard let walker = fileManager.enumerator(atPath: root.appendingPathComponent(top).path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") || relative.hasSuffix(Ownership.sidecarSuffix) {
                let path = "\(top)/\(relative)"
                guard let handle = FileHandle(forReadingAtPath: root.appendingPathComponent(path).path) else { continue }
                let head = String(decoding: handle.readData(ofLength: 64), as: UTF8.self)
                try? handle.close()
                guard Ownership.isGenerated(head) else { continue }
                paths.append(path)
                guard relative.hasSuffix(Ownership.sidecarSuffix) else { continue }
                let described = String(path.dropLast(Ownership.sidecarSuffix.count))
                if fileManager.fileExists(atPath: root.appendingPathComponent(described).path) { paths.append(described) }
            }
        }
        return paths.sorted()
    }

    /// References to tables no spec describes: the generated tests could not make the rows
    /// they point at. `KnownTables` are always known.
    private func referenceErrors(_ specs: [SceneSpec], known: [SceneSpec]) -> [String] {
        let tables = Set(known.compactMap(\.entity?.table) + KnownTables.names)
        return specs.flatMap { spec in
            (spec.entity?.fields ?? []).compactMap { field in
                guard let table = field.references, !tables.contains(table) else { return nil }
                return
                    "\(spec.file):\(field.position.line):\(field.position.column): error: references '\(table)', which is the table of no spec (known: \(tables.sorted().joined(separator: ", ")))"
            }
        }
    }

    /// Rows nested under a parent customers own are customers' own too (`owner: customer`), and
    /// no route reaches them without a session: with no owner, or a public route, anyone wrote
    /// under any customer's private row and read what was there, learnt which ids exist, and
    /// left rows behind that made the owner's deletes a 409 and their account's deletion a 500.
    private func ownedParentErrors(_ specs: [SceneSpec], known: [SceneSpec]) -> [String] {
        let owned = Set(known.filter { $0.entity?.owner != nil }.compactMap(\.entity?.table))
        return specs.flatMap { spec -> [String] in
            guard let parent = spec.parent, let table = parent.references, owned.contains(table) else { return [] }
            var errors: [String] = []
            if spec.entity?.owner == nil {
                errors.append(
                    "\(spec.file):\(parent.position.line):\(parent.position.column): error: nested under '\(table)', whose rows customers own: give the entity `owner: customer`, so its rows are their owner's and go with the account"
                )
            }
            for useCase in spec.useCases where useCase.kind != .custom && useCase.auth == .public {
                errors.append(
                    "\(spec.file):\(useCase.position.line):\(useCase.position.column): error: \(useCase.route) is public, but its rows sit under '\(table)', whose rows customers own: give it `auth: customer` (or `admin`)"
                )
            }
            return errors
        }
    }

    /// Problems only visible across specs: two scenes of one name, one table or clashing routes.
    /// Where a spec names its entity's table, as `line:column` (`1:1` when it names none).
    static func place(of spec: SceneSpec) -> String {
        spec.entity?.tablePosition.map { "\($0.line):\($0.column)" } ?? "1:1"
    }

    private func crossSpecErrors(_ specs: [SceneSpec]) -> [String] {
        var errors: [String] = []
        for (index, spec) in specs.enumerated() {
            for earlier in specs[..<index] {
                // Hand-written scenes may read one table from two sides (Account and CustomerSetting).
                // A clash is reported in both files: either may be the one just written.
                if let table = spec.entity?.table, earlier.entity?.table == table && !(earlier.handwritten && spec.handwritten) {
                    errors.append("\(spec.file):\(Self.place(of: spec)): error: table '\(table)' is also the table of \(earlier.file)")
                    errors.append("\(earlier.file):\(Self.place(of: earlier)): error: table '\(table)' is also the table of \(spec.file)")
                }
                for type in spec.declaredTypes where earlier.declaredTypes.contains(type) {
                    // Reported where a model declares it (an entity has no position of its own).
                    let (here, there) =
                        spec.models.contains { $0.name == type } || !earlier.models.contains { $0.name == type }
                        ? (spec, earlier) : (earlier, spec)
                    let position = here.models.first { $0.name == type }?.position
                    errors.append(
                        "\(here.file):\(position?.line ?? 1):\(position?.column ?? 1): error: type '\(type)' is also declared in \(there.file)"
                    )
                }
                for useCase in spec.useCases {
                    for other in earlier.useCases where useCase.route.clashes(with: other.route) {
                        for (here, there, mine, theirs) in [(spec, earlier, useCase, other), (earlier, spec, other, useCase)] {
                            errors.append(
                                "\(here.file):\(mine.position.line):\(mine.position.column): error: route \(mine.route) clashes with \(theirs.route) of \(there.file)"
                            )
                        }
                    }
                    // Generated routes take the name the router has at a place (`RouterNames`);
                    // hand-written ones register their own, which must agree.
                    for other in earlier.useCases where spec.handwritten && earlier.handwritten {
                        guard let (name, otherName) = useCase.route.parameterNameConflict(with: other.route) else { continue }
                        let position = useCase.position
                        errors.append(
                            "\(spec.file):\(position.line):\(position.column): error: route parameter {\(name)} sits where \(other.route) of \(earlier.file) has {\(otherName)}; the router needs one name per place"
                        )
                    }
                }
            }
        }
        return errors
    }

    /// The enums entity fields generate, against every type the specs declare or generate and the
    /// types `Sources/Domain/Shared` declares by hand: each would be a second declaration.
    private func typeClashErrors(_ specs: [SceneSpec], known: [SceneSpec]) -> [String] {
        var errors: [String] = []
        let shared = sharedDomainTypes()
        let named = Set(known.flatMap(\.namedEnumTypes))
        var generated: [String: String] = [:]
        for spec in specs {
            // A model whose Domain type is written by hand may be one of them (an order's TaxLine).
            let handwritten = Set(spec.models.filter(\.handwrittenDomain).map(\.name))
            for type in spec.declaredTypes where shared.contains(type) && !handwritten.contains(type) && !spec.handwritten {
                errors.append("\(spec.file):1:1: error: type '\(type)' is declared by hand in Sources/Domain/Shared: choose another name")
            }
            for (type, position) in spec.generatedEnumTypes {
                let clash =
                    shared.contains(type)
                    ? "a type declared by hand in Sources/Domain/Shared"
                    : named.contains(type)
                        ? "the hand-written enum an enum_type names"
                        : known.first { $0.declaredTypes.contains(type) }.map { "a type of \($0.file)" }
                            ?? generated[type].map { "the enum of a field of \($0)" }
                if let clash {
                    errors.append(
                        "\(spec.file):\(position.line):\(position.column): error: this field's enum would be \(type), which is \(clash): give it an enum_type or another name"
                    )
                }
                generated[type] = generated[type] ?? spec.file
            }
        }
        return errors
    }

    /// Each `enum_type` against the `String` enums of the layout's Domain sources: naming none
    /// would fail only in the compiler, far from the spec, and raw values other than the field's
    /// would let the type hold values the API document does not list, or list values it cannot hold.
    /// The generated tests and defaults of an entity's field name each value's case as
    /// `Names.caseName` derives it (`JP-01` as `jp01`), so there a case named otherwise is refused
    /// here rather than in the generated tests' compiler.
    private func enumTypeErrors(_ specs: [SceneSpec], layout: Layout) -> [String] {
        let fields = specs.flatMap { spec in spec.enumTypeFields.map { (spec, $0) } }
        guard !fields.isEmpty else { return [] }
        let folder = layout.domainSources
        let directory = root.appendingPathComponent(folder)
        let files = (fileManager.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }
        let enums = DomainEnums.declared(
            in: files.map { (try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) ?? "" })
        return fields.compactMap { spec, field in
            guard let name = field.enumTypeName, case .enumeration(let values) = field.type else { return nil }
            let place = "\(spec.file):\(field.position.line):\(field.position.column)"
            guard let cases = enums[name] else {
                return
                    "\(place): error: enum_type '\(name)' names no String enum in \(folder): write `public enum \(name): String, Hashable, Sendable` there, its raw values \(values.joined(separator: ", ")), or leave enum_type out for an enum of this field's own"
            }
            let raw = cases.map(\.value)
            guard Set(raw) == Set(values) else {
                return
                    "\(place): error: enum_type '\(name)' holds \(raw.joined(separator: ", ")), and this field's values are \(values.joined(separator: ", ")): they must be the same"
            }
            let stored = spec.entity?.fields.contains { $0.position == field.position } ?? false
            let renamed = cases.filter { $0.name != Names.caseName($0.value) }
            guard !stored || renamed.isEmpty else {
                let names = renamed.map { "`case \(Names.caseName($0.value))` for \"\($0.value)\" (not `\($0.name)`)" }
                return
                    "\(place): error: enum_type '\(name)' of an entity's field must name each case as the generated tests do: \(names.joined(separator: ", "))"
            }
            return nil
        }
    }

    /// The top-level types `Sources/Domain/Shared` declares by hand.
    private func sharedDomainTypes() -> Set<String> {
        let directory = root.appendingPathComponent("Sources/Domain/Shared")
        var types = Set<String>()
        for name in (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasSuffix(".swift") {
            let text = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where line.hasPrefix("public ") {
                let words = line.split(separator: " ")
                guard let kind = words.firstIndex(where: { ["struct", "enum", "class", "protocol", "typealias"].contains($0) }),
                    kind + 1 < words.count
                else { continue }
                types.insert(String(words[kind + 1].prefix { $0.isLetter || $0.isNumber }))
            }
        }
        return types
    }

    /// With specs named, the others (`unnamed`) must have been generated before: the route registry and the
    /// API document list every spec's routes, and would name a scene with no files.
    private func ungeneratedErrors(_ unnamed: [SceneSpec], layout: Layout) -> [String] {
        unnamed.compactMap { spec in
            guard !spec.handwritten,
                !fileManager.fileExists(atPath: root.appendingPathComponent(layout.path(.scenes, scene: spec.scene, file: "")).path)
            else { return nil }
            return
                "\(spec.file):1:1: error: not generated yet, and the route registry and the API document name every spec: name it too, or run scenegen without naming specs"
        }
    }

    /// Model fields and outcome bodies naming a type no spec declares.
    private func typeReferenceErrors(_ specs: [SceneSpec], known: [SceneSpec]) -> [String] {
        let declared = Set(known.flatMap(\.declaredTypes))
        return specs.flatMap { spec in
            spec.typeReferences.compactMap { name, position in
                guard !declared.contains(name) else { return nil }
                return
                    "\(spec.file):\(position.line):\(position.column): error: type '\(name)' is declared by no spec (an entity or a model; known: \(declared.sorted().joined(separator: ", ")))"
            }
        }
    }
}
