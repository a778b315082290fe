import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// The partner backend's sign-in for its own native app, as a partner would write it: the app sends the user's
/// username and password and gets back the session it then sends to the backend's other routes (such as
/// `POST /partner/{service_id}/api/user_token`, ``PartnerBackendRoutes``).
///
/// `POST /partner/{service_id}/api/session` with the JSON body `{"login": "alice", "password": "gx-alice-password"}`
/// (or the same two fields as `application/x-www-form-urlencoded`) answers 200 with
/// `{"session": "grocery_express-session-…", "user_id": "gx-user-1001", "login": "alice", "oauth_code": "grocery_express-code-…"}`
/// and `Cache-Control: no-store`: `session` is a new session of the partner account (random, valid 12 hours, ended
/// by `DELETE` of the same path: sign-out; only its hash is stored), `user_id` the partner's own user id, `login` the account's login as stored, `oauth_code` a fresh
/// single-use OAuth code for this user (valid 10 minutes, one per sign-in), which the app's credential provider
/// passes as `oauthCode`. The accounts are the seed's partner accounts with a
/// sign-in (`alice` / `gx-alice-password`, `bob` / `gx-bob-password`, `dave` / `gx-dave-password`); logins are
/// case-insensitive.
///
/// * Wrong username or password: 401 `unauthorized`, the same answer for both, in the sandbox's error envelope.
///   Passwords are checked against the stored salted hashes, and an unknown login spends the same time.
/// * Throttled: 429 `too_many_requests` with `Retry-After`. Wrong passwords count in the same ``SignInThrottle`` as the
///   partner's HTML sign-in page (``PartnerSignInRoutes``), per account and per request source, so neither door
///   gives a guesser more tries than the other.
/// * A body that is neither a JSON object nor a form: 400 `invalid_parameters`; `login` or `password` missing:
///   400 with `details`; present but not a non-empty string: 422.
/// * A service without a partner backend (unknown, or without a service key): 404 `not_found`.
///
/// A native app sends no `Origin` and no `Sec-Fetch-Site`, so the same-origin check lets it through, as it does for
/// the SDK; a web page's cross-site `POST` is refused (``SameOriginMiddleware``), and the `Host` allow-list applies
/// as everywhere. Neither the password nor the session is ever logged, nor the login of a failed attempt (users type
/// passwords into login fields).
struct PartnerSessionRoutes: SandboxRoutes {
    let env: RouteEnvironment
    /// The partner's sign-in throttle, shared with its HTML sign-in page.
    let throttle: SignInThrottle

    /// The longest a throttled source waits, in seconds: `Retry-After` of a 429 (an upper bound: the per-account
    /// window).
    static let retryAfter = Int(SignInThrottle.window)

