import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Presenter

/// Answers a request that cannot be read with a problem, then closes the connection: 431 for
/// headers past the decoder's limits (80 KiB, as Hummingbird sets them), 400 for anything else
/// that is not HTTP/1.1 or whose `Host` `HTTP1MessageRules` refuses, 501 for `CONNECT` (a tunnel), and for a `Transfer-Encoding` other than `chunked` alone (RFC 9112
/// §6.1 and §6.3: 400 when `chunked` is not the final coding, 501 for a coding this service does
/// not decode), whose body's length cannot be known, so nothing after its head can be trusted.
///
/// Such a request never reaches a route or a middleware: without this, Hummingbird answers a head
/// it cannot decode with a bare 400 and no body, and a request with an unknown transfer coding
/// was served (as if it had no body) and then followed by that bare 400. Only a head is answered
/// here: an error inside a body goes on to the route reading it (`ProblemMiddleware` answers it).
/// Behind pipelined requests whose answers are not written yet, the problem waits for them, so
/// every request read before it gets its own answer, in order.
final class UnreadableRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long the rest of an unreadable request is read (and dropped) after its answer.
    static let lingering = TimeAmount.seconds(2)

    private var readingBody = false
    /// Requests passed on whose answers are not written in full yet.
    private var unanswered = 0
    /// Once a request is refused nothing more is passed on; its problem, until the answers before
    /// it are written.
    private var refusing = false
    private var deferred: Presentation?
    /// An answer written when no request awaits one is being dropped: Hummingbird's bare 400 for
    /// a body whose framing broke after its request was answered (a route that never read it).
    private var droppingStray = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        switch unwrapInboundIn(data) {
        case .head(let request):
            if let problem = Self.unsupportedTransferCoding(request) ?? Self.tunnel(request) {
                refuse(problem, context: context)
                return
            }
            readingBody = true
            unanswered += 1
        case .end: readingBody = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case .head(let head) = part, head.status.code >= 200, unanswered == 0 { droppingStray = true }
        guard !droppingStray else {
            // A second answer to one request would be taken by the client for the next one's.
            promise?.succeed(())
            if case .end = part { Self.endOutput(context.channel) }
            return
        }
        context.write(data, promise: promise)
        guard case .end = part else { return }
        unanswered = max(0, unanswered - 1)
        if unanswered == 0, let problem = deferred {
            deferred = nil
            send(problem, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Once refusing, the decoder's errors about the rest of the request are dropped too:
        // passed on, Hummingbird would answer a second time.
        if refusing, error is HTTPParserError { return }
        if error is HTTP1MessageRules.HostFieldInvalid {
            guard !refusing else { return }
            return refuse(
                Problem.badRequest("A request names its host in one Host header field, as host or host:port (an HTTP/1.1 request must)."),
                context: context)
        }
        guard let parserError = error as? HTTPParserError, !readingBody, !refusing else {
            context.fireErrorCaught(error)
            return
        }
        // Not passed on: the connection ends here, and Hummingbird would answer a second time.
        refuse(
            parserError == .headerOverflow
                ? Problem.make(
                    431, "request-header-fields-too-large", "Request header fields too large",
                    detail: "The request's head is larger than this service reads (80 KiB of header fields).")
                : Problem.badRequest("The request cannot be read as HTTP/1.1."),
            context: context)
    }

    /// The problem with a request's `Transfer-Encoding`, if it has one: only `chunked`, once and
    /// alone, is read. Codings are compared as HTTP does, byte for byte in ASCII (case aside):
    /// no Unicode case mapping (the Kelvin sign lowercases to `k`) nor trimming beyond spaces and
    /// tabs may make of another value the `chunked` the decoder does not see.
    static func unsupportedTransferCoding(_ request: HTTPRequest) -> Presentation? {
        let codings = request.headerFields[values: .transferEncoding]
            .flatMap { $0.utf8.split(separator: UInt8(ascii: ",")) }
            .map { coding in
                String(
                    decoding: coding.drop(while: Self.isBlank).reversed().drop(while: Self.isBlank).reversed().map(Self.asciiLowercased),
                    as: UTF8.self)
            }
        guard !codings.isEmpty, codings != ["chunked"] else { return nil }
        guard codings.last == "chunked" else {
            return Problem.badRequest("Transfer-Encoding must end with chunked: the body's length cannot be known otherwise.")
        }
        return Problem.make(
            501, "transfer-coding-not-implemented", "Transfer coding not implemented",
            detail: "This service reads Transfer-Encoding: chunked alone, not \(codings.joined(separator: ", ")).")
    }

    /// `CONNECT` asks for a tunnel, which this service never opens. The HTTP/1 encoder frames
    /// no answer to a CONNECT (it writes neither a length nor the body), so the answer is its
    /// status line and the connection's close, with no content type: a problem's type with no
    /// body was no problem document. Passed on to the routes, it was a 405 after which the
    /// connection hung, nothing more read, until the idle timeout.
    static func tunnel(_ request: HTTPRequest) -> Presentation? {
        guard request.method == .connect else { return nil }
        return Presentation(status: 501)
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// `byte` with `A`...`Z` made lowercase, nothing else changed: HTTP's case-insensitive
    /// tokens compared as HTTP compares them (`HTTP1MessageRules` too).
    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    private func refuse(_ problem: Presentation, context: ChannelHandlerContext) {
        refusing = true
        readingBody = false
        if unanswered == 0 { send(problem, context: context) } else { deferred = problem }
    }

    private func send(_ problem: Presentation, context: ChannelHandlerContext) {
        var fields = HTTPFields()
        for (name, value) in problem.headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        let body = ByteBuffer(bytes: problem.body ?? Data())
        fields[.contentLength] = String(body.readableBytes)
        fields[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .init(code: problem.status), headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        // The answer is followed by the end of output, not a close: closing a socket with bytes of
        // the request still unread sends a reset, which can destroy the answer before the client
        // reads it. The client closes once it has read it; the connection is closed in any case
        // after `lingering`.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in Self.endOutput(channel) }
    }

    /// Ends what the connection sends, then closes it after `lingering` at most.
    static func endOutput(_ channel: any Channel) {
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: lingering) { channel.close(promise: nil) }
    }
}
