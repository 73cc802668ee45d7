import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Presenter

/// Answers a request whose head cannot be decoded with a problem, then closes the connection:
/// 431 for headers past the decoder's limits (80 KiB, as Hummingbird sets them), 400 for
/// anything else that is not HTTP/1.1.
///
/// Such a request never reaches a route or a middleware: without this, Hummingbird answers it
/// with a bare 400 and no body. Only a head is answered here, and only while no answer is being
/// written: an error inside a body goes on to the route reading it (`ProblemMiddleware` answers
/// it), and one behind a pipelined request's unfinished answer goes on as before.
final class UnreadableRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long the rest of an unreadable request is read (and dropped) after its answer.
    static let lingering = TimeAmount.seconds(2)

    private var readingBody = false
    private var answering = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: readingBody = true
        case .end: readingBody = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.kind != .informational: answering = true
        case .end: answering = false
        case .head, .body: break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !readingBody, !answering else {
            context.fireErrorCaught(error)
            return
        }
        // Not passed on: the connection ends here, and Hummingbird would answer a second time.
        let problem =
            parserError == .headerOverflow
            ? Problem.make(
                431, "request-header-fields-too-large", "Request header fields too large",
                detail: "The request's head is larger than this service reads (80 KiB of header fields).")
            : Problem.badRequest("The request cannot be read as HTTP/1.1.")
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
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(mode: .output, promise: nil) }
        context.eventLoop.scheduleTask(in: Self.lingering) { channel.close(promise: nil) }
    }
}
