/// The UseCase layer: one struct per scene with a method per CRUD use case; each custom use case
/// gets a once-file of its own for the user's logic.
enum UseCaseRenderer {
    static func useCase(_ names: SceneNames) -> String {
        let stored = WiringRenderer.containerProperties(names)
        var out = CodeWriter()
        out.lines(["import Domain", "import Foundation", ""])
        out.doc(names.spec.summary)
        out.block("public struct \(names.useCase): Sendable") { out in
            out.lines(stored.map { "let \($0)" })
            out.blank()
            DomainRenderer.initializer(stored, into: &out)
            for useCase in names.spec.useCases where useCase.kind != .custom {
                out.blank()
                out.doc("`\(useCase.route)`")
                method(names, useCase, into: &out)
            }
        }
        return out.text
    }

    /// The doc comment's rest, the signature and the body of a CRUD use case's method.
    private static func method(_ names: SceneNames, _ useCase: UseCaseSpec, into out: inout CodeWriter) {
        let e = names.entity
        let label = swiftString(humanName(e))
        let owner = names.scopeParameter(useCase)
        let ownerArgument = names.scopeArgument(useCase, toStore: true)
        let method = names.method(useCase)
        switch useCase.kind {
        case .create:
            out.doc(
                "- Throws: `ValidationError`, `RecordError.duplicate`, `.missingReference`, "
                    + (names.parentLabel.map { "`.notFound` for an unknown \($0), " } ?? "") + "`StoreUnavailable`.")
            var arguments = ["id: system.newID()"]
            arguments += names.scope.map { "\($0.label): \($0.label)" }
            if names.fields.contains(where: { $0.field.defaultValue == .now }) { arguments.append("now: system.now()") }
            if names.checksShopCurrency { arguments.append("shopCurrency: shopCurrency") }
            out.block("public func \(method)(\(owner)_ draft: \(names.draft)) async throws -> \(e)") { out in
                let checks = staffOnlyCheck(names, useCase, value: "draft", into: &out)
                let insert = "try await store.insert(draft.validated(\(arguments.joined(separator: ", "))))"
                if let parent = names.parent, let parentLabel = names.parentLabel {
                    // The parent comes from the path: a row it does not name is a 404, not a field error.
                    let missingParent = "catch RecordError.missingReference(let field) where field == \(swiftString(parent.name))"
                    out.block("do", closer: "} \(missingParent) {") { $0.line("return \(insert)") }
                    out.indented { $0.line("throw RecordError.notFound(entity: \(swiftString(parentLabel)), id: \(parent.bareProperty))") }
                    out.line("}")
                } else {
                    out.line((checks ? "return " : "") + insert)
                }
            }
        case .list:
            let filters = names.fields.filter { useCase.filters.contains($0.name) }
            if !filters.isEmpty {
                out.doc("Only records whose \(filters.map { "`\($0.name)`" }.joined(separator: ", ")) equal the values given.")
            }
            let parent = names.parentLabel.map { "`RecordError.notFound` for an unknown \($0), " } ?? ""
            out.doc("- Throws: `ValidationError` for a bad limit, cursor or filter, \(parent)`StoreUnavailable`.")
            let filterParameters = filters.map { ", \($0.bareProperty): String? = nil" }.joined()
            out.block("public func \(method)(\(owner)limit: Int?, cursor: String?\(filterParameters)) async throws -> Page<\(e)>") { out in
                var matching = ""
                if !names.filterFields.isEmpty {
                    let arguments = names.filterFields.map { field in
                        "\(field.bareProperty): " + (useCase.filters.contains(field.name) ? field.property : "nil")
                    }
                    out.line("let filter = try \(names.filter).parsing(\(arguments.joined(separator: ", ")))")
                    matching = "matching: filter, "
                }
                out.line("let page = try PageRequest(limit: limit, cursor: cursor, defaultLimit: \(useCase.page ?? 20))")
                out.line("let found = try await store.page(\(ownerArgument)\(matching)after: page.after, limit: page.fetchLimit)")
                out.line("return Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) }")
            }
        case .get:
            out.doc(
                "- Throws: `RecordError.notFound`\(names.actsForOwner(useCase) ? " (also for another customer's record)" : ""), `StoreUnavailable`."
            )
            out.block("public func \(method)(\(owner)id: UUID) async throws -> \(e)") { out in
                out.block("guard let found = try await store.find(\(ownerArgument)id: id) else") {
                    $0.line("throw RecordError.notFound(entity: \(label), id: id)")
                }
                out.line("return found")
            }
        case .update:
            out.doc("Changes only the fields `changes` sets.\n- Throws: `ValidationError`, `RecordError`, `StoreUnavailable`.")
            out.block("public func \(method)(\(owner)id: UUID, _ changes: \(names.changes)) async throws -> \(e)") { out in
                staffOnlyCheck(names, useCase, value: "changes", into: &out)
                let validated = "changes.validated(\(names.checksShopCurrency ? "shopCurrency: shopCurrency" : ""))"
                out.block("guard let saved = try await store.update(\(ownerArgument)id: id, with: \(validated)) else") {
                    $0.line("throw RecordError.notFound(entity: \(label), id: id)")
                }
                out.line("return saved")
            }
        case .replace:
            out.doc(
                "Writes every field of `draft` over the record: a field it leaves out takes its default, or none.\n- Throws: `ValidationError`, `RecordError`, `StoreUnavailable`."
            )
            var arguments = ["id: id"]
            arguments += names.scope.map { "\($0.label): \($0.label)" }
            // A readonly timestamp is the record's: the store writes none of them.
            if names.fields.contains(where: { $0.field.defaultValue == .now }) { arguments.append("now: system.now()") }
            if names.checksShopCurrency { arguments.append("shopCurrency: shopCurrency") }
            out.block("public func \(method)(\(owner)id: UUID, _ draft: \(names.draft)) async throws -> \(e)") { out in
                out.block(
                    "guard let saved = try await store.replace(\(ownerArgument)id: id, with: draft.validated(\(arguments.joined(separator: ", ")))) else"
                ) {
                    $0.line("throw RecordError.notFound(entity: \(label), id: id)")
                }
                out.line("return saved")
            }
        case .delete:
            out.doc("- Throws: `RecordError.notFound`, `StoreUnavailable`.")
            out.block("public func \(method)(\(owner)id: UUID) async throws") { out in
                out.block("guard try await store.delete(\(ownerArgument)id: id) else") {
                    $0.line("throw RecordError.notFound(entity: \(label), id: id)")
                }
            }
        case .custom:
            break
        }
    }

    /// For a create or update that is not admin's: the refusal of the `admin_only` fields
    /// `value` sets, or for an update removes (a `null` erased the staff's answer), 422 naming
    /// each, before anything is stored. Returns whether it wrote one.
    @discardableResult
    static func staffOnlyCheck(_ names: SceneNames, _ useCase: UseCaseSpec, value: String, into out: inout CodeWriter) -> Bool {
        let fields = names.writable.filter(\.field.adminOnly)
        guard useCase.auth != .admin, !fields.isEmpty else { return false }
        let checks = fields.map { field in
            let removes = useCase.kind == .update && field.field.optional ? " && !\(value).removing.contains(.\(field.property))" : ""
            return
                "\(value).\(field.property) == nil\(removes) ? nil : FieldError(\(swiftString(field.name)), \"is written by staff only\")"
        }
        out.line("// Fields staff write (admin_only): not through this route.")
        out.line("let staffOnly = [")
        out.indented { $0.lines(checks.map { $0 + "," }) }
        out.line("].compactMap { $0 }")
        out.line("guard staffOnly.isEmpty else { throw ValidationError(staffOnly) }")
        return true
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
