import Foundation
import Hummingbird

/// The web activation pages at `/access/api/{connection_id}`, taking the parameters the SDK puts into the URL
/// (spec §2.6): sign in (or create an account with `sdk_create_account=true`), authorize the partner service with
/// `code`, configure the Connection unless `skip_config=true`, then `303` to `sdk_return_to` with
/// `next_step=complete&user_token=...` (spec §2.7), plus the URL's `state` in ``RedirectStateMode/echo`` mode only.
/// No `state` is required: URLs built exactly as IFTTT's iOS 2.8 and Android SDKs build them are served.
///
/// * Account creation fails for every address at `fail.example` (and for invalid addresses):
///   `next_step=error&error_type=account_creation`.
/// * Cancel on the configuration page: `next_step=user_cancelled_configuration`.
/// * `skip_config=true`: the user connection is `enabled` and `pending` until `PUT .../user_connection`.
/// * `sdk_return_to` must be a loopback `http` URL (any port) or use a registered app scheme
///   (``WebActivationParameters/registeredAppSchemes``); anything else is a 400 page, never a redirect.
///
/// Pages are plain HTML forms that work without JavaScript. Who signed in is kept in memory under an unguessable
/// id in a hidden field, so the pages need no cookies.
struct WebActivationRoutes: SandboxRoutes {
    let env: RouteEnvironment
    let sessions = WebActivationSessions()
    /// Whether redirects echo the activation URL's `state`.
    var redirectState: RedirectStateMode = .ignore

    /// The domain whose addresses the sandbox refuses to create accounts for.
    static let failingAccountDomain = "fail.example"

