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
