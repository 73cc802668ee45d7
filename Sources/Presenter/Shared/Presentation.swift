import Domain
import Foundation

/// What a presenter decided to answer: status, headers and an encoded body. The HTTP layer only
/// copies it onto the wire.
public struct Presentation: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: Data?
    /// For the server's log, never the client: what went wrong behind a 500, or what an answer
    /// withholds (a card's fraud decline code).
    public var diagnostic: String?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body.
    public static func json(_ status: Int, _ model: some Encodable, headers: [(name: String, value: String)] = []) -> Presentation {
        do {
            let body = try JSONBodyEncoder.encode(model)
            return Presentation(status: status, headers: [("Content-Type", "application/json")] + headers, body: body)
        } catch {
            return Problem.internalError(detail: "the response could not be encoded")
        }
    }

    /// 204 No Content.
    public static let noContent = Presentation(status: 204)
}

/// Runs a use case and captures its result or error for a presenter.
public func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension Result where Success == Presentation {
    /// The presentation, or the failure's presentation.
    public func recover(_ present: (Failure) -> Presentation) -> Presentation {
        switch self {
        case .success(let presentation): return presentation
        case .failure(let error): return present(error)
        }
    }
}

extension Result where Failure == any Error {
    /// A precheck's refusal as its route presents it: `nil` when the precheck let the request
    /// through (`success(nil)`), else the outcome or the error presented.
    public func refusal<Outcome>(_ present: (Result<Outcome, any Error>) -> Presentation) -> Presentation?
    where Success == Outcome? {
        switch self {
        case .success(nil): return nil
        case .success(let refusal?): return present(.success(refusal))
        case .failure(let error): return present(.failure(error))
        }
    }
}