    func register(on router: SandboxRouter) {
        router.get("/access/api/:connection_id") { request, context in
            let parameters = WebActivationParameters(pairs: WebActivationParameters.parseQuery(request.uri.query ?? ""))
            return try await page(context) { connection in
                if let problem = problem(parameters, connection: connection) { return problem }
                let html = parameters.createsAccount
                    ? WebActivationPages.createAccount(connection, parameters: parameters)
                    : WebActivationPages.signIn(connection, parameters: parameters)
                return WebActivationPages.response(html)
            }
        }

        router.post("/access/api/:connection_id/sign_in") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                if let problem = problem(form.parameters, connection: connection) { return problem }
                guard let user = try await env.store.signIn(identifier: (form["email"] ?? "").trimmingCharacters(in: .whitespaces),
                                                            password: form["password"] ?? "")
                else {
                    return WebActivationPages.response(
                        WebActivationPages.signIn(connection, parameters: form.parameters, error: "The email or password is not correct."),
                        status: .unauthorized)
                }
                return try await authorizePage(connection, user: user, parameters: form.parameters)
            }
        }

        router.post("/access/api/:connection_id/create_account") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                let parameters = form.parameters
                if let problem = problem(parameters, connection: connection) { return problem }
                let email = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
                let password = form["password"] ?? ""
                if password.isEmpty {
                    return WebActivationPages.response(
                        WebActivationPages.createAccount(connection, parameters: parameters, error: "Choose a password."),
                        status: .unprocessableContent)
                }
                let domain = email.split(separator: "@").last.map { $0.lowercased() } ?? ""
                guard SeedData.isEmail(email), domain != Self.failingAccountDomain,
                      let user = try await env.store.createUser(email: email, password: password)
                else {
                    env.logger.info("Web activation of \(connection.id): account creation failed")
                    return finish(parameters, [("next_step", "error"), ("error_type", "account_creation")])
                }
                env.logger.info("Web activation of \(connection.id): created user \(user.id)")
                return try await authorizePage(connection, user: user, parameters: parameters)
            }
        }

        router.post("/access/api/:connection_id/authorize") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                let parameters = form.parameters
                if let problem = problem(parameters, connection: connection) { return problem }
                guard let sessionId = form["activation_session"],
                      let session = sessions.session(sessionId, connectionId: connection.id),
                      let user = try await env.store.user(id: session.userId)
                else { return Self.expired }
                let service = try await primaryService(connection)
                guard let code = parameters.value("code"), !code.isEmpty,
                      try await env.store.authorizePartner(serviceId: service.id, oauthCode: code, userId: user.id) != nil
                else {
                    return WebActivationPages.response(
                        WebActivationPages.authorize(connection, service: service, user: user, session: sessionId, parameters: parameters,
                                                     error: "\(service.name) did not recognise the authorization code of this link."),
                        status: .badRequest)
                }
                sessions.markAuthorized(sessionId)
                if parameters.skipsConfiguration {
                    try await env.store.enablePending(userId: user.id, connectionId: connection.id)
                    env.logger.info("Web activation of \(connection.id): \(user.id) enabled it pending configuration")
                    return try await complete(parameters, user: user, session: sessionId)
                }
                let existing = try await env.store.snapshot(connectionId: connection.id, userId: user.id)?.userConnection
                return WebActivationPages.response(
                    WebActivationPages.configure(connection, existing: existing, session: sessionId, parameters: parameters))
            }
        }

        router.post("/access/api/:connection_id/configure") { request, context in
            let form = try await Self.form(request)
            return try await page(context) { connection in
                let parameters = form.parameters
                if let problem = problem(parameters, connection: connection) { return problem }
                guard let sessionId = form["activation_session"],
                      let session = sessions.session(sessionId, connectionId: connection.id), session.partnerAuthorized,
                      let user = try await env.store.user(id: session.userId)
                else { return Self.expired }
                if form["action"] == "cancel" {
                    sessions.end(sessionId)
                    return finish(parameters, [("next_step", "user_cancelled_configuration")])
                }
                let requested = WebActivationForm.userFeatures(form, connection: connection)
                do {
                    _ = try await env.store.replaceUserConnection(userId: user.id, connectionId: connection.id) { definition, existing in
                        try UserConnectionConfigurator.configure(requested, connection: definition, existing: existing)
                    }
                } catch let error as APIError {
                    let existing = try await env.store.snapshot(connectionId: connection.id, userId: user.id)?.userConnection
                    let messages = error.details.isEmpty ? [error.message] : error.details.map(\.message)
                    return WebActivationPages.response(
                        WebActivationPages.configure(connection, existing: existing, session: sessionId, parameters: parameters,
                                                     errors: messages, submitted: form),
                        status: .unprocessableContent)
                }
                env.logger.info("Web activation of \(connection.id): \(user.id) configured it")
                return try await complete(parameters, user: user, session: sessionId)
            }
        }
    }

    /// The page shown when the hidden session id is missing, unknown or of another Connection.
    static var expired: Response {
        WebActivationPages.error(.badRequest, "This activation has expired or is not valid. Start again from the app.")
    }

    static func form(_ request: Request) async throws -> SubmittedForm {
        var request = request
        return SubmittedForm(body: try await request.bodyData())
    }

    /// Loads the Connection of the path and runs `body`; unknown Connections and unexpected errors become HTML pages.
    private func page(_ context: BasicRequestContext, _ body: (SeedData.Connection) async throws -> Response) async throws -> Response {
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
                "sdk_return_to must be a loopback http URL or use an app scheme registered with the sandbox; the sandbox does not redirect anywhere else.")
        }
        if !connection.published, parameters.value("invite_code") != connection.inviteCode {
            return WebActivationPages.error(.forbidden, "This Connection is not published. The link needs its invite_code.")
        }
        return nil
    }

    private func primaryService(_ connection: SeedData.Connection) async throws -> SeedData.Service {
        guard let service = try await env.store.service(id: connection.primaryServiceId) else { throw APIError.internalError() }
        return service
    }

    private func authorizePage(_ connection: SeedData.Connection, user: SeedData.User, parameters: WebActivationParameters) async throws
        -> Response
    {
        let session = sessions.start(userId: user.id, connectionId: connection.id)
        let service = try await primaryService(connection)
        return WebActivationPages.response(
            WebActivationPages.authorize(connection, service: service, user: user, session: session, parameters: parameters))
    }

    /// Mints a user token for the user and redirects with `next_step=complete`.
    private func complete(_ parameters: WebActivationParameters, user: SeedData.User, session: String) async throws -> Response {
        sessions.end(session)
        let token = try await env.store.mintToken(forUserId: user.id)
        return finish(parameters, [("next_step", "complete"), ("user_token", token)])
    }

    /// The 303 to `sdk_return_to` with `items` and `state`.
    private func finish(_ parameters: WebActivationParameters, _ items: [(String, String)]) -> Response {
        guard let location = parameters.redirect(items, echoState: redirectState == .echo) else {
            return WebActivationPages.error(.badRequest, "sdk_return_to is not a URL the sandbox redirects to.")
        }
        return WebActivationPages.redirect(to: location)
    }
}
