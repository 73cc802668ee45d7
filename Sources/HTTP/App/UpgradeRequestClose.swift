import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers a request that asks to switch protocols (`Connection: upgrade` with `Upgrade: h2c` or
/// `websocket`: curl's `--http2` and Java's HttpClient ask on every `http://` URL) over HTTP/1.1,
/// as if it had not asked, then ends its connection, saying so (`Connection: close`). NIO's
/// decoder stops reading a connection after such a request, waiting for an upgrader this service
/// does not have, so the next request on it sat unread until the idle timeout (60 s), holding
/// one of the service's connections.
final class UpgradeRequestClose: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests read that asked to switch, oldest first, whose answers are not written yet.
    private var asked: [Bool] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            let connection = head.headerFields[values: .connection].flatMap { $0.split(separator: ",") }
            asked.append(
                head.headerFields[.upgrade] != nil
                    && connection.contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "upgrade" })
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200 && asked.first == true:
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where !asked.isEmpty:
            let closes = asked.removeFirst()
            guard closes else { return context.write(data, promise: promise) }
            let channel = context.channel
            context.write(data).whenComplete { result in
                promise?.completeWith(result)
                channel.close(promise: nil)
            }
        default:
            context.write(data, promise: promise)
        }
    }
}
