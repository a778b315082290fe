import Foundation
import Hummingbird
import IFTTTConnectSDK

/// Backend-only endpoints authenticated with `IFTTT-Service-Key`: the token exchange `POST /v2/user_token`.
struct ServiceRoutes: SandboxRoutes {
    let env: RouteEnvironment

    func register(on router: SandboxRouter) {
        // POST /v2/user_token?user_id=<partner user id>&access_token=<partner OAuth token>
        // (the 2019 form with a JSON body {"token": ...} is accepted too).
        router.post("/v2/user_token") { request, _ in
            var request = request
            let principal = try await env.authenticator.authenticate(request, policy: .serviceOnly)
            guard let service = principal.service else { throw APIError.unauthorized("A service key is required.") }
            guard let partnerUserId = request.query("user_id"), !partnerUserId.isEmpty else {
                throw APIError.badRequest(
                    "The user_id query parameter is required.",
                    details: [.init(parameter: "user_id", message: "is required")])
            }
            var accessToken = request.query("access_token")
            if accessToken?.isEmpty ?? true {
                let body = try await request.bodyData()
                if !body.isEmpty, let json = try? JSONValue.decodeSorted(from: body) {
                    accessToken = json["access_token"]?.stringValue ?? json["token"]?.stringValue
                }
            }
            guard let accessToken, !accessToken.isEmpty else {
                throw APIError.badRequest(
                    "The access_token query parameter is required.",
                    details: [.init(parameter: "access_token", message: "is required")])
            }
            guard let account = try await env.store.partnerAccount(serviceId: service.id, partnerUserId: partnerUserId),
                account.accessToken == accessToken
            else {
                throw APIError.unauthorized("The access token is not valid for this user_id.")
            }
            guard let userId = account.userId else {
                throw APIError.notFound("No IFTTT user has connected the account with user_id \"\(partnerUserId)\".")
            }
            let token = try await env.store.mintToken(forUserId: userId)
            env.logger.info("Minted a user token for IFTTT user \(userId) (service \(service.id))")
            return JSONResponse.make(["type": "user_token", "user_token": .string(token)])
        }
    }
}
