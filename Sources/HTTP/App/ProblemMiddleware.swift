import Domain
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Presenter

/// Turns every error that reaches the top into `application/problem+json`: unknown routes (404),
/// a method a path does not take (405 with `Allow`),
/// oversize bodies (413), parse failures (a body's broken framing 400), a client gone before its
/// request ended (400, logged as information), and the rest as routes answer them
/// (`Problem.from`: a store unavailable 503, ..., anything unexpected 500, logged, never
/// described to the client).
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = StorefrontContext
    /// The API document's paths, for the 405 answers.
    let allowedMethods: AllowedMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch is HTTPParserError {
            // The body's framing was broken (a chunk size that is no number): the client's fault.
            return Problem.badRequest("The request's framing is malformed.").response(from: request, context: context)
        } catch is NIOTooManyBytesError {
            return Problem.payloadTooLarge("The request body is larger than this endpoint accepts.").response(
                from: request, context: context)
        } catch let error as HTTPError {
            switch error.status {
            case .notFound:
                if let allowed = allowedMethods.forPath(request.uri.path) {
                    return Problem.make(
                        405, "method-not-allowed", "Method not allowed",
                        detail: "\(request.uri.path) takes \(allowed.joined(separator: ", ")), not \(request.method).",
                        headers: [("Allow", allowed.joined(separator: ", "))]
                    ).response(from: request, context: context)
                }
                return Problem.notFound("No route matches \(request.method) \(request.uri.path).").response(from: request, context: context)
            case .contentTooLarge:
                return Problem.payloadTooLarge("The request body is larger than this endpoint accepts.").response(
                    from: request, context: context)
            default:
                return Problem.make(
                    error.status.code, "http-\(error.status.code)", error.status.reasonPhrase,
                    detail: error.body ?? error.status.reasonPhrase
                ).response(from: request, context: context)
            }
        } catch let error where Self.clientWentAway(error) {
            // The client's connection reset or closed before its request ended: nobody reads this
            // answer, and it is no fault of ours, so it is neither a 500 nor logged as an error.
            context.logger.info("the client went away mid-request", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return Problem.badRequest("The connection ended before the request did.").response(from: request, context: context)
        } catch {
            // What routes answer for their own errors (`Problem.from`): a problem thrown, input
            // checked before a use case ran, a store unavailable (503), a provider down (502);
            // anything else a 500, logged with its diagnostic.
            return Problem.from(error).response(from: request, context: context)
        }
    }

    /// Whether `error` says the client's connection is gone (reset, or closed before the body
    /// ended), as reading a body cut by the client throws.
    static func clientWentAway(_ error: any Error) -> Bool {
        if let error = error as? IOError { return [ECONNRESET, EPIPE, ECONNABORTED].contains(error.errnoCode) }
        if let error = error as? ChannelError {
            return [.eof, .inputClosed, .outputClosed, .ioOnClosedChannel, .alreadyClosed].contains(error)
        }
        return false
    }
}
