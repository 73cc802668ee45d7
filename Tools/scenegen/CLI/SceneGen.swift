import ArgumentParser
import Foundation
import SceneGenKit

@main
struct SceneGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenegen",
        abstract: "Generate each scene's code in every layer from its YAML description in Specs/.",
        discussion: """
            Run from the repository root. Every file starts with a line saying who owns it: \
            "generated" files are rewritten on every run and never edited by hand (a hand edit is \
            noticed and the run stops, naming the file; the API document, JSON, has that line in \
            Sources/HTTP/Resources/openapi.json.scenegen); "once" files (custom use cases, the \
            production wiring of hand-written ports and what generated tests hold as them, new \
            migrations) are created when missing and never touched again; a port left for you to \
            write is an #error the build names. A spec with errors is reported as Specs/File.yml:LINE:COLUMN: \
            error: message, and nothing is written; errors come in passes (each spec on its own, \
            then between specs and against the migrations), so fixing one may show others. \
            Specs/scene.schema.json describes \
            the format for editors. The generator's own matrix of specs, \
            Tests/SceneMatrixTests/Specs/*.yml, is generated into that test module on every run.
            """)

    @Argument(help: "Specs to regenerate, such as Specs/Wishlist.yml (default: every Specs/*.yml and Tests/SceneMatrixTests/Specs/*.yml).")
    var specs: [String] = []

    @Flag(help: "Print what would be created, rewritten or left alone; write nothing.")
    var dryRun = false

    @Flag(help: "Write nothing; exit 1 with a unified diff when any file differs from what the specs produce.")
    var check = false

    @Flag(help: "Overwrite generated files that were edited by hand.")
    var force = false

    @Option(help: "The repository root.")
    var root: String = FileManager.default.currentDirectoryPath

    func validate() throws {
        if dryRun && check { throw ValidationError("--dry-run and --check exclude each other") }
    }

    func run() throws {
        let mode: Workspace.Mode = check ? .check : dryRun ? .dryRun : .write
        let workspace = Workspace(root: URL(fileURLWithPath: root))
        let normalized = specs.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
        let outcome = workspace.run(specPaths: normalized, mode: mode, force: force) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        for line in outcome.lines where !line.isEmpty { print(line, terminator: line.hasSuffix("\n") ? "" : "\n") }
        for error in outcome.errors { FileHandle.standardError.write(Data((error + "\n").utf8)) }
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }
}
