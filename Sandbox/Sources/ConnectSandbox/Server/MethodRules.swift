import Foundation
import Hummingbird

/// HTTP methods as IFTTT's API answers them (issue 30, fidelity):
///
/// * `HEAD` on any `GET` route is that `GET` without its body (the headers, `Content-Length` included):
///   ``HeadResponder``.
/// * A method a documented path does not serve (`TRACE`, `DELETE`, `PATCH`, `POST` on a `GET` path, ...) is
///   `405 Method Not Allowed` with an `Allow` header listing the path's methods, instead of the router's 404
///   (``ErrorEnvelopeMiddleware``). The documented paths and their methods come from the bundled OpenAPI document
///   (``OpenAPIRoutes``); a path it does not describe keeps the 404.
enum MethodRules {

    /// A documented path: its segments (`nil` for a `{parameter}`) and its methods, upper-cased.
    struct Template: Sendable {
        let segments: [String?]
        let methods: Set<String>

        func matches(_ path: [Substring]) -> Bool {
            path.count == segments.count
                && zip(segments, path).allSatisfy { template, segment in
                    template.map { $0 == segment } ?? !segment.isEmpty
                }
        }
    }

    /// The documented paths of ``OpenAPIRoutes/document``.
    static let templates: [Template] = {
        guard let data = OpenAPIRoutes.document,
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let paths = document["paths"] as? [String: Any]
        else { return [] }
        let verbs: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        return paths.compactMap { path, item in
            guard let item = item as? [String: Any] else { return nil }
            let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.hasPrefix("{") ? nil : String($0)
            }
            return Template(
                segments: Array(segments), methods: Set(item.keys.filter(verbs.contains).map { $0.uppercased() }))
        }
    }()

    /// The methods a documented path serves (with `HEAD` beside `GET`), or `nil` when no documented path matches.
    static func allowed(_ path: String) -> [String]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let methods = templates.filter { $0.matches(Array(segments)) }.reduce(into: Set<String>()) {
            $0.formUnion($1.methods)
        }
        guard !methods.isEmpty else { return nil }
        let all = methods.contains("GET") ? methods.union(["HEAD"]) : methods
        return all.sorted()
    }
}

/// Answers `HEAD` with the `GET` route's headers and no body; every other request goes to the router as it is.
struct HeadResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == SandboxRequestContext {
    typealias Context = SandboxRequestContext
    let inner: Inner

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .head else { return try await inner.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        var response = try await inner.respond(to: Request(head: head, body: request.body), context: context)
        let length = response.body.contentLength
        response.body = ResponseBody()
        if let length { response.headers[.contentLength] = String(length) }
        return response
    }
}
