import NIOCore
import NIOHTTP1

/// What HTTP/1.1 (RFC 9112, RFC 9110) asks of a server that Hummingbird's HTTP/1 channel does
/// not do. It sits before the conversion to HTTP types, where a request's version and NIO's
/// reading of its `Connection` field are still known (`StorefrontHTTP1Channel` puts it there):
/// - A request that does not keep its connection (`keepsConnection`: HTTP/1.0 without
///   `Connection: keep-alive` or with a `Transfer-Encoding`, or a `Connection: close` in any
///   case or inside a list) is the connection's last: its answer says
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
/// - A request with more than one `Host`, or one that is no host and port, and an HTTP/1.1 one
///   with none, is not served (RFC 9112 §3.2): `UnreadableRequestAnswer` answers the
///   `HostFieldInvalid` error with a 400 and ends the connection.
final class HTTP1MessageRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request whose `Host` fields `hostIsValid` refuses.
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
            if !Self.hostIsValid(head.headers, required: isHTTP11) {
                ignoringRest = true
                context.fireErrorCaught(HostFieldInvalid())
                return
            }
            let awaitsContinue = isHTTP11 && head.headers[canonicalForm: "expect"].contains(where: Self.isContinue)
            let keeps = Self.keepsConnection(head, isHTTP11: isHTTP11)
            asked.append(
                Asked(isHTTP10: !isHTTP11, keepsConnection: keeps, isHead: head.method == .HEAD, awaitsContinue: awaitsContinue))
            inLastRequest = !keeps
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
                UnreadableRequestAnswer.endOutput(channel)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    /// The answer's head as `request` needs it, marking whether it ends the connection.
    private func answerHead(_ head: HTTPResponseHead, to request: inout Asked) -> HTTPResponseHead {
        var head = head
        // An answer already saying `close` (a refusal, an upgrade's) is the connection's last.
        var keeps = request.keepsConnection && !head.headers[canonicalForm: "connection"].contains { Self.equalsASCII($0, "close") }
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

    /// Whether the connection stays after this request (RFC 9112 §9.3, §9.6): never when any
    /// `Connection` option is `close`, whatever else is listed (llhttp reads an HTTP/1.0
    /// `keep-alive, close` as keep-alive); for HTTP/1.0 only with `keep-alive`, and never with a
    /// `Transfer-Encoding`, which a 1.0 message cannot frame (§6.1: close after it).
    static func keepsConnection(_ head: HTTPRequestHead, isHTTP11: Bool) -> Bool {
        let options = head.headers[canonicalForm: "connection"]
        if options.contains(where: { equalsASCII($0, "close") }) { return false }
        if isHTTP11 { return true }
        return options.contains { equalsASCII($0, "keep-alive") } && !head.headers.contains(name: "transfer-encoding")
    }

    private static func isContinue(_ expectation: Substring) -> Bool { equalsASCII(expectation, "100-continue") }

    /// `value` is `lowercase`, compared byte for byte in ASCII, case aside: no Unicode case
    /// mapping may make another value of it.
    private static func equalsASCII(_ value: Substring, _ lowercase: String) -> Bool {
        value.utf8.elementsEqual(lowercase.utf8) { UnreadableRequestAnswer.asciiLowercased($0) == $1 }
    }

    /// At most one `Host` field (exactly one when `required`), whose value is empty or
    /// `host [":" port]` (RFC 9112 §3.2, RFC 3986 §3.2.2): an IP literal in brackets, or a
    /// registered name of letters, digits, percent-escapes and the characters it may hold; then
    /// digits after one colon. A space, a slash, an `@` or a second colon cannot be part of one.
    static func hostIsValid(_ headers: HTTPHeaders, required: Bool) -> Bool {
        let hosts = headers["host"]
        guard hosts.count <= 1, !(required && hosts.isEmpty) else { return false }
        guard let host = hosts.first?.utf8, !host.isEmpty else { return true }
        var rest = host[...]
        if rest.first == UInt8(ascii: "[") {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = rest[rest.index(after: rest.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ isHex($0) || ":.vV".utf8.contains($0) }) else { return false }
            rest = rest[rest.index(after: close)...]
        } else {
            let name = rest.prefix { $0 != UInt8(ascii: ":") }
            guard name.allSatisfy({ isAlphanumeric($0) || "-._~%!$&'()*+,;=".utf8.contains($0) }) else { return false }
            rest = rest[name.endIndex...]
        }
        guard let colon = rest.first else { return true }
        return colon == UInt8(ascii: ":") && rest.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "abcdefABCDEF".utf8.contains(byte)
    }
}
