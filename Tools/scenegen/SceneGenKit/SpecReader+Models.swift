import Yams

extension SpecReader {
    /// `ports:`, hand-written protocols as `{ name: store, type: HomeStore }`; `store` is the
    /// entity's own when the scene has one.
    mutating func ports(_ node: Node?, hasEntity: Bool) -> [PortSpec] {
        var ports: [PortSpec] = []
        for portNode in sequence(node, "ports") {
            let keys = mapping(portNode, "port", allowed: SpecFormat.portKeys, required: ["name", "type"])
            let name = self.name(keys["name"], "port name")
            let type = string(keys["type"], "port type")
            if let type, !Names.isUpperCamelCase(type) {
                sink.error("port type '\(type)' must be an UpperCamelCase protocol name", at: keys["type"]!.position)
            }
            // `shop_currency` is what the container holds for `currency: shop` fields.
            if let name, name == "system" || name == "shop_currency" || (hasEntity && name == "store") {
                sink.error("port name '\(name)' is taken by the scene's own \(name)", at: keys["name"]!.position)
            }
            guard let name, let type else { continue }
            var port = PortSpec(name: name, type: type, position: portNode.position)
            port.value = bool(keys["value"], "value")
            port.optional = bool(keys["optional"], "optional")
            ports.append(port)
        }
        checkUnique(ports.map(\.name), positions: ports.map(\.position), "port")
        return ports
    }

    /// `models:`, value types as `{ name: HomeFeed, fields: [...] }`.
    mutating func models(_ node: Node?) -> [ModelSpec] {
        var models: [ModelSpec] = []
        for modelNode in sequence(node, "models") {
            let keys = mapping(modelNode, "model", allowed: SpecFormat.modelKeys, required: ["name", "fields"])
            let name = string(keys["name"], "model name")
            if let name, !Names.isUpperCamelCase(name) || Names.swiftKeywords.contains(name) {
                sink.error("model name '\(name)' must be UpperCamelCase and no Swift keyword", at: keys["name"]!.position)
            }
            let fieldNodes = sequence(keys["fields"], "fields")
            if keys["fields"] != nil && fieldNodes.isEmpty { sink.error("a model lists at least one field", at: keys["fields"]!.position) }
            let fields = fieldNodes.compactMap { modelField($0) }
            checkUnique(fields.map(\.name), positions: fields.map(\.position), "model field")
            var handwrittenDomain = false
            if let domainNode = keys["domain"], let domain = string(domainNode, "domain") {
                if domain == "handwritten" {
                    handwrittenDomain = true
                } else if domain != "generated" {
                    sink.error("domain must be 'generated' (the default) or 'handwritten'", at: domainNode.position)
                }
            }
            guard let name, fields.count == fieldNodes.count else { continue }
            var model = ModelSpec(name: name, fields: fields, position: modelNode.position)
            model.handwrittenDomain = handwrittenDomain
            for field in model.fields where field.sourceProperty != nil && !handwrittenDomain {
                sink.error("from reads a property of a hand-written Domain type: the model needs domain: handwritten", at: field.position)
            }
            models.append(model)
        }
        checkUnique(models.map(\.name), positions: models.map(\.position), "model")
        return models
    }

    /// A model's field: a field type (`type: int`), or a declared type's name (`type: Item`);
    /// `list: true` makes it an array.
    private mutating func modelField(_ node: Node) -> ModelFieldSpec? {
        let keys = mapping(node, "model field", allowed: SpecFormat.modelFieldKeys, required: ["name", "type"])
        let list = bool(keys["list"], "list")
        let map = bool(keys["map"], "map")
        let optional = bool(keys["optional"], "optional")
        var source: String?
        if let fromNode = keys["from"], let from = string(fromNode, "from") {
            if from.first?.isLowercase == true && from.allSatisfy({ $0.isLetter || $0.isNumber }) && !Names.swiftKeywords.contains(from) {
                source = from
            } else {
                sink.error("from names a property of the hand-written Domain type, in lowerCamelCase, as progress", at: fromNode.position)
            }
        }
        if map && (list || optional), let mapNode = keys["map"] {
            sink.error("a map is an object of values, never null: not with list or optional", at: mapNode.position)
        }
        if list && optional, let listNode = keys["list"] {
            sink.error("a list is never null (an empty list says there is none): drop optional", at: listNode.position)
        }
        if let typeNode = keys["type"], let typeName = string(typeNode, "type"), Names.isUpperCamelCase(typeName) {
            if keys["values"] != nil { sink.error("'values' belongs to enum fields only", at: keys["values"]!.position) }
            if map, let mapNode = keys["map"] { sink.error("a map holds values of a field type, not \(typeName)", at: mapNode.position) }
            guard let name = self.name(keys["name"], "model field name") else { return nil }
            var model = ModelFieldSpec(name: name, value: .named(typeName), list: list, optional: optional, position: node.position)
            model.sourceProperty = source
            return model
        }
        // A field type: read as an answer's member, without the list key.
        var plain = node
        if case .mapping(var mapping) = node {
            mapping["list"] = nil
            mapping["map"] = nil
            mapping["from"] = nil
            plain = .mapping(mapping)
        }
        guard let field = field(plain, role: .plain) else { return nil }
        var model = ModelFieldSpec(name: field.name, value: .field(field), list: list, optional: field.optional, position: node.position)
        model.map = map
        model.sourceProperty = source
        return model
    }

    /// `body: HomeFeed` or `body: { page: ItemPhoto }` of an outcome.
    mutating func namedBody(_ node: Node) -> OutcomeSpec.Body? {
        if case .scalar(let scalar) = node, Names.isUpperCamelCase(scalar.string) { return .model(scalar.string) }
        guard case .mapping = node else { return nil }
        let keys = mapping(node, "body", allowed: ["page"], required: ["page"])
        guard let type = string(keys["page"], "page"), Names.isUpperCamelCase(type) else {
            sink.error("page names a model or entity, as { page: ItemPhoto }", at: node.position)
            return nil
        }
        return .page(type)
    }
}
