/// BCP 47 (RFC 5646) language tags, checked for their shape: a 2-3 or 5-8 letter language, then
/// subtags of 1-8 letters or digits (script, region, variants, extensions).
public enum LanguageTag {
    /// What the field errors say a tag must be.
    public static let rule = "must be a BCP 47 language tag such as en or ja-JP (ja_JP is read as ja-JP)"

    /// `text` as a tag: iOS's `Locale.identifier` (`ja_JP`, `ja_JP@calendar=japanese`) is read as
    /// one (`ja-JP`: keywords after `@` dropped, `_` as `-`); `nil` unless the result is well
    /// formed.
    public static func normalized(_ text: String) -> String? {
        let tag = String(text.prefix { $0 != "@" }).replacingOccurrences(of: "_", with: "-")
        return isWellFormed(tag) ? tag : nil
    }

    public static func isWellFormed(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard tag.count <= 35, let language = subtags.first,
            [2, 3, 5, 6, 7, 8].contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
