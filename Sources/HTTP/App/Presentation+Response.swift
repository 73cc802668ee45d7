import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Presenter

extension Presentation {
    private static let logger = Logger(label: "storefront.http")

    /// Copies the presenter's decision onto a Hummingbird response.
    var response: Response {
        if let diagnostic {
            Self.logger.error(
                "request failed", metadata: ["error": "\(diagnostic)", "request_id": "\(RequestIDMiddleware.current ?? "-")"])
        }
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
