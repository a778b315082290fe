import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// The partner's own sign-in page, as a careful OAuth authorization endpoint: IFTTT's activation pages send a user
/// here when the flow has no valid `code`, and the page sends the user back with a fresh one.
///
/// * IFTTT first pushes its authorization request (RFC 9126, ``PartnerAuthorizationRequests``): redirect URI,
///   `state`, PKCE challenge and the IFTTT account being connected. The browser then comes with only
///   `GET /partner/{service_id}/oauth/authorize?client_id=ifttt&request_uri=urn:ietf:params:oauth:request_uri:…`:
///   the page "Sign in to <service>" names that IFTTT account and asks for the username and password of one of the
///   seed's partner accounts (e.g. `dave` / `gx-dave-password`). A request without a pushed `request_uri` (such as
///   one naming its own `redirect_uri`) is a 400 page; a browser that did not come from the sandbox's own authorize
///   step (``SameOriginMiddleware/cameFromOwnPage(_:)``) gets a 403 page, so a flow's partner link opened in
///   another browser, even one whose binding cookie was tossed from another port, signs nobody in.
/// * `POST` to the same path: on the right password, `303` to the pushed redirect URI with `?code=C&state=S`, where
///   `C` is a new single-use code valid for ``SandboxStore/issuedCodeLifetime``, bound to that redirect URI and the
///   flow's PKCE challenge (``PartnerCodeBinding``); the pushed request is used up. Wrong passwords are throttled
///   like IFTTT's own sign-in, in one count with the backend's sign-in for the partner's native app
///   (`POST /partner/{service_id}/api/session`, ``PartnerSessionRoutes``, registered here to share the throttle).
struct PartnerSignInRoutes: SandboxRoutes {
    let env: RouteEnvironment
    /// The requests IFTTT pushed (shared with ``WebActivationRoutes``).
    let requests: PartnerAuthorizationRequests
    let throttle = SignInThrottle()
    /// Now, on the sandbox's clock.
    var now: Date { env.store.clock.now }

    /// The OAuth client id of IFTTT at the partner.
    static let clientId = "ifttt"

    func register(on router: SandboxRouter) {
        // The backend's sign-in for the partner's native app counts wrong passwords in this page's throttle.
        PartnerSessionRoutes(env: env, throttle: throttle).register(on: router)

        router.get("/partner/:service_id/oauth/authorize") { request, context in
            guard let service = try await env.store.service(id: context.pathParameter("service_id")) else {
                return WebActivationPages.error(.notFound, "There is no such service.")
            }
            // Only IFTTT's own authorize step leads here (a 303 from the sandbox's page): a partner link sent to
            // someone, even with the flow's browser cookie tossed into their browser from another port, stops here.
            guard SameOriginMiddleware.cameFromOwnPage(request) else {
                env.logger.warning("Partner sign-in of \(service.id): refused a link opened from elsewhere")
                return Self.notFromIFTTT
            }
            guard let (uri, pushed) = pushedRequest({ request.query($0) }, serviceId: service.id) else {
                return Self.invalidRequest
            }
            return WebActivationPages.response(
                Self.signInPage(service, requestURI: uri, pushed: pushed, action: request.uri.path))
        }

        router.post("/partner/:service_id/oauth/authorize") { request, context in
            let form = try await WebActivationRoutes.form(request)
            guard let service = try await env.store.service(id: context.pathParameter("service_id")) else {
                return WebActivationPages.error(.notFound, "There is no such service.")
            }
            guard let (uri, pushed) = pushedRequest({ form[$0] }, serviceId: service.id) else {
                return Self.invalidRequest
            }
            let login = (form["login"] ?? "").trimmingCharacters(in: .whitespaces)
            func page(_ error: String, _ status: HTTPResponse.Status) -> Response {
                WebActivationPages.response(
                    Self.signInPage(
                        service, requestURI: uri, pushed: pushed, action: request.uri.path, login: login, error: error),
                    status: status)
            }
            let account: SeedData.PartnerAccount
            switch try await PartnerSignInAttempt.make(
                store: env.store, throttle: throttle, serviceId: service.id, login: login,
                password: form["password"] ?? "", source: context.source)
            {
            case .throttled:
                env.logger.warning("Partner sign-in of \(service.id): throttled")
                return page(WebActivationRoutes.throttledMessage, .tooManyRequests)
            case .refused:
                return page("The username or password is not correct.", .unauthorized)
            case .signedIn(let signedIn):
                account = signedIn
            }
            let code = try await env.store.issuePartnerCode(
                serviceId: service.id, partnerUserId: account.partnerUserId,
                binding: PartnerCodeBinding(redirectURI: pushed.redirectURI, proof: pushed.codeChallenge))
            requests.consume(uri)
            env.logger.info("Partner sign-in of \(service.id): \(account.partnerUserId) signed in; issued a code")
            return WebActivationPages.redirect(
                to: pushed.redirectURI + "?code=" + WebActivationParameters.encode(code)
                    + "&state=" + WebActivationParameters.encode(pushed.state))
        }
    }

