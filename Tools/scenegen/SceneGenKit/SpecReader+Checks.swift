import Yams

/// Checks within a spec: names, route shapes, and what generated code needs.
extension SpecReader {
    mutating func checkUnique(_ names: [String], positions: [SourcePosition], _ what: String) {
        var seen = Set<String>()
        for (name, position) in zip(names, positions) where !seen.insert(name).inserted {
            sink.error("duplicate \(what) name '\(name)'", at: position)
        }
    }

    /// A money field is two columns, `<name>_amount` and `<name>_currency` (and, optional, a
    /// `<name>_complete` check): another field of one of those names would be a column twice.
    mutating func checkMoneyColumns(_ fields: [FieldSpec]) {
        let names = Set(fields.map(\.name))
        for field in fields where field.type == .money {
            for suffix in ["amount", "currency", "complete"] where names.contains("\(field.name)_\(suffix)") {
                sink.error(
                    "money field '\(field.name)' is stored as columns \(field.name)_amount and \(field.name)_currency (with a \(field.name)_complete check): rename field '\(field.name)_\(suffix)'",
                    at: field.position)
            }
        }
    }

    /// PostgreSQL cuts identifiers at 63 bytes: the migration's constraint names
    /// (`<table>_<column>_check`, a money field's `<table>_<field>_currency_check`) and indexes
    /// (`<table>_customer_id_idx`) would collide once cut, and a violation's constraint would no
    /// longer end in the `_key` or `_check` that maps it to its field.
    mutating func checkIdentifierLengths(table: String, at position: SourcePosition, fields: [FieldSpec]) {
        let limit = 63
        if table.utf8.count + "_customer_id_idx".utf8.count > limit {
            sink.error("table '\(table)' is too long: its index names would pass PostgreSQL's \(limit) bytes", at: position)
        }
        for field in fields {
            let name = "\(table)_\(field.name)\(field.type == .money ? "_currency_check" : "_check")"
            if name.utf8.count > limit {
                sink.error(
                    "constraint name '\(name)' would pass PostgreSQL's \(limit) bytes: shorten the table or the field name",
                    at: field.position)
            }
        }
    }

    /// CRUD kinds have fixed shapes: get/update/delete address one row by its `{id}`; any of
    /// them may be nested under one parent parameter (`/v1/items/{item_id}/notes/{id}`).
    mutating func checkRouteShape(kind: UseCaseSpec.Kind, route: Route, at position: SourcePosition) {
        let expected: (method: String, needsID: Bool)? =
            switch kind {
            case .create: ("POST", false)
            case .list: ("GET", false)
            case .get: ("GET", true)
            case .update: ("PATCH", true)
            case .replace: ("PUT", true)
            case .delete: ("DELETE", true)
            case .custom: nil
            }
        guard let expected else { return }
        if route.method != expected.method {
            sink.error("a \(kind.rawValue) use case is routed with \(expected.method), not \(route.method)", at: position)
        }
        if expected.needsID && route.segments.last != "{id}" {
            sink.error("a \(kind.rawValue) route must end in /{id}", at: position)
        }
        let others = route.parameters.filter { $0 != "id" }
        if !expected.needsID && route.parameters.contains("id") {
            sink.error("a \(kind.rawValue) route takes no {id}", at: position)
        }
        if others.count > 1 {
            sink.error(
                "a \(kind.rawValue) route is nested under one parent at most, not \(others.map { "{\($0)}" }.joined(separator: " and "))",
                at: position)
        }
    }

    /// Routes may not clash; a generated scene's routes also give each parameter place one name
    /// (a handwritten scene's names are documentation: its code registers its own).
    mutating func checkRoutes(_ useCases: [UseCaseSpec], generated: Bool) {
        for (index, useCase) in useCases.enumerated() {
            if let earlier = useCases[..<index].first(where: { $0.route.clashes(with: useCase.route) }) {
                sink.error("route \(useCase.route) clashes with \(earlier.route) of use case '\(earlier.name)'", at: useCase.position)
            }
            for earlier in useCases[..<index] where generated {
                guard let (name, otherName) = useCase.route.parameterNameConflict(with: earlier.route) else { continue }
                sink.error(
                    "route parameter {\(name)} sits where \(earlier.route) of use case '\(earlier.name)' has {\(otherName)}; the router needs one name per place",
                    at: useCase.position)
                break
            }
        }
    }
}

