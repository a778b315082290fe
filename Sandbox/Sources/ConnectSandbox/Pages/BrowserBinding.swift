import Foundation
import Hummingbird

/// The cookie that ties an activation flow to the browser that started it. The first page of a flow sets it when
/// the browser has none (a random id, `HttpOnly`, `SameSite=Lax`, for the whole sandbox); the flow remembers it,
/// and every later step (form posts, the partner's redirect back) must come with the same value. So a flow's pages,
/// forms or partner sign-in link, sent to someone else, do nothing in their browser.
///
/// A cookie alone does not hold against a page on another port of the same host, which can set it (cookie
/// tossing, issue 30, hole 6): so the partner sign-in link also works only as the 303 of the sandbox's own authorize
/// step (``SameOriginMiddleware/cameFromOwnPage(_:)``), and every form post must come from the sandbox's own origin
/// and carry the flow's id, a per-flow secret that only its pages hold.
///
/// Its name carries the sandbox's port (`ifttt_sandbox_browser_8080`): cookies do not tell ports apart, and two
/// sandboxes on one host must not overwrite each other's.
struct BrowserBinding: Sendable {
    let urls: SandboxURLs
    /// The cookie name's prefix (the playground binds its controllers with one of its own).
    var prefix = "ifttt_sandbox_browser_"

    /// The cookie's name for this sandbox.
    var name: String {
        "\(prefix)\(URL(string: urls.baseURL)?.port.map(String.init) ?? "0")"
    }

    /// The browser id the request carries, when it has a well-formed one.
    func browser(of request: Request) -> String? {
        let pairs = request.headers[values: .cookie].flatMap { $0.split(separator: ";") }
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.count == 32, value.allSatisfy(\.isHexDigit) { return value }
        }
        return nil
    }

    /// The request's browser id, or a new one with the `Set-Cookie` value that gives it to the browser.
    func browserOrNew(of request: Request) -> (id: String, setCookie: String?) {
        if let id = browser(of: request) { return (id, nil) }
        let id = WebActivationSessions.randomId()
        return (id, "\(name)=\(id); Path=/; HttpOnly; SameSite=Lax")
    }
}
