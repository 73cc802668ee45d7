/// A body member holding an object (or a list of them) as Swift sees it.
struct InputObject {
    let spec: InputObjectSpec

    init(_ spec: InputObjectSpec) { self.spec = spec }

    var property: String { SceneNames.identifier(Names.member(spec.name)) }
    var bare: String { Names.member(spec.name) }
    var fields: [TypedField] { TypedField.list(spec.fields, prefix: spec.type) }
    /// The checked value's type in the input (optional when the member is).
    var valueType: String { (spec.list ? "[\(spec.type)]" : spec.type) + (spec.optional ? "?" : "") }
    /// The type the client's value arrives in.
    var uncheckedType: String { spec.list ? "[\(spec.type).Unchecked]" : "\(spec.type).Unchecked" }
}

/// The objects of custom use cases' bodies (`InputObjectSpec`): each a Domain struct with its
/// `Unchecked` form and checks, a rule of the input that checks every element and names its
/// errors by their place (`lines[0].quantity`), and (HTTP) its decodable body.
enum InputObjectRenderer {
    /// The object's struct, its unchecked form and its rules (Domain, beside the input).
    static func declaration(_ object: InputObject, useCase: UseCaseSpec, into out: inout CodeWriter) {
        let type = object.spec.type
        let fields = object.fields
        out.blank()
        let what = object.spec.list ? "An element of `\(object.spec.name)`" : "`\(object.spec.name)`"
        out.doc("\(what) in the input of `\(useCase.name)`, checked as the input's fields are.")
        DomainRenderer.valueStruct(
            type, fields.map { "\($0.property): \($0.optionalValueType)" }, enums: fields.compactMap(\.enumDeclaration), into: &out)
        out.blank()
        out.block("extension \(type)") { out in
            out.doc("The object as the client sent it: a `nil` is a member not sent.")
            out.block("public struct Unchecked: Hashable, Sendable") { out in
                var parameters: [String] = []
                for field in fields {
                    out.line("public var \(field.property): \(field.swift.inputType)?")
                    parameters.append("\(field.bare): \(field.swift.inputType)? = nil")
                }
                out.blank()
                DomainRenderer.initializer(parameters, into: &out)
                out.blank()
                out.doc("The object, checked.\n- Throws: `ValidationError` naming each member as the object names it (`quantity`).")
                out.block("public func validated() throws(ValidationError) -> \(type)") { out in
                    CustomUseCaseRenderer.validation(
                        of: type, fields: fields, objects: [], pathNames: [], carried: [], rules: "\(type)Rules", into: &out)
                }
            }
        }
        let checked = fields.filter { DomainRenderer.hasRule($0.swift) }
        if !checked.isEmpty {
            out.blank()
            out.doc("The spec's rules for the members of `\(type)`.")
            out.block("enum \(type)Rules") { DomainRenderer.rules(of: checked.map(\.swift), into: &$0) }
        }
    }

    /// The input's rule for the member: every element checked, each error named by its place.
    static func rule(_ object: InputObject, into out: inout CodeWriter) {
        let name = object.spec.name
        let type = object.spec.type
        if object.spec.list {
            out.block("static func \(object.bare)(_ value: [\(type).Unchecked], into errors: inout FieldErrors) -> [\(type)]?") { out in
                out.line("var checked: [\(type)] = []")
                out.block("for (index, element) in value.enumerated()") { out in
                    out.line("do { checked.append(try element.validated()) } catch { errors.add(error, under: \"\(name)[\\(index)]\") }")
                }
                out.line("return checked.count == value.count ? checked : nil")
            }
        } else {
            out.block("static func \(object.bare)(_ value: \(type).Unchecked, into errors: inout FieldErrors) -> \(type)?") { out in
                out.line("do { return try value.validated() } catch { errors.add(error, under: \(swiftString(name))) }")
                out.line("return nil")
            }
        }
    }

    /// The decodable body of the object (HTTP), converting to its unchecked form.
    static func body(_ object: InputObject, named bodyType: String, into out: inout CodeWriter) {
        out.blank()
        out.doc("`\(object.spec.name)` in the body: an object whose members are all optional until checked.")
        out.block("struct \(bodyType): Decodable") { out in
            for field in object.fields {
                out.line("let \(field.property): \(field.spec.type == .money ? "MoneyRequest" : field.swift.inputType)?")
            }
            WiringRenderer.codingKeys(object.fields.map { ($0.property, $0.name) }, into: &out)
            out.blank()
            let arguments = object.fields.map { "\($0.bare): \($0.property)" + ($0.spec.type == .money ? "?.input" : "") }
            out.block("var unchecked: \(object.spec.type).Unchecked") { $0.list("\(object.spec.type).Unchecked(", arguments) }
        }
    }
}
