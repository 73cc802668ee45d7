/// Swift source written line by line: the writer indents each line by the depth of the blocks
/// it is in (four spaces a level), so a renderer never counts spaces itself.
public struct CodeWriter {
    /// The source written so far, every line ended by a newline.
    public private(set) var text = ""
    /// How many levels deep the next line is written.
    public private(set) var depth: Int

    /// - Parameter depth: the level the first line starts at, for a fragment that goes inside a
    ///   type another renderer writes.
    public init(depth: Int = 0) {
        self.depth = depth
    }

    /// One line at the current depth; an empty line is written without indentation.
    public mutating func line(_ line: String) {
        text += line.isEmpty ? "\n" : String(repeating: "    ", count: depth) + line + "\n"
    }

    /// Each line at the current depth.
    public mutating func lines(_ lines: [String]) {
        for line in lines { self.line(line) }
    }

    /// `opener`, then each item on a line of its own one level deeper with a comma after all but
    /// the last (no item: an empty line), then `closer`: the arguments of a call or the
    /// parameters of a function split over lines.
    public mutating func list(_ opener: String, _ items: [String], closer: String = ")") {
        line(opener)
        indented { $0.lines(items.isEmpty ? [""] : items.enumerated().map { $1 + ($0 == items.count - 1 ? "" : ",") }) }
        line(closer)
    }

    /// An empty line.
    public mutating func blank() {
        text += "\n"
    }

    /// A `///` doc comment, a comment line per line of `doc`.
    public mutating func doc(_ doc: String) {
        lines(doc.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "///" : "/// \($0)" })
    }

    /// `opener {`, the body one level deeper, then `closer` (`}`, or `}.recover(...)` and such).
    public mutating func block(_ opener: String, closer: String = "}", _ body: (inout CodeWriter) -> Void) {
        line(opener + " {")
        indented(body)
        line(closer)
    }

    /// The body one level deeper, without braces: the arguments of a call split over lines.
    public mutating func indented(_ body: (inout CodeWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }

    /// Source another renderer wrote (already indented), as it is.
    public mutating func append(_ source: String) {
        text += source
    }
}
