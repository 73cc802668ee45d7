import Foundation

/// One file of `Migrations/`: `NNNN_name.sql`, applied once, in version order.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The file name the migration came from.
    public var fileName: String { String(format: "%04d_%@.sql", version, name) }

    /// Reads every `NNNN_name.sql` in `directory`, sorted by version.
    /// - Throws: `MigrationError` for a file named otherwise, two files with one version, or an
    ///   unreadable directory.
    public static func load(from directory: URL) throws -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MigrationError.unreadableDirectory(directory.path)
        }
        var migrations: [Migration] = []
        for file in names.sorted() where file.hasSuffix(".sql") {
            guard let (version, name) = parse(fileName: file) else {
                throw MigrationError.badFileName(file)
            }
            if let earlier = migrations.first(where: { $0.version == version }) {
                throw MigrationError.duplicateVersion(version, earlier.fileName, file)
            }
            let sql = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            migrations.append(Migration(version: version, name: name, sql: sql))
        }
        return migrations.sorted { $0.version < $1.version }
    }

    private static func parse(fileName: String) -> (Int, String)? {
        let stem = fileName.dropLast(".sql".count)
        guard let underscore = stem.firstIndex(of: "_") else { return nil }
        let digits = stem[..<underscore]
        let name = stem[stem.index(after: underscore)...]
        guard digits.count == 4, let version = Int(digits), !name.isEmpty,
            name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { return nil }
        return (version, String(name))
    }
}

/// Why migrations did not run.
public enum MigrationError: Error, Equatable, CustomStringConvertible {
    case unreadableDirectory(String)
    case badFileName(String)
    case duplicateVersion(Int, String, String)
    /// An applied migration's file changed since it ran.
    case checksumMismatch(file: String, applied: String, now: String)
    /// A migration's SQL failed; nothing of it was kept.
    case failed(file: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableDirectory(let path): return "cannot read migrations directory \(path)"
        case .badFileName(let file): return "migration file \(file) is not named NNNN_lowercase_name.sql"
        case .duplicateVersion(let version, let first, let second):
            return "migrations \(first) and \(second) share version \(version)"
        case .checksumMismatch(let file, let applied, let now):
            return
                "migration \(file) was changed after it was applied (checksum \(applied.prefix(12))... now \(now.prefix(12))...); add a new migration instead of editing an applied one"
        case .failed(let file, let reason): return "migration \(file) failed: \(reason)"
        }
    }
}