    func register(on router: SandboxRouter) {
        registerSignOut(on: router)
        router.post("/partner/:service_id/api/session") { request, context in
            let serviceId = context.pathParameter("service_id")
            guard let service = try await env.store.service(id: serviceId), service.serviceKey != nil else {
                throw APIError.notFound("There is no partner backend for \"\(serviceId)\".")
            }
            let (login, password) = try await Self.credentials(request)
            let account: SeedData.PartnerAccount
            switch try await PartnerSignInAttempt.make(
                store: env.store, throttle: throttle, serviceId: service.id, login: login, password: password,
                source: context.source)
            {
            case .throttled:
                env.logger.warning("Partner backend \(service.id): refused a throttled sign-in")
                var response = APIError(
                    status: 429, code: .tooManyRequests, message: WebActivationRoutes.throttledMessage
                ).response()
                response.headers[HeaderName("Retry-After")!] = String(Self.retryAfter)
                return response
            case .refused:
                env.logger.info("Partner backend \(service.id): a sign-in with a wrong username or password")
                throw APIError.unauthorized("The username or password is not correct.")
            case .signedIn(let signedIn):
                account = signedIn
            }
            env.logger.info("Partner backend \(service.id): \(account.partnerUserId) signed in")
            let session = try await env.store.startPartnerSession(
                serviceId: service.id, partnerUserId: account.partnerUserId)
            var answer: [(String, JSONValue)] = [
                ("session", .string(session)),
                ("user_id", .string(account.partnerUserId)),
                ("login", .string(account.login ?? login)),
            ]
            // The OAuth code the partner issues IFTTT for this user: the app's credential provider hands it to the
            // Connect Button (`oauthCode`), so the activation links this user's account, not a fixed one. A fresh
            // single-use code per sign-in, valid 10 minutes: a spent code is never handed out again.
            let code = try await env.store.issueURLCode(serviceId: service.id, partnerUserId: account.partnerUserId)
            answer.append(("oauth_code", .string(code)))
            var response = JSONResponse.make(.object(JSONObject(answer)))
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    /// `DELETE /partner/{service_id}/api/session` with `Authorization: Bearer <session>`: signs out (204); the
    /// session no longer works anywhere. 401 for a session that is not live (unknown, expired, already ended).
    func registerSignOut(on router: SandboxRouter) {
        router.delete("/partner/:service_id/api/session") { request, context in
            let serviceId = context.pathParameter("service_id")
            guard let service = try await env.store.service(id: serviceId), service.serviceKey != nil else {
                throw APIError.notFound("There is no partner backend for \"\(serviceId)\".")
            }
            let parts = (request.header(.authorization) ?? "").split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer",
                try await env.store.endPartnerSession(serviceId: service.id, session: String(parts[1]))
            else {
                throw APIError.unauthorized("This is not a live session of \(service.name).")
            }
            env.logger.info("Partner backend \(service.id): a session was signed out")
            return JSONResponse.empty()
        }
    }

    /// The `login` and `password` of the request's body: a JSON object, or a form when the `Content-Type` says
    /// `application/x-www-form-urlencoded`.
    static func credentials(_ request: Request) async throws -> (login: String, password: String) {
        var request = request
        let data = try await request.bodyData()
        let type = (request.headers[.contentType] ?? "").lowercased()
        let isForm = type.hasPrefix("application/x-www-form-urlencoded")
        // Parameters in `details`: a form's field names, a JSON body's pointers (`/login`), as elsewhere.
        func parameter(_ name: String) -> String { isForm ? name : "/" + name }
        let fields: [String: String]
        if isForm {
            let form = SubmittedForm(body: data)
            fields = Dictionary(
                ["login", "password"].compactMap { name in form[name].map { (name, $0) } },
                uniquingKeysWith: { first, _ in first })
            for (name, value) in fields where value.isEmpty {
                throw APIError.unprocessable(
                    "\(name) must be a non-empty string.",
                    details: [.init(parameter: parameter(name), message: "must be a non-empty string")])
            }
        } else {
            guard let body = try? RequestBody.optionalObject(data) else {
                throw APIError.badRequest(
                    "The request body must be a JSON object {\"login\": ..., \"password\": ...} or a form.")
            }
            fields = try Dictionary(
                ["login", "password"].compactMap { name in try RequestBody.string(body, name).map { (name, $0) } },
                uniquingKeysWith: { first, _ in first })
        }
        let missing = ["login", "password"].filter { fields[$0] == nil }
        guard missing.isEmpty, let login = fields["login"], let password = fields["password"] else {
            throw APIError.badRequest(
                "The \(missing.joined(separator: " and ")) \(missing.count == 1 ? "is" : "are") required.",
                details: missing.map { .init(parameter: parameter($0), message: "is required") })
        }
        return (login.trimmingCharacters(in: .whitespaces), password)
    }
}

extension APIError.Code {
    /// `too_many_requests` (429): the partner backend's sign-in refuses attempts after too many wrong passwords.
    static let tooManyRequests = APIError.Code(rawValue: "too_many_requests")
}
