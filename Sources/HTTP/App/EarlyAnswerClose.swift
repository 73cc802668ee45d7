import NIOCore
import NIOHTTPTypes

/// Ends a connection whose request was answered before its body arrived in full (a 413 by its
/// `Content-Length` or by the bytes counted, a 401 or 415 of an upload, a 409 of a resumable
/// upload's offset) unless the rest of the body arrives within `UnreadableRequestAnswer.lingering`
/// of the answer. Hummingbird reads the rest of such a body only to drop it, up to the request
/// deadline (an attacker's client streamed 2 GB in 120 s past a 413); a client that sends the
/// rest promptly keeps its connection, and one still sending reads the answer meanwhile instead
/// of meeting a reset.
final class EarlyAnswerClose: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// A request head was read and its end was not.
    private var requestOpen = false
    /// The answer being written came before its request's end.
    private var answeredEarly = false
    private var closing: Scheduled<Void>?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestOpen = true
        case .end:
            requestOpen = false
            closing?.cancel()
            closing = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200:
            answeredEarly = requestOpen
        case .end where answeredEarly && requestOpen:
            answeredEarly = false
            let channel = context.channel
            closing = context.eventLoop.scheduleTask(in: UnreadableRequestAnswer.lingering) { channel.close(promise: nil) }
        default:
            break
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
    }
}
