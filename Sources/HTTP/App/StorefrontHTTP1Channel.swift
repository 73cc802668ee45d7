import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with `HTTP1MessageRules` before its conversion to HTTP types:
/// Hummingbird adds a server's own handlers only after it, where a request's version is gone.
struct StorefrontHTTP1Channel: ServerChildChannel {
    let base: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let conversion = try pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(HTTP1MessageRules(), position: .before(conversion.handler))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
