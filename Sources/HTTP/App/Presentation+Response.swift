import Foundation
import HTTPTypes
import Hummingbird
import Presenter

extension Presentation {
    /// Copies the presenter's decision onto a Hummingbird response.
    var response: Response {
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
