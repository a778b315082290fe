import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// Backend-only endpoints authenticated with `IFTTT-Service-Key`: the token exchange `POST /v2/user_token` (IFTTT's
/// iOS and Android SDK READMEs) and `POST /v2/provisional_access_code` (the docs' "Connect URL" section).
struct ServiceRoutes: SandboxRoutes {
    let env: RouteEnvironment

    func register(on router: SandboxRouter) {
        // POST /v2/user_token?user_id=<partner user id>&access_token=<partner OAuth token>
        // (the 2019 form with a JSON body {"token": ...} is accepted too).
        router.post("/v2/user_token") { request, _ in
            var request = request
            let principal = try await env.authenticator.authenticate(request, policy: .serviceOnly)
            guard let service = principal.service else { throw APIError.unauthorized("A service key is required.") }
            var accessToken = request.query("access_token")
            if accessToken?.isEmpty ?? true {
                let body = try await request.bodyData()
                if !body.isEmpty, let json = try? JSONValue.decodeSorted(from: body) {
                    accessToken = json["access_token"]?.stringValue ?? json["token"]?.stringValue
                }
            }
            let token = try await exchange(
                service: service, partnerUserId: request.query("user_id"), accessToken: accessToken,
                parameter: { $0 })
            return JSONResponse.make(["type": "user_token", "user_token": .string(token)])
        }

        // {"oauth_code": "..."} → 201 {"provisional_access_code": "..."}: single-use, valid 48 hours, redeemed by
        // the Connect URL's `code`.
        router.post("/v2/provisional_access_code") { request, _ in
            var request = request
            let principal = try await env.authenticator.authenticate(request, policy: .serviceOnly)
            guard let service = principal.service else { throw APIError.unauthorized("A service key is required.") }
            let body = try RequestBody.optionalObject(try await request.bodyData())
            guard let oauthCode = try RequestBody.string(body, "oauth_code") else {
                throw APIError.unprocessable(
                    "oauth_code is required.", details: [.init(parameter: "/oauth_code", message: "is required")])
            }
            let code = try await env.store.issueProvisionalCode(
                serviceId: service.id, oauthCode: oauthCode)
            env.logger.info("Issued a provisional access code for service \(service.id)")
            return JSONResponse.make(["provisional_access_code": .string(code)], status: .created)
        }
    }

    /// The token exchange of `/v2/user_token` and the legacy `/v1/services/{id}/user_token`: the partner account
    /// `partnerUserId` of `service` must have `accessToken` (401 otherwise) and be linked to an IFTTT user (404).
    /// `parameter` names a parameter in error details (`user_id`, or `/user_id` for a JSON body).
    func exchange(
        service: SeedData.Service, partnerUserId: String?, accessToken: String?, parameter: (String) -> String
    ) async throws -> String {
        guard let partnerUserId, !partnerUserId.isEmpty else {
            throw APIError.badRequest(
                "The user_id parameter is required.",
                details: [.init(parameter: parameter("user_id"), message: "is required")])
        }
        guard let accessToken, !accessToken.isEmpty else {
            throw APIError.badRequest(
                "The access token parameter is required.",
                details: [.init(parameter: parameter("access_token"), message: "is required")])
        }
        guard let account = try await env.store.partnerAccount(serviceId: service.id, partnerUserId: partnerUserId),
            account.accessToken == accessToken
        else {
            throw APIError.unauthorized("The access token is not valid for this user_id.")
        }
        guard let userId = account.userId else {
            // The one real answer on record (IFTTT/ConnectSDK-Android issue 233) is 401; the default stays 404.
            if StrictMode.isOn { throw APIError.unauthorized("Cannot uniquely identify user") }
            throw APIError.notFound("No IFTTT user has connected the account with user_id \"\(partnerUserId)\".")
        }
        let token = try await env.store.mintToken(forUserId: userId)
        env.logger.info("Minted a user token for IFTTT user \(userId) (service \(service.id))")
        return token
    }
}
