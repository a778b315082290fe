import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectService

/// A minimal partner backend, as a partner would write it, mounted under `/partner/{service_id}`: the app sends
/// the partner's own session and gets back the user's IFTTT user token, which the backend obtains from IFTTT with
/// ``IFTTTConnectService/ConnectServiceClient`` and the service key (the key never leaves the backend).
///
/// `POST /partner/{service_id}/api/user_token` with `Authorization: Bearer <partner session>` answers
/// `{"user_token": "<token>"}`, or `{"user_token": null}` when the partner user has not connected IFTTT yet (the
/// app then carries on signed out). The partner sessions are the seed's partner accounts' access tokens, for
/// example `gx-access-token-alice` for `gx-user-1001`, and the revocable sessions the partner's app gets by signing
/// in with `POST /partner/{service_id}/api/session` (``PartnerSessionRoutes``; sign-out revokes them). An unknown session is 401; a service without a service
/// key is 404; an IFTTT failure is 502. The backend talks to this sandbox's own `/v2` over loopback.
struct PartnerBackendRoutes: SandboxRoutes {
    let env: RouteEnvironment

    /// The partner account a bearer names: a live session of the backend's sign-in, or one of the seed's fixed
    /// access tokens (for scripts and the CLI, which sign in with no password).
    static func account(_ store: SandboxStore, serviceId: String, bearer: String) async throws
        -> SeedData.PartnerAccount?
    {
        if let account = try await store.partnerAccount(serviceId: serviceId, session: bearer) { return account }
        return try await store.partnerAccount(serviceId: serviceId, accessToken: bearer)
    }

    func register(on router: SandboxRouter) {
        router.post("/partner/:service_id/api/user_token") { request, context in
            let serviceId = context.pathParameter("service_id")
            guard let service = try await env.store.service(id: serviceId), let serviceKey = service.serviceKey else {
                throw APIError.notFound("There is no partner backend for \"\(serviceId)\".")
            }
            let parts = (request.header(.authorization) ?? "").split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer",
                let account = try await Self.account(env.store, serviceId: serviceId, bearer: String(parts[1]))
            else {
                throw APIError.unauthorized("Sign in to \(service.name) first (Authorization: Bearer <session>).")
            }
            guard let base = URL(string: env.urls.selfCallBaseURL + "/v2") else { throw APIError.internalError() }
            do throws(ConnectServiceClient.Error) {
                let client = try ConnectServiceClient(serviceKey: serviceKey, baseURL: base)
                let token = try await client.exchangeUserToken(
                    userId: account.partnerUserId, accessToken: account.accessToken)
                env.logger.info("Partner backend \(serviceId): issued an IFTTT user token for \(account.partnerUserId)")
                return JSONResponse.make(["user_token": .string(token)])
            } catch {
                if case .network(let network) = error, network.statusCode == 404 {
                    env.logger.info("Partner backend \(serviceId): \(account.partnerUserId) has not connected IFTTT")
                    return JSONResponse.make(["user_token": .null])
                }
                env.logger.warning("Partner backend \(serviceId): the token exchange failed: \(error)")
                throw APIError(status: 502, code: .internalError, message: "IFTTT did not issue a user token.")
            }
        }
    }
}
