extension String {
    /// The length every rule of ours checks: Unicode code points, what PostgreSQL's `char_length`
    /// counts in the tables' CHECK constraints. Swift's `count` counts grapheme clusters instead:
    /// "é" written as e + U+0301 is one Character but two code points, a family emoji one
    /// Character but seven, so a name the rules let through by `count` could break a constraint
    /// (a 500). Counting the database's way on both sides keeps them in step.
    public var storedLength: Int { unicodeScalars.count }
}
