import SceneGenKit
import Testing

@Suite("scenegen: the code writer")
struct CodeWriterTests {
    @Test func indentsNestedBlocksFourSpacesALevel() {
        var writer = CodeWriter()
        writer.block("struct Box") { writer in
            writer.line("let width: Int")
            writer.block("func area() -> Int", closer: "}.self") { writer in
                writer.line("return width")
            }
        }
        #expect(writer.text == "struct Box {\n    let width: Int\n    func area() -> Int {\n        return width\n    }.self\n}\n")
    }

    @Test func splitsAListOverLinesAndStartsAtTheDepthGiven() {
        var writer = CodeWriter(depth: 1)
        writer.list("call(", ["a", "b"])
        writer.list("UPDATE t SET", ["x = 1"], closer: "WHERE id = $1")
        writer.list("none(", [])
        writer.indented { $0.line("deeper") }
        writer.append("  as it is\n")
        #expect(
            writer.text
                == "    call(\n        a,\n        b\n    )\n    UPDATE t SET\n        x = 1\n    WHERE id = $1\n    none(\n\n    )\n        deeper\n  as it is\n"
        )
    }

    @Test func writesADocCommentOfSeveralLinesAtTheDepth() {
        var writer = CodeWriter(depth: 1)
        writer.doc("First line.\n\n- Throws: `Oops`.")
        #expect(writer.text == "    /// First line.\n    ///\n    /// - Throws: `Oops`.\n")
    }

    @Test func leavesBlankLinesUnindented() {
        var writer = CodeWriter()
        writer.block("enum E") { writer in
            writer.line("case a")
            writer.blank()
            writer.line("")
            writer.line("case b")
        }
        #expect(writer.text == "enum E {\n    case a\n\n\n    case b\n}\n")
    }
}
