import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// `GET /v2/account/find` and `GET /v2/me`.
struct AccountRoutes: SandboxRoutes {
    let env: RouteEnvironment

    func register(on router: SandboxRouter) {
        // No authentication; only the status matters: 204 if an account has this e-mail, 404 if not.
        router.get("/v2/account/find") { request, _ in
            guard let email = request.query("email")?.trimmingCharacters(in: .whitespaces), !email.isEmpty else {
                throw APIError.badRequest(
                    "The email query parameter is required.",
                    details: [.init(parameter: "email", message: "is required")])
            }
            guard SeedData.isEmail(email) else {
                throw APIError.badRequest(
                    "The email query parameter is not an e-mail address.",
                    details: [.init(parameter: "email", message: "is not an e-mail address")])
            }
            guard try await env.store.userExists(email: email) else {
                throw APIError.notFound("No IFTTT account has this e-mail address.")
            }
            return JSONResponse.empty()
        }

        router.get("/v2/me") { request, _ in try await me(request) }
    }

    /// `GET /v2/me`, and the legacy Applets API's `GET /v1/me` (the same answer): who the request authenticates as.
    func me(_ request: Request) async throws -> Response {
        let principal = try await env.authenticator.authenticate(request, policy: .optional)
        let body: JSONValue
        switch principal {
        case .anonymous:
            body = ["type": "me", "authentication_level": "none", "service_id": .null, "user_login": .null]
        case .user(let user):
            body = [
                "type": "me", "authentication_level": "user", "service_id": .null,
                "user_login": .string(user.login),
            ]
        case .service(let service, _, let user):
            body = [
                "type": "me", "authentication_level": "channel", "service_id": .string(service.id),
                "user_login": .optional(user?.login),
            ]
        }
        return JSONResponse.make(body)
    }
}
