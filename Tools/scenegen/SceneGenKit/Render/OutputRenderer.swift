/// The Translator and Presenter layers: the response model (JSON keys in snake_case, every
/// field written, null included), the entity -> model translator, and the HTTP answers.
enum OutputRenderer {
    static func translator(_ names: SceneNames) -> String {
        guard names.spec.entity != nil else {
            let models = ModelRenderer.translator(names, declaring: true) + CustomUseCaseRenderer.models(names)
            return "import Domain\nimport Foundation\n\n" + models
        }
        var members: [(property: String, key: String, type: String, value: String)] = []
        let v = names.entityVariable
        for (index, field) in names.fields.enumerated() {
            let access = "\(v).\(field.property)"
            let chain = field.field.optional ? "\(access)?" : access
            let (type, value): (String, String)
            switch field.field.type {
            case .uuid: (type, value) = ("String", "\(chain).lowercasedText")
            case .money: (type, value) = ("MoneyModel", field.field.optional ? "\(access).map(MoneyModel.init)" : "MoneyModel(\(access))")
            case .timestamp:
                (type, value) = ("String", field.field.optional ? "\(access).map(Timestamp.rfc3339)" : "Timestamp.rfc3339(\(access))")
            case .enumeration: (type, value) = ("String", "\(chain).rawValue")
            case .int: (type, value) = ("Int", access)
            case .bigint: (type, value) = ("Int64", access)
            case .bool: (type, value) = ("Bool", access)
            case .number: (type, value) = ("Double", access)
            case .string, .text: (type, value) = ("String", access)
            }
            members.append((field.property, field.name, type + (field.field.optional ? "?" : ""), value))
            if index == 0 && names.owned {
                members.append(("customerID", "customer_id", "String", "\(v).customerID.lowercasedText"))
            }
        }
        let models = CustomUseCaseRenderer.models(names)
        var out = CodeWriter()
        out.lines(["import Domain"] + (models.isEmpty ? [] : ["import Foundation"]) + [""])
        out.doc("A \(UseCaseRenderer.humanName(names.entity)) as clients see it.")
        out.block("public struct \(names.model): \(modelConformances)") { out in
            out.lines(members.map { "public let \($0.property): \($0.type)" })
            WiringRenderer.codingKeys(members.map { ($0.property, $0.key) }, into: &out)
            out.blank()
            encodeEveryMember(
                members.map { ($0.property, $0.key) },
                doc: "Writes every member, `null` included, so clients never guess whether a key exists.",
                into: &out)
        }
        out.blank()
        out.doc("\(names.scene) entities to response models.")
        out.block("public enum \(names.translator)") { out in
            out.block("public static func model(_ \(v): \(names.entity)) -> \(names.model)") { out in
                out.list("\(names.model)(", members.map { "\($0.property.replacingOccurrences(of: "`", with: "")): \($0.value)" })
            }
            out.blank()
            out.block("public static func model(_ page: Page<\(names.entity)>) -> PageModel<\(names.model)>") {
                $0.line("PageModel(data: page.items.map(model), nextCursor: page.nextCursor?.token)")
            }
        }
        return out.text + ModelRenderer.translator(names, declaring: false) + models
    }

    /// `encode(to:)` writing each member (its coding key shares its property's name), and
    /// `writeJSON(to:)` writing the same bytes without `Encodable`'s value tree: the members in
    /// the order of their JSON keys, sorted here once, as `JSONBodyEncoder` sorts them.
    static func encodeEveryMember(_ members: [(property: String, key: String)], doc: String, into out: inout CodeWriter) {
        out.doc(doc)
        out.block("public func encode(to encoder: any Encoder) throws") { out in
            out.line("var container = encoder.container(keyedBy: CodingKeys.self)")
            out.lines(members.map { "try container.encode(\($0.property), forKey: .\($0.property))" })
        }
        out.blank()
        out.doc("The bytes `encode(to:)` gives `JSONBodyEncoder`, written directly.")
        out.block("public func writeJSON(to writer: inout JSONWriter) throws") { out in
            out.line("writer.beginObject()")
            out.lines(members.sorted { $0.key < $1.key }.map { "try writer.member(\"\($0.key)\", \($0.property))" })
            out.line("writer.endObject()")
        }
    }

    /// The protocols every response model conforms to.
    static let modelConformances = "Codable, Hashable, Sendable, JSONWritable"

    static func presenter(_ names: SceneNames) -> String {
        var e: String { names.entity }  // CRUD answers only
        let t = names.translator
        let answer = "outcome.map { .json(200, \(t).model($0)) }.recover(Problem.from)"
        var methods: [(inout CodeWriter) -> Void] = []
        if !names.useCases(.list).isEmpty {
            methods.append { out in
                out.doc("200 with `{\"data\", \"next_cursor\"}`.")
                out.block("public static func page(_ outcome: Result<Page<\(e)>, any Error>) -> Presentation") { $0.line(answer) }
            }
        }
        if !names.useCases(.get).isEmpty || names.updates || names.replaces {
            methods.append { out in
                out.doc("200 with the record.")
                out.block("public static func record(_ outcome: Result<\(e), any Error>) -> Presentation") { $0.line(answer) }
            }
        }
        if names.creates {
            let signature = "public static func created(_ outcome: Result<\(e), any Error>) -> Presentation"
            if let show = names.useCases(.get).first {
                // The show route with the new row's id and its parent's filled in.
                let location = show.route.segments.map { segment -> String in
                    guard segment.hasPrefix("{") else { return segment }
                    let name = String(segment.dropFirst().dropLast())
                    let property = name == "id" ? "id" : SwiftField(field: names.parent!.field, entity: e).property
                    return "\\(created.\(property).lowercasedText)"
                }.reduce("") { $0 + "/" + $1 }
                methods.append { out in
                    out.doc("201 with the record and its `Location`.")
                    out.block(signature) { out in
                        out.line("outcome.map { created in")
                        out.indented { $0.line(".json(201, \(t).model(created), headers: [(\"Location\", \"\(location)\")])") }
                        out.line("}.recover(Problem.from)")
                    }
                }
            } else {
                methods.append { out in
                    out.doc("201 with the record.")
                    out.block(signature) { $0.line("outcome.map { .json(201, \(t).model($0)) }.recover(Problem.from)") }
                }
            }
        }
        if !names.useCases(.delete).isEmpty {
            methods.append { out in
                out.doc("204 with no body.")
                out.block("public static func deleted(_ outcome: Result<Void, any Error>) -> Presentation") {
                    $0.line("outcome.map { .noContent }.recover(Problem.from)")
                }
            }
        }
        for useCase in names.useCases(.custom) { methods.append { $0.append(CustomUseCaseRenderer.presenter(names, useCase)) } }
        var out = CodeWriter()
        out.lines(["import Domain", "import Translator", ""])
        out.doc("\(names.scene) outcomes to HTTP answers; errors are the shared ones of `Problem.from`.")
        out.block("public enum \(names.presenter)") { out in
            for (index, method) in methods.enumerated() {
                if index > 0 { out.blank() }
                method(&out)
            }
        }
        return out.text
    }
}
