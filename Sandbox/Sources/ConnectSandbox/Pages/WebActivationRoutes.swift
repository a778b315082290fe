import Foundation
import Hummingbird

/// The web activation pages at `/access/api/{connection_id}`, taking the parameters the SDK puts into the URL
/// (spec §2.6): sign in (or create an account with `sdk_create_account=true`), connect the partner service, configure
/// the Connection unless `skip_config=true`, then `303` to `sdk_return_to` with `next_step=complete&user_token=...`
/// (spec §2.7), plus the URL's `state` in ``RedirectStateMode/echo`` mode only.
/// No `state` is required: URLs built exactly as IFTTT's iOS 2.8 and Android SDKs build them are served.
///
/// * The flow's parameters are stored when it starts (the `GET`); the pages carry only the flow's id, and later
///   posts cannot change `sdk_return_to`, `state` or `code`.
/// * Connecting the partner service: a valid `code` (known, unexpired, unused: codes are single-use) links its
///   partner account; without one, the user goes through the partner's own sign-in page
///   (`/partner/{service_id}/oauth/authorize`, as IFTTT sends users to a service's OAuth page), which returns a
///   fresh code to `/access/api/{connection_id}/partner_callback`. A partner account already linked to another
///   IFTTT user is never relinked: a page says so.
/// * Account creation fails for every address at `fail.example` (and for invalid addresses):
///   `next_step=error&error_type=account_creation`.
/// * Cancel on the configuration page: `next_step=user_cancelled_configuration`.
/// * `skip_config=true`: the user connection is `enabled` and `pending` until `PUT .../user_connection`.
/// * `sdk_return_to` must be a loopback `http` URL (any port) or use a registered app scheme
///   (``WebActivationParameters/registeredAppSchemes``); anything else is a 400 page, never a redirect.
/// * Sign-in is throttled (``SignInThrottle``); passwords are checked against salted hashes.
///
/// Pages are plain HTML forms that work without JavaScript and need no cookies.
struct WebActivationRoutes: SandboxRoutes {
    let env: RouteEnvironment
    let sessions = WebActivationSessions()
    /// Whether redirects echo the activation URL's `state`.
    var redirectState: RedirectStateMode = .ignore
    let throttle = SignInThrottle()
    /// Now, on the sandbox's clock.
    var now: Date { env.store.clock.now }

    /// The domain whose addresses the sandbox refuses to create accounts for.
    static let failingAccountDomain = "fail.example"

    func register(on router: SandboxRouter) {
        router.get("/access/api/:connection_id") { request, context in
            let parameters = WebActivationParameters(pairs: WebActivationParameters.parseQuery(request.uri.query ?? ""))
            return try await page(context) { connection in
                if let problem = problem(parameters, connection: connection) { return problem }
                let session = sessions.start(connectionId: connection.id, parameters: parameters, now: now)
                let html =
                    parameters.createsAccount
                    ? WebActivationPages.createAccount(connection, parameters: parameters, session: session.id)
                    : WebActivationPages.signIn(connection, parameters: parameters, session: session.id)
                return WebActivationPages.response(html)
            }
        }

        router.post("/access/api/:connection_id/sign_in") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                guard let session = sessions.session(form["activation_session"], connectionId: connection.id, now: now)
                else {
                    return Self.expired
                }
                let identifier = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
                guard throttle.allows(identifier, now: now) else {
                    env.logger.warning("Web activation of \(connection.id): sign-in throttled")
                    return WebActivationPages.response(
                        WebActivationPages.signIn(
                            connection, parameters: session.parameters, session: session.id,
                            error: Self.throttledMessage),
                        status: .tooManyRequests)
                }
                guard
                    let user = try await env.store.verifiedUser(
                        identifier: identifier, password: form["password"] ?? "")
                else {
                    throttle.recordFailure(identifier, now: now)
                    return WebActivationPages.response(
                        WebActivationPages.signIn(
                            connection, parameters: session.parameters, session: session.id,
                            error: "The email or password is not correct."),
                        status: .unauthorized)
                }
                throttle.reset(identifier)
                return try await authorizePage(connection, user: user, session: session)
            }
        }

        router.post("/access/api/:connection_id/create_account") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                guard let session = sessions.session(form["activation_session"], connectionId: connection.id, now: now)
                else {
                    return Self.expired
                }
                let parameters = session.parameters
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
                guard let session = sessions.session(form["activation_session"], connectionId: connection.id, now: now),
                    let userId = session.userId, let user = try await env.store.user(id: userId)
                else { return Self.expired }
                let service = try await primaryService(connection)
                guard let code = session.parameters.value("code"), !code.isEmpty else {
                    env.logger.info(
                        "Web activation of \(connection.id): no code; sending the user through \(service.id)'s sign-in")
                    return partnerSignInRedirect(connection, service: service, session: session)
                }
                switch try await env.store.redeemPartnerCode(serviceId: service.id, code: code, userId: user.id) {
                case .invalidCode:
                    env.logger.info(
                        "Web activation of \(connection.id): the code is unknown, expired or used; sending the user through \(service.id)'s sign-in"
                    )
                    return partnerSignInRedirect(connection, service: service, session: session)
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
                        partnerState: request.query("state") ?? "", connectionId: connection.id, now: now),
                    let userId = session.userId, let user = try await env.store.user(id: userId)
                else { return Self.expired }
                let service = try await primaryService(connection)
                guard let code = request.query("code"), !code.isEmpty else {
                    return WebActivationPages.error(.badRequest, "\(service.name) did not send an authorization code.")
                }
                switch try await env.store.redeemPartnerCode(serviceId: service.id, code: code, userId: user.id) {
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

        router.post("/access/api/:connection_id/configure") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                guard let session = sessions.session(form["activation_session"], connectionId: connection.id, now: now),
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

    /// The page shown when the flow's id is missing, unknown, expired or of another Connection.
    static var expired: Response {
        WebActivationPages.error(.badRequest, "This activation has expired or is not valid. Start again from the app.")
    }

    static func form(_ request: Request) async throws -> SubmittedForm {
        var request = request
        return SubmittedForm(body: try await request.bodyData())
    }

    /// Loads the Connection of the path and runs `body`; unknown Connections and unexpected errors become HTML pages.
    private func page(_ context: BasicRequestContext, _ body: (SeedData.Connection) async throws -> Response)
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
    private func problem(_ parameters: WebActivationParameters, connection: SeedData.Connection) -> Response? {
        guard parameters.value("sdk_return_to") != nil else {
            return WebActivationPages.error(.badRequest, "The sdk_return_to parameter is required.")
        }
        guard parameters.returnURL != nil else {
            return WebActivationPages.error(
                .badRequest,
                "sdk_return_to must be a loopback http URL or use an app scheme registered with the sandbox; the sandbox does not redirect anywhere else."
            )
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
        guard let signedIn = sessions.signIn(session.id, userId: user.id) else { return Self.expired }
        let service = try await primaryService(connection)
        return WebActivationPages.response(
            WebActivationPages.authorize(connection, service: service, user: user, session: signedIn.id))
    }

    /// The 303 to the partner's own sign-in page (its OAuth authorization endpoint), which returns to
    /// `partner_callback` with a fresh code and this flow's partner state.
    private func partnerSignInRedirect(
        _ connection: SeedData.Connection, service: SeedData.Service,
        session: WebActivationSessions.Session
    ) -> Response {
        let callback = "/access/api/\(WebActivationParameters.encode(connection.id))/partner_callback"
        let query = [
            ("response_type", "code"), ("client_id", PartnerSignInRoutes.clientId), ("redirect_uri", callback),
            ("state", session.partnerState),
        ]
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
