import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Presenter

/// Route handlers return the presenter's decision as it is; Hummingbird renders it.
extension Presentation: ResponseGenerator {
    /// Copies the presenter's decision onto a Hummingbird response. A failure the presenter kept a
    /// diagnostic of is logged through the request's logger, which carries its request id.
    public func response(from request: Request, context: some RequestContext) -> Response {
        if let diagnostic { context.logger.error("request failed", metadata: ["error": "\(diagnostic)"]) }
        var headers = HTTPFields()
        for (name, value) in self.headers {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        guard let body else {
            return Response(status: .init(code: status), headers: headers)
        }
        headers[.contentLength] = String(body.count)
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
