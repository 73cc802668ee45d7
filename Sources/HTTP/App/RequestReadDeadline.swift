import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request has not arrived in full within `deadline` of its head.
///
/// Hummingbird's idle timeout covers a connection that sends nothing (or drips a request head,
/// which is not decoded until complete), but every body chunk counts as activity: a client sending
/// one byte a minute would hold its connection, and an upload's spool file, forever. This bounds
/// the whole request instead. Closing is the answer: the handler reading the body sees the stream
/// fail and cleans up as for any cut upload.
final class RequestReadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadline: TimeAmount
    private let logger: Logger
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount, logger: Logger) {
        self.deadline = deadline
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            timer?.cancel()
            let channel = context.channel
            let (logger, deadline) = (logger, deadline)
            timer = context.eventLoop.scheduleTask(in: deadline) {
                logger.notice("request not received in full within \(deadline.nanoseconds / 1_000_000_000) s: connection closed")
                channel.close(promise: nil)
            }
        case .end:
            timer?.cancel()
            timer = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }
}
