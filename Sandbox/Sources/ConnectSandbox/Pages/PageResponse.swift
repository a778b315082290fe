import Foundation
import Hummingbird

/// Builders for the sandbox's answers that are not JSON: the playground's HTML pages and the SVG and PNG images of
/// `/assets` (JSON answers are ``JSONResponse``'s).
enum PageResponse {
    /// An HTML page (`text/html; charset=utf-8`).
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        text(html, contentType: "text/html; charset=utf-8", status: status)
    }

    /// An SVG image (`image/svg+xml`).
    static func svg(_ svg: String) -> Response {
        text(svg, contentType: "image/svg+xml", status: .ok)
    }

    /// A PNG image (`image/png`), cacheable for an hour.
    static func png(_ bytes: [UInt8]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "image/png"
        headers[.cacheControl] = "public, max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `text` with its media type, cacheable for an hour.
    private static func text(_ text: String, contentType: String, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "public, max-age=3600"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
