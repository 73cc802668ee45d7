/// A unified diff of two texts by lines (`diff -u` style, three lines of context), from a
/// longest-common-subsequence table: generated files are small enough for O(n·m).
public enum UnifiedDiff {
    public static func render(old: String, new: String, oldName: String, newName: String) -> String {
        let a = lines(old)
        let b = lines(new)
        let edits = script(a, b)
        guard edits.contains(where: { $0.kind != .same }) else { return "" }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var index = 0
        while index < edits.count {
            guard edits[index].kind != .same else {
                index += 1
                continue
            }
            // A hunk: from 3 lines before this change to 3 after the last change closer than 7 lines.
            let start = max(0, index - 3)
            var end = index
            var lookahead = index
            while lookahead < edits.count {
                if edits[lookahead].kind != .same { end = lookahead }
                if lookahead - end > 6 { break }
                lookahead += 1
            }
            let stop = min(edits.count, end + 4)
            let hunk = edits[start..<stop]
            let oldStart = (hunk.first { $0.kind != .insert }?.oldLine ?? edits[start].oldLine) + 1
            let newStart = (hunk.first { $0.kind != .delete }?.newLine ?? edits[start].newLine) + 1
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            out += "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount) +\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .same: out += " " + a[edit.oldLine] + "\n"
                case .delete: out += "-" + a[edit.oldLine] + "\n"
                case .insert: out += "+" + b[edit.newLine] + "\n"
                }
            }
            index = stop
        }
        return out
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    struct Edit {
        enum Kind { case same, delete, insert }
        let kind: Kind
        /// The line in the old text this edit is at (or before, for an insert).
        let oldLine: Int
        let newLine: Int
    }

    static func script(_ a: [String], _ b: [String]) -> [Edit] {
        // suffix[i][j]: the length of the LCS of a[i...] and b[j...].
        let width = b.count + 1
        var suffix = [Int](repeating: 0, count: (a.count + 1) * width)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                suffix[i * width + j] =
                    a[i] == b[j] ? suffix[(i + 1) * width + j + 1] + 1 : max(suffix[(i + 1) * width + j], suffix[i * width + j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                edits.append(Edit(kind: .same, oldLine: i, newLine: j))
                i += 1
                j += 1
            } else if j < b.count, i == a.count || suffix[i * width + j + 1] > suffix[(i + 1) * width + j] {
                edits.append(Edit(kind: .insert, oldLine: i, newLine: j))
                j += 1
            } else {
                edits.append(Edit(kind: .delete, oldLine: i, newLine: j))
                i += 1
            }
        }
        return edits
    }
}
