import Domain
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Presenter

/// Tells a client that starts a resumable upload where to resume it before a byte of its body
/// is read: an interim `104 Upload Resumption Supported` with the upload's `Location`, so an
/// upload cut at its first byte can still be resumed. The id it gives the upload travels to the
/// route in `Storefront-Upload-ID`, which is removed from every request that arrives with one:
/// on every connection, interim answers on or off (`interim`), so no client names an upload.
///
/// It is a channel handler because Hummingbird's responder writes one response per request:
/// an interim answer goes out below it, on the connection. It counts the requests not yet
/// answered, so a request pipelined behind another gets no interim answer that would land in
/// the middle of the other's (its final answer still says where the upload is).
final class UploadResumptionAnnouncer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let targets: ResumableUploadTargets
    private let interim: Bool
    private var unanswered = 0

    init(targets: ResumableUploadTargets, interim: Bool) {
        self.targets = targets
        self.interim = interim
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var request) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        request.headerFields[.storefrontUploadID] = nil
        unanswered += 1
        // Only for a request that may be a customer's: anyone else is refused and needs no id.
        if interim, unanswered == 1, request.headerFields[.authorization] != nil, targets.accepts(request),
            let headers = try? ResumableUploadHeaders.read(request.headerFields), headers.complete != nil,
            (headers.offset ?? 0) == 0
        {
            let id = UUID.random()
            request.headerFields[.storefrontUploadID] = id.lowercasedText
            var answer = HTTPResponse(status: .init(code: 104, reasonPhrase: "Upload Resumption Supported"))
            answer.headerFields[.uploadDraftInteropVersion] = String(headers.version)
            answer.headerFields[.location] = ResumableUploadPresenter.location(of: id)
            context.writeAndFlush(wrapOutboundOut(.head(answer)), promise: nil)
        }
        context.fireChannelRead(wrapInboundOut(.head(request)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unanswered = max(0, unanswered - 1) }
        context.write(data, promise: promise)
    }
}
