import NIOCore
import NIOHTTP1

/// What HTTP/1.1 (RFC 9112, RFC 9110) asks of a server that Hummingbird's HTTP/1 channel does
/// not do. It sits before the conversion to HTTP types, where a request's version and NIO's
/// reading of its `Connection` field are still known (`StorefrontHTTP1Channel` puts it there):
/// - A request that does not keep its connection (HTTP/1.0 without `Connection: keep-alive`, or a
///   `Connection: close` in any case or inside a list) is the connection's last: its answer says
///   `Connection: close`, nothing read after it is served, and the connection ends once the answer
///   is written. Hummingbird matched only an exact `close`, and an HTTP/1.0 client waited for the
///   idle timeout (60 s) for the end of its answer.
/// - An HTTP/1.0 request is answered as HTTP/1.0, so the encoder never frames an answer with the
///   chunked coding, which a 1.0 client cannot read; one whose answer has no length ends its
///   connection, which then marks the answer's end.
/// - `Expect: 100-continue` on an HTTP/1.1 request is answered with `100 Continue` as soon as the
///   answers before it are written (RFC 9110 §10.1.1): a client that waits for it (curl waits a
///   second) sends its body at once. An HTTP/1.0 client gets no interim answer at all (the
///   104 of a resumable upload), as RFC 9110 §15.2 asks.
/// - An HTTP/1.1 request with no `Host`, more than one, or one that is no host and port is not
///   served (RFC 9112 §3.2): `UnreadableRequestAnswer` answers the `HostFieldInvalid` error with a
///   400 and ends the connection.
final class HTTP1MessageRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// An HTTP/1.1 request without exactly one valid `Host` field.
    struct HostFieldInvalid: Error {}

    /// A request passed on, as far as its answer needs to know it.
    private struct Asked {
        var isHTTP10: Bool
        var keepsConnection: Bool
        var isHead: Bool
        var awaitsContinue: Bool
        /// Its answer ends the connection.
        var closes = false
    }

    /// Requests passed on whose answers are not written in full, oldest first.
    private var asked: [Asked] = []
    /// A request that ends the connection was read, or one was refused: nothing more is passed on.
    private var ignoringRest = false
    /// Inside the last request passed on: its body and end still go on.
    private var inLastRequest = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !ignoringRest else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            let isHTTP11 = head.version.major == 1 && head.version.minor >= 1
            if isHTTP11, !Self.hasOneValidHost(head.headers) {
                ignoringRest = true
                context.fireErrorCaught(HostFieldInvalid())
                return
            }
            let awaitsContinue = isHTTP11 && head.headers[canonicalForm: "expect"].contains(where: Self.isContinue)
            asked.append(
                Asked(
                    isHTTP10: !isHTTP11, keepsConnection: head.isKeepAlive, isHead: head.method == .HEAD,
                    awaitsContinue: awaitsContinue))
            inLastRequest = !head.isKeepAlive
            if asked.count == 1 { sendContinueIfAwaited(context: context) }
        case .end:
            if inLastRequest { ignoringRest = true }
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    /// The decoder's errors about what follows a connection's last request (llhttp refuses bytes
    /// after a message that closes its connection) are dropped with those bytes: passed on, they
    /// were a second answer, a 400, after the last one.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if ignoringRest, error is HTTPParserError { return }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200 && !asked.isEmpty:
            asked[0].awaitsContinue = false
            head = answerHead(head, to: &asked[0])
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head(let head) where head.status.code < 200 && asked.first?.isHTTP10 == true:
            // No interim answer to an HTTP/1.0 client, which would read it as the final one
            // (RFC 9110 §15.2).
            promise?.succeed(())
        case .end where !asked.isEmpty:
            let answered = asked.removeFirst()
            guard answered.closes else {
                context.write(data, promise: promise)
                sendContinueIfAwaited(context: context)
                return
            }
            // The end of output, then the close: closing with bytes of the request unread would
            // send a reset that can destroy the answer before the client reads it.
            let channel = context.channel
            context.write(data).whenComplete { result in
                promise?.completeWith(result)
                channel.close(mode: .output, promise: nil)
                channel.eventLoop.scheduleTask(in: UnreadableRequestAnswer.lingering) { channel.close(promise: nil) }
            }
        default:
            context.write(data, promise: promise)
        }
    }

    /// The answer's head as `request` needs it, marking whether it ends the connection.
    private func answerHead(_ head: HTTPResponseHead, to request: inout Asked) -> HTTPResponseHead {
        var head = head
        var keeps = request.keepsConnection
        if request.isHTTP10 {
            head.version = .http1_0
            // A 1.0 answer without a length ends where its connection does.
            let hasBody = !request.isHead && head.status != .noContent && head.status != .notModified
            if hasBody, !head.headers.contains(name: "content-length") { keeps = false }
            if keeps { head.headers.replaceOrAdd(name: "connection", value: "keep-alive") }
        }
        if !keeps {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            request.closes = true
            ignoringRest = true
        }
        return head
    }

    /// `100 Continue` for the oldest request passed on, if it awaits one and is now the one being
    /// answered.
    private func sendContinueIfAwaited(context: ChannelHandlerContext) {
        guard !asked.isEmpty, asked[0].awaitsContinue else { return }
        asked[0].awaitsContinue = false
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
    }

    /// The expectation `100-continue`, compared byte for byte in ASCII, case aside.
    private static func isContinue(_ expectation: Substring) -> Bool {
        expectation.utf8.elementsEqual("100-continue".utf8) { byte, expected in
            ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte) == expected
        }
    }

    /// One `Host` field whose value is empty or a host and optional port: letters, digits, the
    /// characters a registered name, IP literal or percent-escape may hold, and `:` (RFC 3986
    /// §3.2.2). A space, a slash or an `@` cannot be part of one.
    static func hasOneValidHost(_ headers: HTTPHeaders) -> Bool {
        let hosts = headers["host"]
        guard hosts.count == 1, let host = hosts.first else { return false }
        return host.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "-._~%!$&'()*+,;=:[]".utf8.contains(byte)
            }
        }
    }
}
