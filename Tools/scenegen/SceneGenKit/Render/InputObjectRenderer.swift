/// A body member holding an object (or a list of them) as Swift sees it.
struct InputObject {
    let spec: InputObjectSpec

    init(_ spec: InputObjectSpec) { self.spec = spec }

    var property: String { SceneNames.identifier(Names.member(spec.name)) }
    var bare: String { Names.member(spec.name) }
    var fields: [TypedField] { TypedField.list(spec.fields, prefix: spec.type) }
    /// The objects among its members.
    var objects: [InputObject] { spec.objects.map(InputObject.init) }
    /// The checked value's type in the input (optional when the member is).
    var valueType: String { (spec.list ? "[\(spec.type)]" : spec.type) + (spec.optional ? "?" : "") }
    /// The type the client's value arrives in.
    var uncheckedType: String { spec.list ? "[\(spec.type).Unchecked]" : "\(spec.type).Unchecked" }
}

/// The objects of custom use cases' bodies (`InputObjectSpec`): each a Domain struct with its
/// `Unchecked` form and checks, a rule of the input that checks every element and names its
/// errors by their place (`lines[0].quantity`), and (HTTP) its decodable body. An object's
/// members may be lists of values and objects in turn, rendered the same way one level down.
enum InputObjectRenderer {
    /// The object's struct, its unchecked form and its rules (Domain, beside the input), then
    /// those of the objects among its members.
    static func declaration(_ object: InputObject, useCase: UseCaseSpec, into out: inout CodeWriter) {
        let type = object.spec.type
        let fields = object.fields
        let objects = object.objects
        out.blank()
        let what = object.spec.list ? "An element of `\(object.spec.name)`" : "`\(object.spec.name)`"
        out.doc("\(what) in the input of `\(useCase.name)`, checked as the input's fields are.")
        DomainRenderer.valueStruct(
            type, fields.map { "\($0.property): \($0.inputValueType)" } + objects.map { "\($0.property): \($0.valueType)" },
            enums: fields.compactMap(\.enumDeclaration), into: &out)
        out.blank()
        out.block("extension \(type)") { out in
            out.doc("The object as the client sent it: a `nil` is a member not sent.")
            out.block("public struct Unchecked: Hashable, Sendable") { out in
                var parameters: [String] = []
                for field in fields {
                    out.line("public var \(field.property): \(field.uncheckedType)?")
                    parameters.append("\(field.bare): \(field.uncheckedType)? = nil")
                }
                for nested in objects {
                    out.line("public var \(nested.property): \(nested.uncheckedType)?")
                    parameters.append("\(nested.bare): \(nested.uncheckedType)? = nil")
                }
                out.blank()
                DomainRenderer.initializer(parameters, into: &out)
                out.blank()
                out.doc("The object, checked.\n- Throws: `ValidationError` naming each member as the object names it (`quantity`).")
                out.block("public func validated() throws(ValidationError) -> \(type)") { out in
                    CustomUseCaseRenderer.validation(
                        of: type, fields: fields, objects: objects, pathNames: [], carried: [], rules: "\(type)Rules", into: &out)
                }
            }
        }
        let checked = fields.filter(\.hasInputRule)
        if !checked.isEmpty || !objects.isEmpty {
            out.blank()
            out.doc("The spec's rules for the members of `\(type)`.")
            out.block("enum \(type)Rules") { out in
                DomainRenderer.inputRules(of: checked, into: &out)
                for nested in objects {
                    if !checked.isEmpty || nested.spec != objects.first?.spec { out.blank() }
                    rule(nested, into: &out)
                }
            }
        }
        for nested in objects { declaration(nested, useCase: useCase, into: &out) }
    }

    /// The rule of the member in its parent's rules: every element checked (a list within its
    /// `min_items` and `max_items`), each error named by its place.
    static func rule(_ object: InputObject, into out: inout CodeWriter) {
        let name = object.spec.name
        let type = object.spec.type
        if object.spec.list {
            out.block("static func \(object.bare)(_ value: [\(type).Unchecked], into errors: inout FieldErrors) -> [\(type)]?") { out in
                var valid = ["checked.count == value.count"]
                valid.insert(
                    contentsOf: DomainRenderer.sizeRule(object.spec.minItems, object.spec.maxItems, swiftString(name), into: &out), at: 0)
                out.line("var checked: [\(type)] = []")
                out.block("for (index, element) in value.enumerated()") { out in
                    out.line("do { checked.append(try element.validated()) } catch { errors.add(error, under: \"\(name)[\\(index)]\") }")
                }
                out.line("return \(valid.joined(separator: " && ")) ? checked : nil")
            }
        } else {
            out.block("static func \(object.bare)(_ value: \(type).Unchecked, into errors: inout FieldErrors) -> \(type)?") { out in
                out.line("do { return try value.validated() } catch { errors.add(error, under: \(swiftString(name))) }")
                out.line("return nil")
            }
        }
    }

    /// The decodable body of the object (HTTP), converting to its unchecked form, then those of
    /// the objects among its members (named after it: `<bodyType><Type>`).
    static func body(_ object: InputObject, named bodyType: String, into out: inout CodeWriter) {
        out.blank()
        out.doc("`\(object.spec.name)` in the body: an object whose members are all optional until checked.")
        out.block("struct \(bodyType): Decodable") { out in
            var members: [(property: String, type: String)] = []
            for field in object.fields {
                members.append((field.property, field.spec.type == .money ? "MoneyRequest" : field.uncheckedType))
            }
            for nested in object.objects {
                let element = bodyType + nested.spec.type
                members.append((nested.property, nested.spec.list ? "[\(element)]" : element))
            }
            out.lines(members.map { "let \($0.property): \($0.type)?" })
            WiringRenderer.codingKeys(
                object.fields.map { ($0.property, $0.name) } + object.objects.map { ($0.property, $0.spec.name) }, into: &out)
            out.blank()
            let arguments =
                object.fields.map { "\($0.bare): \($0.property)" + ($0.spec.type == .money ? "?.input" : "") }
                + object.objects.map { "\($0.bare): \($0.property)" + ($0.spec.list ? "?.map(\\.unchecked)" : "?.unchecked") }
            out.block("var unchecked: \(object.spec.type).Unchecked") { $0.list("\(object.spec.type).Unchecked(", arguments) }
        }
        for nested in object.objects { body(nested, named: bodyType + nested.spec.type, into: &out) }
    }
}
