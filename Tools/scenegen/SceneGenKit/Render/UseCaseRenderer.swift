/// The UseCase layer: one struct per scene with a method per CRUD use case; each custom use case
/// gets a once-file of its own for the user's logic.
enum UseCaseRenderer {
    static func useCase(_ names: SceneNames) -> String {
        // Named only by CRUD use cases, which a scene without an entity has none of.
        var e: String { names.entity }
        var label: String { humanName(e) }
        var out = "import Domain\nimport Foundation\n\n"
        out += "/// \(names.spec.summary)\n"
        out += "public struct \(names.useCase): Sendable {\n"
        let stored = WiringRenderer.containerProperties(names)
        out += stored.map { "    let \($0)\n" }.joined()
        out += "\n" + DomainRenderer.initializer(stored, indent: "    ")
        for useCase in names.spec.useCases where useCase.kind != .custom {
            let owner = names.scopeParameter(useCase)
            let ownerArgument = names.scopeArgument(useCase, toStore: true)
            let method = names.method(useCase)
            out += "\n    /// `\(useCase.route)`\n"
            switch useCase.kind {
            case .create:
                out += "    /// - Throws: `ValidationError`, `RecordError.duplicate`, `.missingReference`, "
                out += names.parentLabel.map { "`.notFound` for an unknown \($0), " } ?? ""
                out += "`StoreUnavailable`.\n"
                var arguments = ["id: system.newID()"]
                arguments += names.scope.map { "\($0.label): \($0.label)" }
                if names.fields.contains(where: { $0.field.defaultValue == .now }) { arguments.append("now: system.now()") }
                out += "    public func \(method)(\(owner)_ draft: \(names.draft)) async throws -> \(e) {\n"
                out += staffOnlyCheck(names, useCase, value: "draft")
                let insert = "try await store.insert(draft.validated(\(arguments.joined(separator: ", "))))"
                if let parent = names.parent, let parentLabel = names.parentLabel {
                    // The parent comes from the path: a row it does not name is a 404, not a field error.
                    out += "        do {\n            return \(insert)\n"
                    out += "        } catch RecordError.missingReference(let field) where field == \(swiftString(parent.name)) {\n"
                    out +=
                        "            throw RecordError.notFound(entity: \(swiftString(parentLabel)), id: \(parent.bareProperty))\n        }\n"
                } else {
                    let check = staffOnlyCheck(names, useCase, value: "draft")
                    out += "        \(check.isEmpty ? "" : "return ")\(insert)\n"
                }
            case .list:
                let filters = names.fields.filter { useCase.filters.contains($0.name) }
                if !filters.isEmpty {
                    out += "    /// Only records whose \(filters.map { "`\($0.name)`" }.joined(separator: ", ")) equal the values given.\n"
                }
                out += "    /// - Throws: `ValidationError` for a bad limit, cursor or filter, `StoreUnavailable`.\n"
                let filterParameters = filters.map { ", \($0.bareProperty): String? = nil" }.joined()
                out += "    public func \(method)(\(owner)limit: Int?, cursor: String?\(filterParameters)) async throws -> Page<\(e)> {\n"
                var matching = ""
                if !names.filterFields.isEmpty {
                    let arguments = names.filterFields.map { field in
                        "\(field.bareProperty): " + (useCase.filters.contains(field.name) ? field.property : "nil")
                    }
                    out += "        let filter = try \(names.filter).parsing(\(arguments.joined(separator: ", ")))\n"
                    matching = "matching: filter, "
                }
                out += "        let page = try PageRequest(limit: limit, cursor: cursor, defaultLimit: \(useCase.page ?? 20))\n"
                out += "        let found = try await store.page(\(ownerArgument)\(matching)after: page.after, limit: page.fetchLimit)\n"
                out += "        return Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) }\n"
            case .get:
                out +=
                    "    /// - Throws: `RecordError.notFound`\(names.actsForOwner(useCase) ? " (also for another customer's record)" : ""), `StoreUnavailable`.\n"
                out += "    public func \(method)(\(owner)id: UUID) async throws -> \(e) {\n"
                out += "        guard let found = try await store.find(\(ownerArgument)id: id) else {\n"
                out += "            throw RecordError.notFound(entity: \(swiftString(label)), id: id)\n        }\n"
                out += "        return found\n"
            case .update:
                out += "    /// Changes only the fields `changes` sets.\n"
                out += "    /// - Throws: `ValidationError`, `RecordError`, `StoreUnavailable`.\n"
                out += "    public func \(method)(\(owner)id: UUID, _ changes: \(names.changes)) async throws -> \(e) {\n"
                out += staffOnlyCheck(names, useCase, value: "changes")
                out += "        guard let saved = try await store.update(\(ownerArgument)id: id, with: changes.validated()) else {\n"
                out += "            throw RecordError.notFound(entity: \(swiftString(label)), id: id)\n        }\n"
                out += "        return saved\n"
            case .delete:
                out += "    /// - Throws: `RecordError.notFound`, `StoreUnavailable`.\n"
                out += "    public func \(method)(\(owner)id: UUID) async throws {\n"
                out += "        guard try await store.delete(\(ownerArgument)id: id) else {\n"
                out += "            throw RecordError.notFound(entity: \(swiftString(label)), id: id)\n        }\n"
            case .custom:
                break
            }
            out += "    }\n"
        }
        return out + "}\n"
    }

    /// For a create or update that is not admin's: the refusal of the `admin_only` fields
    /// `value` sets (422 naming each), before anything is stored.
    static func staffOnlyCheck(_ names: SceneNames, _ useCase: UseCaseSpec, value: String) -> String {
        let fields = names.writable.filter(\.field.adminOnly)
        guard useCase.auth != .admin, !fields.isEmpty else { return "" }
        let checks = fields.map {
            "\(value).\($0.property) == nil ? nil : FieldError(\(swiftString($0.name)), \"is written by staff only\")"
        }
        var out = "        // Fields staff write (admin_only): not through this route.\n"
        out +=
            "        let staffOnly = [\n" + checks.map { "            " + $0 }.joined(separator: ",\n") + ",\n        ].compactMap { $0 }\n"
        out += "        guard staffOnly.isEmpty else { throw ValidationError(staffOnly) }\n"
        return out
    }

    /// `WishlistEntry` -> `wishlist entry`, for messages.
    static func humanName(_ type: String) -> String {
        var out = ""
        for character in type {
            if character.isUppercase && !out.isEmpty { out += " " }
            out += character.lowercased()
        }
        return out
    }
}
