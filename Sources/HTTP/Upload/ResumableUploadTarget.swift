import Domain
import Foundation
import HTTPTypes
import Presenter
import Synchronization

/// A route that takes resumable uploads (its spec's `upload: { resumable: true }`): how the
/// finished file reaches its logic, from whichever instance receives the last byte.
struct ResumableUploadTarget: Sendable {
    /// The route as its spec names it (`POST /v1/reviews/{id}/photos`): kept with each upload.
    let route: String
    let field: String
    let maxSize: Int
    /// Runs the route's logic on the finished file and presents the outcome.
    let deliver: @Sendable (ResumableUploadTarget.Request, UploadedFile) async -> Presentation

    /// What the route's logic gets besides the file: who sent it, and the route's path
    /// parameters as they were when the upload started.
    struct Request: Sendable {
        let customerID: UUID
        let parameters: [String: String]

        /// A path parameter the route reads as a UUID.
        /// - Throws: `ProblemError` 400 if it is missing or not one (it was checked when the upload started).
        func uuid(_ name: String) throws -> UUID {
            guard let value = parameters[name].flatMap(UUID.init(text:)) else { throw Self.unreadable(name, "a UUID") }
            return value
        }

        func string(_ name: String) throws -> String {
            guard let value = parameters[name] else { throw Self.unreadable(name, "a text") }
            return value
        }

        func int(_ name: String) throws -> Int {
            guard let value = parameters[name].flatMap(Int.init) else { throw Self.unreadable(name, "an integer") }
            return value
        }

        private static func unreadable(_ name: String, _ kind: String) -> ProblemError {
            ProblemError(Problem.badRequest("The path parameter \(name) must be \(kind).", errors: [FieldError(name, "must be \(kind)")]))
        }
    }

    /// Whether a request's method and path are this route's (`{name}` matches one segment).
    func matches(method: HTTPRequest.Method, path: Substring) -> Bool {
        let pattern = route.split(separator: " ", maxSplits: 1)
        guard pattern.count == 2, pattern[0] == method.rawValue else { return false }
        let wanted = pattern[1].split(separator: "/", omittingEmptySubsequences: false)
        let given = (path.firstIndex(of: "?").map { path[..<$0] } ?? path).split(separator: "/", omittingEmptySubsequences: false)
        guard wanted.count == given.count else { return false }
        return zip(wanted, given).allSatisfy { pattern, segment in
            pattern.hasPrefix("{") ? !segment.isEmpty : pattern == segment
        }
    }
}

/// The routes that take resumable uploads, registered as the router is built and read by every
/// request after.
final class ResumableUploadTargets: Sendable {
    private let targets = Mutex<[String: ResumableUploadTarget]>([:])

    func add(_ target: ResumableUploadTarget) {
        targets.withLock { $0[target.route] = target }
    }

    func target(_ route: String) -> ResumableUploadTarget? {
        targets.withLock { $0[route] }
    }

    /// Whether the request is to a route that takes resumable uploads.
    func accepts(_ request: HTTPRequest) -> Bool {
        guard let path = request.path else { return false }
        return targets.withLock { $0.values.contains { $0.matches(method: request.method, path: path[...]) } }
    }
}
