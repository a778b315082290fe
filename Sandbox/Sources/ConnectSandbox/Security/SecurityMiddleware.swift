import Foundation
import Hummingbird
import Logging

/// The outermost middleware: headers every response gets, whatever produced it.
///
/// * Every response: `X-Content-Type-Options: nosniff`.
/// * Every HTML or SVG response (the activation pages, the partner's sign-in page, the playground, icons): a
///   `Content-Security-Policy` (the activation pages' own, or ``defaultPolicy``) that forbids framing, plus
///   `X-Frame-Options: DENY` and `Referrer-Policy: same-origin` (URLs with codes never leave the sandbox as referrers); HTML pages are never cached
///   (`Cache-Control: no-store`, they can show activation URLs and codes).
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    /// The policy of pages that set none: no scripts, no plugins, inline styles, images over http(s) only, forms
    /// to the sandbox itself, never framed.
    static let defaultPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        Self.secure(&response.headers)
        return response
    }

    static func secure(_ headers: inout HTTPFields) {
        headers[HeaderName("X-Content-Type-Options")!] = "nosniff"
        let type = (headers[.contentType] ?? "").lowercased()
        let isHTML = type.hasPrefix("text/html")
        guard isHTML || type.hasPrefix("image/svg+xml") else { return }
        let csp = HeaderName("Content-Security-Policy")!
        if headers[csp] == nil { headers[csp] = defaultPolicy }
        headers[HeaderName("X-Frame-Options")!] = "DENY"
        if headers[HeaderName("Referrer-Policy")!] == nil { headers[HeaderName("Referrer-Policy")!] = "same-origin" }
        if isHTML { headers[.cacheControl] = "no-store" }
    }
}

/// Refuses cross-site form posts (login CSRF, a forged tap on the playground, a forged activation step): a `POST`,
/// `PUT`, `PATCH` or `DELETE` whose `Sec-Fetch-Site` is anything but `same-origin` or `none` (typed by the user), or
/// whose `Origin` is not the sandbox's own (`http://` + `Host`), is answered 403. Requests with neither header
/// (the SDK, curl: not a browser, so not forgeable by a web page) pass.
struct SameOriginMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard [.post, .put, .patch, .delete].contains(request.method), let reason = Self.crossSiteReason(request) else {
            return try await next(request, context)
        }
        logger.warning("\(request.method) \(request.uri.path): refused a cross-site request (\(reason))")
        let message = "Cross-site requests are not allowed: submit the form from the sandbox's own page."
        if Self.isPage(request.uri.path) { return WebActivationPages.error(.forbidden, message) }
        throw APIError.forbidden(message)
    }

    /// Whether `path` is one of the HTML pages (answered with an HTML page rather than the JSON envelope).
    static func isPage(_ path: String) -> Bool {
        path.hasPrefix("/access/") || path.hasPrefix("/playground")
            || (path.hasPrefix("/partner/") && path.contains("/oauth/"))
    }

    /// Whether a browser's navigation came from one of the sandbox's own pages: its `Sec-Fetch-Site` is
    /// `same-origin`, or, from a browser that sends none, its `Referer` is on the sandbox's own origin. A request with
    /// neither (not a browser: the SDK, curl) passes. Links typed, pasted or followed from another site (another port
    /// of this host included: cookies do not separate ports) do not.
    static func cameFromOwnPage(_ request: Request) -> Bool {
        if let site = request.headers[HeaderName("Sec-Fetch-Site")!]?.lowercased() { return site == "same-origin" }
        if let referer = request.headers[.referer], let host = request.head.authority {
            return referer.lowercased().hasPrefix("http://\(host.lowercased())/")
        }
        return true
    }

    /// Why the request is cross-site, or `nil` when it is not.
    static func crossSiteReason(_ request: Request) -> String? {
        // Browsers that send Sec-Fetch-Site are judged by it alone: under a no-referrer policy they send
        // `Origin: null` even for the page's own forms.
        if let site = request.headers[HeaderName("Sec-Fetch-Site")!]?.lowercased() {
            return site == "same-origin" || site == "none" ? nil : "Sec-Fetch-Site: \(site)"
        }
        if let origin = request.headers[HeaderName("Origin")!] {
            guard let host = request.head.authority, origin.lowercased() == "http://\(host.lowercased())" else {
                return "Origin: \(origin)"
            }
        }
        return nil
    }
}
