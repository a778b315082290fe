import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// Builders for the sandbox's JSON responses: JSON bodies with `Content-Type: application/json; charset=utf-8`, and
/// empty 204s (HTML pages and SVG images are ``PageResponse``'s).
enum JSONResponse {
    /// The `Content-Type` of every JSON answer, as IFTTT's examples show it.
    static let contentType = "application/json; charset=utf-8"

    /// A response whose body is `json`.
    static func make(_ json: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        let data = json.serializedData()
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An empty response (204 No Content by default).
    static func empty(_ status: HTTPResponse.Status = .noContent) -> Response {
        Response(status: status)
    }
}
