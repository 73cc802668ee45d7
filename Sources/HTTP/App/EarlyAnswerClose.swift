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

    /// Whether each request read whose answer is not written in full has ended, oldest first:
    /// the oldest is the one being answered, and only the newest can still be open. (One flag
    /// for the newest request had taken a pipelined request's open body for the answered one's,
    /// and cut that request 2 s into its upload.)
    private var ended: [Bool] = []
    /// The answer being written came before its request's end.
    private var answeredEarly = false
    /// A request answered in full whose end has not arrived: the connection closes unless it does.
    private var answeredOpen = false
    private var closing: Scheduled<Void>?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            ended.append(false)
        case .end where answeredOpen:
            answeredOpen = false
            closing?.cancel()
            closing = nil
        case .end:
            if !ended.isEmpty { ended[ended.count - 1] = true }
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200:
            answeredEarly = ended.first == false
        case .end where !ended.isEmpty:
            let requestEnded = ended.removeFirst()
            if answeredEarly && !requestEnded {
                answeredOpen = true
                let channel = context.channel
                closing = context.eventLoop.scheduleTask(in: UnreadableRequestAnswer.lingering) { channel.close(promise: nil) }
            }
            answeredEarly = false
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