    /// The pushed request a sign-in page request names (`client_id=ifttt`, `request_uri`), if it is live.
    private func pushedRequest(_ value: (String) -> String?, serviceId: String)
        -> (String, PartnerAuthorizationRequests.Pushed)?
    {
        guard value("client_id") == Self.clientId, let uri = value("request_uri"),
            let pushed = requests.request(uri, serviceId: serviceId, now: now)
        else { return nil }
        return (uri, pushed)
    }

    /// The page for a sign-in link opened from anywhere but IFTTT's authorize step.
    static var notFromIFTTT: Response {
        WebActivationPages.error(
            .forbidden,
            "This sign-in link works only when IFTTT's activation pages lead you here. Start again from the app.")
    }

    static var invalidRequest: Response {
        WebActivationPages.error(
            .badRequest,
            "This sign-in link is not valid or has expired: it must come from IFTTT's activation pages. Start again from the app."
        )
    }

    static func signInPage(
        _ service: SeedData.Service, requestURI: String, pushed: PartnerAuthorizationRequests.Pushed, action: String,
        login: String = "", error: String? = nil
    ) -> String {
        PageTemplates.render(
            "partner-sign-in",
            PartnerSignInPage(
                title: "Sign in to \(service.name)", serviceName: service.name, iftttAccount: pushed.iftttAccount,
                action: action, clientId: clientId, requestURI: requestURI, login: login, error: error))
    }
}

/// What the partner's sign-in page shows.
struct PartnerSignInPage {
    let title: String
    let serviceName: String
    /// The IFTTT account the sign-in connects to, from the pushed request.
    let iftttAccount: String
    let action: String
    let clientId: String
    let requestURI: String
    let login: String
    let error: String?
}

/// One sign-in to a partner account, the same for the partner's HTML sign-in page and its backend's sign-in for the
/// native app, counted in their one ``SignInThrottle``: the login is looked up, the throttle asked (per account and
/// per request source), the password checked against the stored salted hash (an unknown login spends the same
/// time), a failure recorded and a success clearing its account's count.
enum PartnerSignInAttempt {
    /// Too many failures for this account or from this source: nothing was checked.
    case throttled
    /// A wrong username or password (counted).
    case refused
    /// The right password.
    case signedIn(SeedData.PartnerAccount)

    /// Tries `login` and `password` against the partner accounts of `serviceId`.
    static func make(
        store: SandboxStore, throttle: SignInThrottle, serviceId: String, login: String, password: String,
        source: String
    ) async throws -> Self {
        let now = store.clock.now
        let candidate = try await store.partnerSignInAccount(serviceId: serviceId, login: login)
        // An unknown login counts like an account: the answers do not tell which logins exist.
        let key = SignInThrottle.key(
            account: candidate.map { "\($0.serviceId):\($0.partnerUserId)" }, identifier: "\(serviceId):\(login)")
        guard throttle.allows(account: key, source: source, now: now) else { return .throttled }
        guard let account = SandboxStore.verified(candidate, stored: \.password, password: password) else {
            throttle.recordFailure(account: key, source: source, now: now)
            return .refused
        }
        throttle.reset(account: key, source: source)
        return .signedIn(account)
    }
}
