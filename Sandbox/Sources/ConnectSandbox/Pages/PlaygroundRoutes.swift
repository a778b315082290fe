import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// The button playground (plain HTML):
/// * `GET /playground[?locale=L]`: the Connect Button of every seeded Connection in every state and style, in
///   one locale, with links to every other locale (`locale=all` shows them all at once);
/// * `GET /playground/live?connection=ID`: a real ``ConnectButtonController`` running in the sandbox process;
///   forms tap the button, enter an email and reset, the page refreshes itself every second, and the
///   activation URL the controller produces is linked (the web activation pages at `/access/api/{id}`) for the
///   browser that tapped only (a cookie): the URL carries the partner's OAuth code and the flow's `state`, and the
///   page is public, so anyone else walking it would end the playground connected as them;
/// * `GET /playground/live/redirect`: the controllers' redirect URL. It changes nothing: it shows a page whose form
///   posts the redirect's query to `POST /playground/live/redirect`, which hands it to the SDK. So the step that
///   completes a flow is a `POST` behind the same-origin check, and a link on another site cannot complete a waiting
///   flow with a token of its choosing.
struct PlaygroundRoutes: SandboxRoutes {
    let env: RouteEnvironment
    let sessions: PlaygroundSessions
    /// The browser that drives a playground controller: only it sees the activation URL (issue 30, hole 10).
    var owners: BrowserBinding { BrowserBinding(urls: env.urls, prefix: "ifttt_sandbox_playground_") }

    init(env: RouteEnvironment) {
        self.env = env
        self.sessions = PlaygroundSessions()
    }

    func register(on router: SandboxRouter) {
        router.get("/playground") { request, _ in
            let locale = request.query("locale") ?? ConnectLocalization.baseLocalization
            let connections = try await loadConnections()
            return PageResponse.html(PlaygroundPage.gallery(connections: connections, locale: locale))
        }

        router.get("/playground/live") { request, _ in
            guard let id = request.query("connection"), !id.isEmpty else {
                throw APIError.badRequest(
                    "The connection query parameter is required.",
                    details: [.init(parameter: "connection", message: "is required")])
            }
            guard try await env.store.snapshot(connectionId: id, userId: nil) != nil else {
                throw APIError.notFound("Connection \"\(id)\" was not found.")
            }
            let base = try baseURL()
            let viewer = owners.browser(of: request)
            let html = await MainActor.run { PlaygroundPage.live(sessions.session(id, base: base), viewer: viewer) }
            return PageResponse.html(html)
        }

        router.post("/playground/live/:action") { request, context in
            var request = request
            let form = PlaygroundPage.parseForm(String(decoding: try await request.bodyData(), as: UTF8.self))
            guard let id = form["connection"], !id.isEmpty else {
                throw APIError.badRequest(
                    "The connection form field is required.",
                    details: [.init(parameter: "connection", message: "is required")])
            }
            let action = context.pathParameter("action")
            let base = try baseURL()
            let (browser, setCookie) = owners.browserOrNew(of: request)
            let known = await MainActor.run { () -> Bool in
                switch action {
                case "tap":
                    let session = sessions.session(id, base: base)
                    session.owner = browser
                    session.controller.toggle()
                case "email":
                    let session = sessions.session(id, base: base)
                    session.owner = browser
                    session.email = form["email"] ?? ""
                    session.controller.confirmEmail(session.email)
                case "cancel": sessions.session(id, base: base).controller.cancelActivation()
                case "reset": sessions.reset(id)
                default: return false
                }
                return true
            }
            guard known else { throw APIError.notFound("Unknown playground action \"\(action)\".") }
            var response = Self.seeOther("/playground/live?connection=\(PlaygroundPage.queryEscape(id))")
            if let setCookie { response.headers[.setCookie] = setCookie }
            return response
        }

        router.get("/playground/live/redirect") { request, _ in
            let query = request.uri.query ?? ""
            let nextStep = URLComponents(string: "?" + query)?.queryItems?.first { $0.name == "next_step" }?.value
            return PageResponse.html(
                PageTemplates.render("playground-redirect", RedirectPage(query: query, nextStep: nextStep)))
        }

        router.post("/playground/live/redirect") { request, _ in
            var request = request
            let form = PlaygroundPage.parseForm(String(decoding: try await request.bodyData(), as: UTF8.self))
            let base = try baseURL()
            let redirect = PlaygroundSessions.redirectURL(base: base).absoluteString
            guard let url = URL(string: redirect + "?" + (form["query"] ?? "")) else {
                throw APIError.badRequest("The redirect URL is malformed.")
            }
            let target = await MainActor.run { () -> String in
                let waiting = sessions.awaitingRedirect.first?.connectionId
                _ = ConnectionRedirectHandler(redirectURL: PlaygroundSessions.redirectURL(base: base))
                    .handleApplicationRedirect(url: url)
                return waiting.map { "/playground/live?connection=\(PlaygroundPage.queryEscape($0))" } ?? "/playground"
            }
            return Self.seeOther(target)
        }
    }

    /// What the page at the redirect URL shows.
    struct RedirectPage {
        let title = "Back in the playground"
        let query: String
        let nextStep: String?
    }

    private static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    private func baseURL() throws -> URL {
        guard let url = URL(string: env.urls.baseURL), !env.urls.baseURL.isEmpty else {
            throw APIError.internalError("The sandbox does not know its base URL yet.")
        }
        return url
    }

    /// Every seeded Connection as the SDK parses it from `GET /v2/connections/{id}` (anonymous view).
    private func loadConnections() async throws -> [Connection] {
        var connections: [Connection] = []
        for seeded in try await env.store.exportSeed().connections {
            guard let snapshot = try await env.store.snapshot(connectionId: seeded.id, userId: nil) else { continue }
            let data = env.renderer.render(snapshot, viewer: nil).serializedData()
            do {
                connections.append(try Connection.decode(from: data))
            } catch {
                env.logger.warning("Playground: connection \(seeded.id) does not parse: \(error)")
            }
        }
        return connections
    }
}
