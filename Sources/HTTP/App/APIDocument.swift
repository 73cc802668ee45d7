import Foundation
import NIOCore

/// The OpenAPI 3.1 document of the whole API, as scenegen writes it to
/// `Sources/HTTP/Resources/openapi.json` (a resource of this module): served at
/// `GET /openapi.json`, and read for the methods each path takes (`AllowedMethods`).
struct APIDocument: Sendable {
    /// Why the document could not be loaded: the application is not built without it.
    enum LoadError: Error, CustomStringConvertible {
        case missing
        case unreadable(path: String, reason: String)
        case malformed(path: String)

        var description: String {
            switch self {
            case .missing:
                "the API document openapi.json is not among the HTTP module's resources (Storefront_HTTP.resources beside the binary)"
            case .unreadable(let path, let reason): "the API document \(path) cannot be read: \(reason)"
            case .malformed(let path): "the API document \(path) is not an OpenAPI document with paths; run `swift run scenegen`"
            }
        }
    }

    /// The bytes served, exactly as scenegen wrote them.
    let json: ByteBuffer
    /// The methods each documented path takes.
    let allowedMethods: AllowedMethods

    /// The module's resource, read once per process: the first `buildRouter` reads it and every
    /// later one (the HTTP tests build many) shares it.
    static let bundled = Result { () throws(LoadError) in
        try load(from: Bundle.module.url(forResource: "openapi", withExtension: "json"))
    }

    /// Reads and parses the document at `url`.
    /// - Throws: `LoadError` when `url` is `nil`, the file cannot be read, or it is not JSON with
    ///   an object of `paths`.
    static func load(from url: URL?) throws(LoadError) -> APIDocument {
        guard let url else { throw .missing }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: error.localizedDescription)
        }
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let paths = document["paths"] as? [String: [String: Any]]
        else { throw .malformed(path: url.path) }
        return APIDocument(
            json: ByteBuffer(bytes: data), allowedMethods: AllowedMethods(paths: paths.mapValues { Array($0.keys) }))
    }
}
