/// One problem found in a spec, at a place in its file.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public let file: String
    public let line: Int
    public let column: Int
    public let severity: Severity
    public let message: String

    public init(file: String, line: Int, column: Int, severity: Severity = .error, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.message = message
    }

    /// `Specs/File.yml:LINE:COLUMN: error: message`, the form editors and compilers use.
    public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }
}

/// A position in a spec file (1-based).
public struct SourcePosition: Hashable, Sendable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    static let start = SourcePosition(line: 1, column: 1)
}

/// Collects the diagnostics of one file.
struct DiagnosticSink {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String) { self.file = file }

    mutating func error(_ message: String, at position: SourcePosition) {
        diagnostics.append(Diagnostic(file: file, line: position.line, column: position.column, message: message))
    }
}