extension SpecReader {
    /// What the generated CRUD code needs of the entity.
    mutating func checkGeneratable(_ entity: EntitySpec, _ useCases: [UseCaseSpec]) {
        for primary in entity.fields.filter(\.primary) where primary.type != .uuid {
            sink.error("the primary field of a generated scene must be of type uuid", at: primary.position)
        }
        for primary in entity.fields.filter(\.primary).dropFirst() {
            sink.error("a generated scene has one primary field; a composite key needs code: handwritten", at: primary.position)
        }
        let hasCreatedAt = entity.fields.contains { $0.name == "created_at" && $0.type == .timestamp }
        for useCase in useCases where useCase.kind == .list && !hasCreatedAt {
            sink.error(
                "a list pages newest first by created_at: add { name: created_at, type: timestamp, default: now, readonly: true }",
                at: useCase.position)
        }
        let writable = entity.fields.filter { !$0.primary && !$0.readonly }
        for useCase in useCases where [.update, .replace].contains(useCase.kind) && writable.isEmpty {
            sink.error("an \(useCase.kind.rawValue) needs a field that is not readonly", at: useCase.position)
        }
        for useCase in useCases where useCase.kind == .update && entity.rules {
            sink.error(
                "an entity with rules changes by replace (PUT), not update: a change of one field could break a rule with one the client did not send",
                at: useCase.position)
        }
        for useCase in useCases where useCase.kind == .replace && entity.owner != nil && useCase.auth != .customer {
            sink.error("a replace writes a customer's row as its owner: it needs auth: customer", at: useCase.position)
        }
        let staffOnly = entity.fields.filter(\.adminOnly)
        for useCase in useCases where useCase.kind == .replace && useCase.auth != .admin && !staffOnly.isEmpty {
            sink.error(
                "a replace writes every field, and '\(staffOnly[0].name)' is admin_only: only an admin replace may, or change it by update",
                at: useCase.position)
        }
        if entity.fields.contains(where: \.onePerOwner) {
            for useCase in useCases where [.create, .update, .replace].contains(useCase.kind) && useCase.auth != .customer {
                sink.error(
                    "one_per_owner is kept under the customer's lock: the \(useCase.kind.rawValue) that writes it must be auth: customer",
                    at: useCase.position)
            }
        }
        let parent = checkParent(entity, useCases)
        if useCases.contains(where: { $0.kind == .create && $0.auth != .admin }) {
            for field in entity.fields where field.adminOnly && !field.optional && field.defaultValue == nil {
                sink.error(
                    "'\(field.name)' is admin_only but a create that is not admin's must set it: give it a default or optional: true",
                    at: field.position)
            }
        }
        guard useCases.contains(where: { $0.kind == .create }) else { return }
        let unset = entity.fields.filter { field in
            field.readonly && !field.primary && !field.optional && field.defaultValue == nil && field.name != parent?.name
        }
        for field in unset {
            sink.error("a readonly field needs a default or optional: true when the scene creates records", at: field.position)
        }
    }
}

extension SpecReader {
    /// Nested CRUD routes (`/v1/items/{item_id}/notes`) share one parent, a field that names the
    /// parent row: a readonly, required uuid reference. Returns it.
    mutating func checkParent(_ entity: EntitySpec, _ useCases: [UseCaseSpec]) -> FieldSpec? {
        let crud = useCases.filter { $0.kind != .custom }
        guard let first = crud.first(where: { $0.route.parameters.contains { $0 != "id" } }) else { return nil }
        let name = first.route.parameters.first { $0 != "id" }!
        for useCase in crud where !useCase.route.parameters.contains(name) {
            sink.error(
                "the CRUD routes of a scene are nested under one parent: \(first.route) has {\(name)}, \(useCase.route) does not",
                at: useCase.position)
        }
        guard let field = entity.fields.first(where: { $0.name == name }) else {
            sink.error(
                "{\(name)} in \(first.route) names no field: declare { name: \(name), type: uuid, references: <table>, readonly: true }",
                at: first.position)
            return nil
        }
        if field.type != .uuid || field.references == nil || field.optional || field.primary || !field.readonly {
            sink.error(
                "'\(name)' nests the routes (\(first.route)), so it must be a required, readonly uuid reference: { name: \(name), type: uuid, references: <table>, readonly: true }",
                at: field.position)
        }
        return field
    }
}
