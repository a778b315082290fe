import Foundation
import Hummingbird

/// The partner's own sign-in page, as a service's OAuth authorization endpoint: IFTTT's activation pages send a user
/// here when the flow has no valid `code`, and the page sends the user back with a fresh one.
///
/// * `GET /partner/{service_id}/oauth/authorize?response_type=code&client_id=ifttt&redirect_uri=R&state=S`: the
///   page "Sign in to <service>" (username and password of one of the seed's partner accounts, e.g. `dave` /
///   `gx-dave-password`).
/// * `POST` to the same path: on the right password, `303` to `R?code=C&state=S`, where `C` is a new single-use code
///   valid for ``SandboxStore/issuedCodeLifetime``. Wrong passwords are throttled like IFTTT's own sign-in.
///
/// `R` must be the sandbox's own `/access/api/{connection_id}/partner_callback` (the one client, IFTTT, registered
/// that redirect URI); anything else is a 400 page, never a redirect.
struct PartnerSignInRoutes: SandboxRoutes {
    let env: RouteEnvironment
    let throttle = SignInThrottle()
    /// Now, on the sandbox's clock.
    var now: Date { env.store.clock.now }

    /// The OAuth client id of IFTTT at the partner.
    static let clientId = "ifttt"

    /// The partner's authorization request, from the query (GET) or the form (POST).
    struct AuthorizationRequest {
        var redirectURI: String
        var state: String

        init?(_ value: (String) -> String?) {
            guard value("response_type") == "code", value("client_id") == PartnerSignInRoutes.clientId,
                let redirectURI = value("redirect_uri"), Self.isRegistered(redirectURI),
                let state = value("state"), !state.isEmpty
            else { return nil }
            self.redirectURI = redirectURI
            self.state = state
        }

        /// Whether `uri` is IFTTT's registered redirect URI: `/access/api/{connection_id}/partner_callback`.
        static func isRegistered(_ uri: String) -> Bool {
            let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
            return uri.hasPrefix("/access/api/") && parts.count == 5 && parts[4] == "partner_callback"
                && !parts[3].isEmpty
                && !uri.contains("?") && !uri.contains("#") && !uri.contains("\\")
        }

        var hiddenFields: String {
            [
                ("response_type", "code"), ("client_id", PartnerSignInRoutes.clientId), ("redirect_uri", redirectURI),
                ("state", state),
            ]
            .map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(htmlEscape($0.1))\">" }
            .joined(separator: "\n")
        }
    }

    func register(on router: SandboxRouter) {
        router.get("/partner/:service_id/oauth/authorize") { request, context in
            guard let service = try await env.store.service(id: context.pathParameter("service_id")) else {
                return WebActivationPages.error(.notFound, "There is no such service.")
            }
            guard let authorization = AuthorizationRequest({ request.query($0) }) else { return Self.invalidRequest }
            return WebActivationPages.response(Self.signInPage(service, authorization, action: request.uri.path))
        }

        router.post("/partner/:service_id/oauth/authorize") { request, context in
            let form = try await WebActivationRoutes.form(request)
            guard let service = try await env.store.service(id: context.pathParameter("service_id")) else {
                return WebActivationPages.error(.notFound, "There is no such service.")
            }
            guard let authorization = AuthorizationRequest({ form[$0] }) else { return Self.invalidRequest }
            let login = (form["login"] ?? "").trimmingCharacters(in: .whitespaces)
            let key = "\(service.id):\(login)"
            guard throttle.allows(key, now: now) else {
                env.logger.warning("Partner sign-in of \(service.id): throttled")
                return WebActivationPages.response(
                    Self.signInPage(
                        service, authorization, action: request.uri.path, login: login,
                        error: WebActivationRoutes.throttledMessage),
                    status: .tooManyRequests)
            }
            guard
                let account = try await env.store.partnerSignIn(
                    serviceId: service.id, login: login, password: form["password"] ?? "")
            else {
                throttle.recordFailure(key, now: now)
                return WebActivationPages.response(
                    Self.signInPage(
                        service, authorization, action: request.uri.path, login: login,
                        error: "The username or password is not correct."),
                    status: .unauthorized)
            }
            throttle.reset(key)
            let code = try await env.store.issuePartnerCode(serviceId: service.id, partnerUserId: account.partnerUserId)
            env.logger.info("Partner sign-in of \(service.id): \(account.partnerUserId) signed in; issued a code")
            return WebActivationPages.redirect(
                to: authorization.redirectURI + "?code=" + WebActivationParameters.encode(code)
                    + "&state=" + WebActivationParameters.encode(authorization.state))
        }
    }

    static var invalidRequest: Response {
        WebActivationPages.error(
            .badRequest, "This sign-in link is not valid: it must come from IFTTT's activation pages.")
    }

    static func signInPage(
        _ service: SeedData.Service, _ authorization: AuthorizationRequest, action: String, login: String = "",
        error: String? = nil
    ) -> String {
        WebActivationPages.page(
            "Sign in to \(service.name)",
            """
            <p>IFTTT wants to connect to your <strong>\(htmlEscape(service.name))</strong> account.
            Sign in to \(htmlEscape(service.name)) to allow it.</p>\(WebActivationPages.alert(error))
            <form method="post" action="\(htmlEscape(action))" id="partner-sign-in">
            \(authorization.hiddenFields)
            <label for="login">\(htmlEscape(service.name)) username</label><input id="login" name="login" autocomplete="username" value="\(htmlEscape(login))">
            <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
            <button type="submit" id="submit">Sign in and allow</button>
            </form>
            """)
    }
}
