/// Where a stored file is published: the media API's public URL (`MEDIA_PUBLIC_URL`, no trailing
/// slash) and the file's name, which is ours (an id and an extension), so it needs no escaping.
enum MediaURL {
    /// `nil` when the shop publishes no files.
    static func of(_ filename: String, at base: String?) -> String? {
        base.map { "\($0)/\(filename)" }
    }
}
