/// The UseCase layer: one struct per scene with a method per CRUD use case; each custom use case
/// gets a once-file of its own for the user's logic.
enum UseCaseRenderer {
    static func useCase(_ names: SceneNames) -> String {
        let e = names.entity
        let label = humanName(e)
        var out = "import Domain\nimport Foundation\n\n"
        out += "/// \(names.spec.summary)\n"
        out += "public struct \(names.useCase): Sendable {\n"
        var stored = ["store: any \(names.store)"]
        for gateway in names.spec.gateways {
            stored.append("\(names.gatewayProperty(gateway)): any \(names.gatewayPort(gateway))")
        }
        stored.append("system: SystemContext")
        out += stored.map { "    let \($0)\n" }.joined()
        out += "\n" + DomainRenderer.initializer(stored, indent: "    ")
        let owner = names.ownerParameter
        let ownerArgument = names.ownerArgument
        for useCase in names.spec.useCases where useCase.kind != .custom {
            let method = names.method(useCase)
            out += "\n    /// `\(useCase.route)`\n"
            switch useCase.kind {
            case .create:
                out += "    /// - Throws: `ValidationError`, `RecordError.duplicate`, `.missingReference`, `StoreUnavailable`.\n"
                var arguments = ["id: system.newID()"]
                if names.owned { arguments.append("customerID: customerID") }
                if names.fields.contains(where: { $0.field.defaultValue == .now }) { arguments.append("now: system.now()") }
                out += "    public func \(method)(\(owner)_ draft: \(names.draft)) async throws -> \(e) {\n"
                out += "        try await store.insert(draft.validated(\(arguments.joined(separator: ", "))))\n"
            case .list:
                out += "    /// - Throws: `ValidationError` for a bad limit or cursor, `StoreUnavailable`.\n"
                out += "    public func \(method)(\(owner)limit: Int?, cursor: String?) async throws -> Page<\(e)> {\n"
                out += "        let page = try PageRequest(limit: limit, cursor: cursor, defaultLimit: \(useCase.page ?? 20))\n"
                out += "        let found = try await store.page(\(ownerArgument)after: page.after, limit: page.fetchLimit)\n"
                out += "        return Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) }\n"
            case .get:
                out +=
                    "    /// - Throws: `RecordError.notFound`\(names.owned ? " (also for another customer's record)" : ""), `StoreUnavailable`.\n"
                out += "    public func \(method)(\(owner)id: UUID) async throws -> \(e) {\n"
                out += "        guard let found = try await store.find(\(ownerArgument)id: id) else {\n"
                out += "            throw RecordError.notFound(entity: \(swiftString(label)), id: id)\n        }\n"
                out += "        return found\n"
            case .update:
                out += "    /// Changes only the fields `changes` sets.\n"
                out += "    /// - Throws: `ValidationError`, `RecordError`, `StoreUnavailable`.\n"
                out += "    public func \(method)(\(owner)id: UUID, _ changes: \(names.changes)) async throws -> \(e) {\n"
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
