import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// The web activation pages at `/access/api/{connection_id}`, taking the parameters the SDK puts into the URL
/// (spec §2.6): sign in (or create an account with `sdk_create_account=true`), connect the partner service, configure
/// the Connection unless `skip_config=true`, then `303` to `sdk_return_to` with `next_step=complete&user_token=...`
/// (spec §2.7), plus the URL's `state` in ``RedirectStateMode/echo`` mode only.
/// No `state` is required: URLs built exactly as IFTTT's iOS 2.8 and Android SDKs build them are served.
///
/// * The flow's parameters are stored when it starts (the `GET`); the pages carry only the flow's id, and later
///   posts cannot change `sdk_return_to`, `state` or `code`.
/// * A flow belongs to the browser that started it (a cookie, ``BrowserBinding``): every later step, the partner's
///   redirect back included, must come from that browser. Once an IFTTT user has signed in, nobody else can sign in
///   to the flow (409), and after the partner authorization nobody can.
/// * Connecting the partner service: a valid `code` (known, unexpired, unused: codes are single-use) links its
///   partner account, once the authorize page has named that account and the user allowed it ("Not my account"
///   goes through the partner's sign-in instead); a URL code belongs to the first browser whose flow presents it; without one, the user goes through the partner's own sign-in page
///   (`/partner/{service_id}/oauth/authorize`, as IFTTT sends users to a service's OAuth page): the flow pushes its
///   authorization request to the partner (``PartnerAuthorizationRequests``: redirect URI, `state`, PKCE challenge,
///   the IFTTT account being connected), and the partner returns a fresh code, bound to this flow and redirect URI,
///   to `/access/api/{connection_id}/partner_callback`. A partner account already linked to another IFTTT user is
///   never relinked (a page says so), and the code stays unused for its owner.
/// * Account creation fails for every address at `fail.example` (and for invalid addresses):
///   `next_step=error&error_type=account_creation`.
/// * Cancel on the configuration page: `next_step=user_cancelled_configuration`.
/// * `skip_config=true`: the user connection is `enabled` and `pending` until `PUT .../user_connection`.
/// * `sdk_return_to` must match a redirect URL registered for the Connection's service
///   (``SeedData/Service/redirectURIs``, see ``RedirectRegistration``); anything else is a 400 page, never a redirect.
/// * Sign-in is throttled per account and per source (``SignInThrottle``): nobody can lock out an account nobody guesses at; passwords are checked against salted hashes.
///
/// Pages are plain HTML forms that work without JavaScript; the one cookie binds a flow to its browser.
struct WebActivationRoutes: SandboxRoutes {
    let env: RouteEnvironment
    let sessions = WebActivationSessions()
    /// Whether redirects echo the activation URL's `state`.
    var redirectState: RedirectStateMode = .ignore
    /// The partner's pushed authorization requests (shared with ``PartnerSignInRoutes``).
    var partnerRequests = PartnerAuthorizationRequests()
    let throttle = SignInThrottle()
    /// Now, on the sandbox's clock.
    var now: Date { env.store.clock.now }

    /// The cookie that binds flows to browsers.
    var browsers: BrowserBinding { BrowserBinding(urls: env.urls) }

    /// The domain whose addresses the sandbox refuses to create accounts for.
    static let failingAccountDomain = "fail.example"

