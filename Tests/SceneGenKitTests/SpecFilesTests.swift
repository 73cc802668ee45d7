import Foundation
import SceneGenKit
import TestSupport
import Testing

@Suite("Specs/ files")
struct SpecFilesTests {
    @Test func everySpecInTheRepositoryIsValid() throws {
        let directory = repositoryRoot.appendingPathComponent("Specs")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yml") }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let (spec, diagnostics) = SpecParser.parse(text, file: "Specs/\(file)")
            #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
            #expect(spec?.scene == String(file.dropLast(4)), "a spec file is named after its scene")
        }
    }
}

@Suite("Specs/scene.schema.json")
struct SpecSchemaTests {
    /// The published schema names exactly the keys the parser accepts, construct by construct.
    @Test func schemaAndParserAgreeOnEveryKey() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Specs/scene.schema.json"))
        let schema = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        func keys(_ object: [String: Any]?) -> Set<String> { Set((object?["properties"] as? [String: Any])?.keys ?? [:].keys) }
        let defs = try #require(schema["$defs"] as? [String: [String: Any]])
        #expect(keys(schema) == Set(SpecFormat.sceneKeys))
        #expect(keys(defs["entity"]) == Set(SpecFormat.entityKeys))
        #expect(keys(defs["field"]) == Set(SpecFormat.fieldKeys))
        #expect(keys(defs["useCase"]) == Set(SpecFormat.useCaseKeys))
        #expect(keys(defs["gateway"]) == Set(SpecFormat.gatewayKeys))
        #expect(keys(defs["input"]) == Set(SpecFormat.inputKeys))
        #expect(keys(defs["inputField"]) == Set(SpecFormat.inputFieldKeys))
        #expect(keys(defs["plainField"]) == Set(SpecFormat.plainFieldKeys))
        #expect(keys(defs["outcome"]) == Set(SpecFormat.outcomeKeys))
        #expect(keys(defs["operation"]) == Set(SpecFormat.operationKeys))
        #expect(keys(defs["operationError"]) == Set(SpecFormat.operationErrorKeys))
        #expect(keys(defs["port"]) == Set(SpecFormat.portKeys))
        #expect(keys(defs["model"]) == Set(SpecFormat.modelKeys))
        #expect(keys(defs["modelField"]) == Set(SpecFormat.modelFieldKeys))
    }
}