    func register(on router: SandboxRouter) {
        router.get("/access/api/:connection_id") { request, context in
            let parameters = WebActivationParameters(pairs: WebActivationParameters.parseQuery(request.uri.query ?? ""))
            return try await page(context) { connection in
                if let problem = try await problem(parameters, connection: connection) { return problem }
                let (browser, setCookie) = browsers.browserOrNew(of: request)
                let session = sessions.start(
                    connectionId: connection.id, parameters: parameters, browser: browser, source: context.source,
                    now: now)
                let html =
                    parameters.createsAccount
                    ? WebActivationPages.createAccount(connection, parameters: parameters, session: session.id)
                    : WebActivationPages.signIn(connection, parameters: parameters, session: session.id)
                var response = WebActivationPages.response(html)
                if let setCookie { response.headers[.setCookie] = setCookie }
                return response
            }
        }

        router.post("/access/api/:connection_id/sign_in") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                guard let session = flow(form, request, connection) else { return Self.expired }
                let identifier = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
                // Throttled per account: the address and the login of one user share one count.
                let account = try await env.store.signInUser(identifier: identifier)
                // An identifier that names no account counts like one: the answers do not tell which exist.
                let key = SignInThrottle.key(account: account?.id, identifier: identifier)
                guard throttle.allows(account: key, source: context.source, now: now) else {
                    env.logger.warning("Web activation of \(connection.id): sign-in throttled")
                    return WebActivationPages.response(
                        WebActivationPages.signIn(
                            connection, parameters: session.parameters, session: session.id,
                            error: Self.throttledMessage),
                        status: .tooManyRequests)
                }
                guard
                    let user = SandboxStore.verified(account, stored: \.password, password: form["password"] ?? "")
                else {
                    throttle.recordFailure(account: key, source: context.source, now: now)
                    return WebActivationPages.response(
                        WebActivationPages.signIn(
                            connection, parameters: session.parameters, session: session.id,
                            error: "The email or password is not correct."),
                        status: .unauthorized)
                }
                throttle.reset(account: user.id, source: context.source)
                return try await authorizePage(connection, user: user, session: session)
            }
        }

        router.post("/access/api/:connection_id/create_account") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                guard let session = flow(form, request, connection) else { return Self.expired }
                let parameters = session.parameters
                guard session.userId == nil, !session.partnerAuthorized else { return Self.signedInAlready }
                let email = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
                let password = form["password"] ?? ""
                if password.isEmpty {
                    return WebActivationPages.response(
                        WebActivationPages.createAccount(
                            connection, parameters: parameters, session: session.id,
                            error: "Choose a password."),
                        status: .unprocessableContent)
                }
                let domain = email.split(separator: "@").last.map { $0.lowercased() } ?? ""
                guard SeedData.isEmail(email), domain != Self.failingAccountDomain,
                    let user = try await env.store.createUser(email: email, password: password)
                else {
                    env.logger.info("Web activation of \(connection.id): account creation failed")
                    sessions.end(session.id)
                    return finish(parameters, [("next_step", "error"), ("error_type", "account_creation")])
                }
                env.logger.info("Web activation of \(connection.id): created user \(user.id)")
                return try await authorizePage(connection, user: user, session: session)
            }
        }

        router.post("/access/api/:connection_id/authorize") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                guard let session = flow(form, request, connection), !session.partnerAuthorized,
                    let userId = session.userId, let user = try await env.store.user(id: userId)
                else { return Self.expired }
                let service = try await primaryService(connection)
                // A URL code is used only when the URL binds it to the app that built it (`code_challenge`): a code
                // alone may be anyone's, put in a link sent to this user.
                guard let code = session.urlCode, !code.isEmpty, let challenge = session.urlCodeChallenge else {
                    env.logger.info(
                        "Web activation of \(connection.id): no code; sending the user through \(service.id)'s sign-in")
                    return partnerSignInRedirect(connection, service: service, user: user, session: session)
                }
                // The user chose "Not my account" on the page that named the code's partner account, or the page
                // they saw named another account than the code links now: the partner's own sign-in decides.
                let shown = form["partner_account"]
                if form["action"] == "partner_sign_in" {
                    env.logger.info("Web activation of \(connection.id): the user declined the link's partner account")
                    return partnerSignInRedirect(connection, service: service, user: user, session: session)
                }
                if let shown,
                    try await env.store.partnerAccount(urlCode: code, serviceId: service.id)?.partnerUserId != shown
                {
                    return partnerSignInRedirect(connection, service: service, user: user, session: session)
                }
                switch try await env.store.redeemPartnerCode(
                    serviceId: service.id, code: code, userId: user.id, binding: nil, urlChallenge: challenge)
                {
                case .invalidCode:
                    env.logger.info(
                        "Web activation of \(connection.id): the code is unknown, expired or used; sending the user through \(service.id)'s sign-in"
                    )
                    return partnerSignInRedirect(connection, service: service, user: user, session: session)
                case .linkedToAnotherUser:
                    return alreadyLinked(service, session: session)
                case .linked:
                    return try await partnerConnected(connection, user: user, session: session)
                }
            }
        }

        // The partner's sign-in page returns here with a fresh code and the flow's partner state (OAuth redirect).
        router.get("/access/api/:connection_id/partner_callback") { request, context in
            return try await page(context) { connection in
                guard
                    let session = sessions.session(
                        partnerState: request.query("state") ?? "", connectionId: connection.id,
                        browser: browsers.browser(of: request), now: now),
                    !session.partnerAuthorized, let userId = session.userId,
                    let user = try await env.store.user(id: userId)
                else { return Self.expired }
                let service = try await primaryService(connection)
                guard let code = request.query("code"), !code.isEmpty else {
                    return WebActivationPages.error(.badRequest, "\(service.name) did not send an authorization code.")
                }
                let binding = PartnerCodeBinding(
                    redirectURI: Self.callbackPath(connection), proof: session.codeVerifier)
                switch try await env.store.redeemPartnerCode(
                    serviceId: service.id, code: code, userId: user.id, binding: binding)
                {
                case .invalidCode:
                    return WebActivationPages.error(
                        .badRequest,
                        "\(service.name)'s authorization code is unknown, expired or already used. Start again from the app."
                    )
                case .linkedToAnotherUser:
                    return alreadyLinked(service, session: session)
                case .linked:
                    return try await partnerConnected(connection, user: user, session: session)
                }
            }
        }

        // The app that built the activation URL completes the partner link its `code` claimed: the flow's user token
        // (which only the device that finished the flow received) with the verifier of the URL's `code_challenge`
        // (which only that app holds). 204 when a link was made; 404 when none waits for this pair.
        router.post("/access/api/:connection_id/partner_link") { request, context in
            let principal = try await env.authenticator.authenticate(request, policy: .userOnly)
            let user = try principal.requireUser()
            let form = try await Self.form(request)
            guard let verifier = form["code_verifier"], (43...128).contains(verifier.utf8.count) else {
                throw APIError.badRequest(
                    "code_verifier (43 to 128 characters) is required.",
                    details: [.init(parameter: "code_verifier", message: "is required")])
            }
            let linked = try await env.store.completePartnerLinks(userId: user.id, verifier: verifier)
            guard !linked.isEmpty else { throw APIError.notFound("No partner link waits for this verifier.") }
            for account in linked {
                env.logger.info(
                    "Web activation of \(context.pathParameter("connection_id")): linked a \(account.serviceId) account to \(user.id)"
                )
            }
            return JSONResponse.empty()
        }

        router.post("/access/api/:connection_id/configure") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                guard let session = flow(form, request, connection),
                    session.partnerAuthorized, let userId = session.userId,
                    let user = try await env.store.user(id: userId)
                else { return Self.expired }
                let parameters = session.parameters
                if form["action"] == "cancel" {
                    sessions.end(session.id)
                    return finish(parameters, [("next_step", "user_cancelled_configuration")])
                }
                let requested = WebActivationForm.userFeatures(form, connection: connection)
                do {
                    _ = try await env.store.replaceUserConnection(userId: user.id, connectionId: connection.id) {
                        definition, existing in
                        try UserConnectionConfigurator.configure(requested, connection: definition, existing: existing)
                    }
                } catch let error as APIError {
                    let existing = try await env.store.snapshot(connectionId: connection.id, userId: user.id)?
                        .userConnection
                    let messages = error.details.isEmpty ? [error.message] : error.details.map(\.message)
                    return WebActivationPages.response(
                        WebActivationPages.configure(
                            connection, existing: existing, session: session.id, parameters: parameters,
                            errors: messages, submitted: form),
                        status: .unprocessableContent)
                }
                env.logger.info("Web activation of \(connection.id): \(user.id) configured it")
                return try await complete(parameters, user: user, session: session.id)
            }
        }
    }

    static let throttledMessage = "Too many wrong passwords. Wait a few minutes, then try again."

    /// The page shown when the flow's id is missing, unknown, expired, of another Connection or of another browser.
    static var expired: Response {
        WebActivationPages.error(
            .badRequest,
            "This activation has expired, is not valid, or was started in another browser. Start again from the app.")
    }

    /// The page shown when someone signs in to a flow that already has its IFTTT user.
    static var signedInAlready: Response {
        WebActivationPages.error(
            .conflict,
            "This activation is already signed in to an IFTTT account. To use another account, start again from the app."
        )
    }

    /// The live flow a form names, when the request comes from the browser that started it.
    private func flow(_ form: SubmittedForm, _ request: Request, _ connection: SeedData.Connection)
        -> WebActivationSessions.Session?
    {
        sessions.session(
            form["activation_session"], connectionId: connection.id, browser: browsers.browser(of: request), now: now)
    }

    /// IFTTT's redirect URI at the partner for `connection`.
    static func callbackPath(_ connection: SeedData.Connection) -> String {
        "/access/api/\(WebActivationParameters.encode(connection.id))/partner_callback"
    }

    static func form(_ request: Request) async throws -> SubmittedForm {
        var request = request
        return SubmittedForm(body: try await request.bodyData())
    }

    /// Loads the Connection of the path and runs `body`; unknown Connections and unexpected errors become HTML pages.
    private func page(_ context: SandboxRequestContext, _ body: (SeedData.Connection) async throws -> Response)
        async throws -> Response
    {
        let id = context.pathParameter("connection_id")
        guard let snapshot = try await env.store.snapshot(connectionId: id, userId: nil) else {
            return WebActivationPages.error(.notFound, "There is no Connection \"\(id)\".")
        }
        do {
            return try await body(snapshot.connection)
        } catch {
            env.logger.error("Web activation of \(id) failed: \(SandboxStore.describe(error))")
            return WebActivationPages.error(.internalServerError, "Something went wrong in the sandbox.")
        }
    }

    /// A 400 or 403 page when the flow's parameters cannot be served; `nil` when they are fine.
    private func problem(_ parameters: WebActivationParameters, connection: SeedData.Connection) async throws
        -> Response?
    {
        guard let returnTo = parameters.value("sdk_return_to") else {
            return WebActivationPages.error(.badRequest, "The sdk_return_to parameter is required.")
        }
        guard parameters.returnURL != nil, try await env.acceptsReturnURL(returnTo, connection: connection) else {
            return WebActivationPages.error(
                .badRequest,
                "sdk_return_to is not a redirect URL registered for this Connection's service (redirect_uris in the seed file); the sandbox does not redirect anywhere else."
            )
        }
        if StrictMode.isOn, let skip = parameters.value("skip_config"), !["true", "false"].contains(skip) {
            return WebActivationPages.error(.badRequest, "skip_config must be true or false (strict mode).")
        }
        if !connection.published, parameters.value("invite_code") != connection.inviteCode {
            return WebActivationPages.error(
                .forbidden, "This Connection is not published. The link needs its invite_code.")
        }
        return nil
    }

    private func primaryService(_ connection: SeedData.Connection) async throws -> SeedData.Service {
        guard let service = try await env.store.service(id: connection.primaryServiceId) else {
            throw APIError.internalError()
        }
        return service
    }

    private func authorizePage(
        _ connection: SeedData.Connection, user: SeedData.User, session: WebActivationSessions.Session
    )
        async throws -> Response
    {
        let signedIn: WebActivationSessions.Session
        switch sessions.signIn(session.id, userId: user.id) {
        case .signedIn(let session): signedIn = session
        case .refused:
            env.logger.warning("Web activation of \(connection.id): refused a second user's sign-in to a flow")
            return Self.signedInAlready
        case .gone: return Self.expired
        }
        let service = try await primaryService(connection)
        // The partner account the link's code would connect is named on the page (issue 30, hole 1).
        var linked: SeedData.PartnerAccount?
        if let code = signedIn.urlCode, signedIn.urlCodeChallenge != nil {
            linked = try await env.store.partnerAccount(urlCode: code, serviceId: service.id)
        }
        return WebActivationPages.response(
            WebActivationPages.authorize(
                connection, service: service, user: user, session: signedIn.id, partnerAccount: linked))
    }

    /// The 303 to the partner's own sign-in page (its OAuth authorization endpoint), after pushing the authorization
    /// request to the partner (RFC 9126): the URL carries only `client_id` and the opaque `request_uri`; the partner
    /// returns to `partner_callback` with a code bound to this flow (PKCE) and this flow's partner state.
    private func partnerSignInRedirect(
        _ connection: SeedData.Connection, service: SeedData.Service, user: SeedData.User,
        session: WebActivationSessions.Session
    ) -> Response {
        guard
            let requestURI = partnerRequests.push(
                flow: session.id, serviceId: service.id, redirectURI: Self.callbackPath(connection),
                state: session.partnerState,
                codeChallenge: PKCE.challenge(session.codeVerifier),
                iftttAccount: user.login == user.email ? user.email : "\(user.login) (\(user.email))", now: now)
        else { return WebActivationPages.error(.internalServerError, "Something went wrong in the sandbox.") }
        let query = [("client_id", PartnerSignInRoutes.clientId), ("request_uri", requestURI)]
            .map { "\($0.0)=\(WebActivationParameters.encode($0.1))" }.joined(separator: "&")
        return WebActivationPages.redirect(
            to: "/partner/\(WebActivationParameters.encode(service.id))/oauth/authorize?\(query)")
    }

    /// The page that refuses to relink a partner account another IFTTT user has connected.
    private func alreadyLinked(_ service: SeedData.Service, session: WebActivationSessions.Session) -> Response {
        sessions.end(session.id)
        env.logger.warning("Web activation: refused to relink a \(service.id) account linked to another IFTTT user")
        return WebActivationPages.error(
            .conflict,
            "This \(service.name) account is already connected to another IFTTT account. Sign in to IFTTT with that account, or disconnect it there first."
        )
    }

    /// The partner account is linked: enable pending (configuration skipped) and finish, or show the configuration page.
    private func partnerConnected(
        _ connection: SeedData.Connection, user: SeedData.User, session: WebActivationSessions.Session
    )
        async throws -> Response
    {
        sessions.markAuthorized(session.id)
        if session.parameters.skipsConfiguration {
            try await env.store.enablePending(userId: user.id, connectionId: connection.id)
            env.logger.info("Web activation of \(connection.id): \(user.id) enabled it pending configuration")
            return try await complete(session.parameters, user: user, session: session.id)
        }
        let existing = try await env.store.snapshot(connectionId: connection.id, userId: user.id)?.userConnection
        return WebActivationPages.response(
            WebActivationPages.configure(
                connection, existing: existing, session: session.id, parameters: session.parameters))
    }

    /// Mints a user token for the user and redirects with `next_step=complete`.
    private func complete(_ parameters: WebActivationParameters, user: SeedData.User, session: String) async throws
        -> Response
    {
        sessions.end(session)
        let token = try await env.store.mintToken(forUserId: user.id)
        return finish(parameters, [("next_step", "complete"), ("user_token", token)])
    }

    /// The 303 to `sdk_return_to` with `items` (and `state` in echo mode).
    private func finish(_ parameters: WebActivationParameters, _ items: [(String, String)]) -> Response {
        guard let location = parameters.redirect(items, echoState: redirectState == .echo) else {
            return WebActivationPages.error(.badRequest, "sdk_return_to is not a URL the sandbox redirects to.")
        }
        return WebActivationPages.redirect(to: location)
    }
}
