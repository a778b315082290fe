import Foundation
import Hummingbird

/// Who is calling: nobody, an IFTTT user (user token), or a service's backend (service key), possibly acting for
/// the IFTTT user linked to the partner user id in `user_id`.
enum Principal: Sendable {
    /// No credentials.
    case anonymous
    /// `Authorization: Bearer <user token>`.
    case user(SeedData.User)
    /// `IFTTT-Service-Key`. `partnerUserId` is the `user_id` query parameter; `user` the IFTTT user linked to it.
    case service(SeedData.Service, partnerUserId: String?, user: SeedData.User?)

    /// The IFTTT user the request acts for, if any.
    var user: SeedData.User? {
        switch self {
        case .anonymous: nil
        case .user(let user): user
        case .service(_, _, let user): user
        }
    }

    /// The service of a service-key request.
    var service: SeedData.Service? {
        if case .service(let service, _, _) = self { return service }
        return nil
    }

    /// The user the request acts for, or the error IFTTT answers when there is none.
    func requireUser() throws -> SeedData.User {
        switch self {
        case .user(let user):
            return user
        case .service(_, let partnerUserId, let user):
            if let user { return user }
            guard let partnerUserId else {
                throw APIError.badRequest(
                    "The user_id query parameter is required with IFTTT-Service-Key.",
                    details: [.init(parameter: "user_id", message: "is required")])
            }
            throw APIError.notFound("No IFTTT user has connected the account with user_id \"\(partnerUserId)\".")
        case .anonymous:
            throw APIError.unauthorized("Authentication is required: send a user token or IFTTT-Service-Key.")
        }
    }
}

/// Which credentials an endpoint accepts.
enum AuthenticationPolicy: Sendable {
    /// Anonymous, user token or service key (`GET /v2/connections/{id}`, `GET /v2/me`).
    case optional
    /// A user token or a service key (the legacy `/v1` enable and disable, which the 2017 SDK sent with a user
    /// token and IFTTT's example server with the service key).
    case userOrService
    /// A user token only; a service key is answered with 403 (`disable`, `enable`).
    case userOnly
    /// A service key only; a user token is answered with 401 (`POST /v2/user_token`, and every endpoint IFTTT's
    /// docs mark "Service-authenticated with user_id": field options, `PUT .../user_connection`, refresh, run,
    /// perform, test).
    case serviceOnly
}

/// Resolves the credentials of a request against the store.
///
/// Rules: an invalid user token or service key is always 401 `unauthorized`; a service key on a user-only endpoint
/// is 403 `forbidden`; a bearer token on a service-only endpoint is 401. When both headers are present on an
/// endpoint that accepts both, the service key wins.
struct Authenticator: Sendable {
    let store: SandboxStore

    /// The principal of `request` under `policy`. A user token is looked up in the store's cache at `generation` (a
    /// ``SandboxStore/generation`` the request read before; the current one when `nil`).
    func authenticate(_ request: Request, policy: AuthenticationPolicy, generation: UInt64? = nil) async throws
        -> Principal
    {
        let authorization = request.header(.authorization)
        let serviceKey = request.header(IFTTTHeader.serviceKey)

        switch policy {
        case .serviceOnly:
            if authorization != nil {
                throw APIError.unauthorized("User tokens are not accepted here; authenticate with IFTTT-Service-Key.")
            }
            guard let serviceKey else {
                throw APIError.unauthorized("The IFTTT-Service-Key header is required.")
            }
            return try await servicePrincipal(key: serviceKey, request: request)
        case .userOnly:
            if serviceKey != nil {
                throw APIError.forbidden("Service keys are not accepted on this endpoint; send a user token.")
            }
            guard let authorization else {
                throw APIError.unauthorized("A user token is required (Authorization: Bearer <user token>).")
            }
            return .user(try await user(authorization: authorization, generation: generation))
        case .optional, .userOrService:
            if let serviceKey {
                return try await servicePrincipal(key: serviceKey, request: request)
            }
            if let authorization {
                return .user(try await user(authorization: authorization, generation: generation))
            }
            if policy == .userOrService {
                throw APIError.unauthorized("Authentication is required: send a user token or IFTTT-Service-Key.")
            }
            return .anonymous
        }
    }

    private func user(authorization: String, generation: UInt64?) async throws -> SeedData.User {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthorized("The Authorization header must have the form \"Bearer <user token>\".")
        }
        let token = Request.trimmed(String(parts[1]))
        guard let user = try await store.user(forToken: token, generation: generation ?? store.generation) else {
            throw APIError.unauthorized("The user token is invalid or has been revoked.")
        }
        return user
    }

    private func servicePrincipal(key: String, request: Request) async throws -> Principal {
        guard let service = try await store.service(forKey: key) else {
            throw APIError.unauthorized("The service key is invalid.")
        }
        let partnerUserId = request.query("user_id").flatMap { $0.isEmpty ? nil : $0 }
        var user: SeedData.User?
        if let partnerUserId {
            user = try await store.linkedUser(serviceId: service.id, partnerUserId: partnerUserId)
        }
        return .service(service, partnerUserId: partnerUserId, user: user)
    }
}

extension SeedData.Connection {
    /// Throws unless `principal` may see this connection: a service key may only use its own connections, and an
    /// unpublished connection needs its invite code in `IFTTT-Invite-Code` (or its own service's key).
    func checkAccess(by principal: Principal, request: Request) throws {
        if let service = principal.service {
            guard service.id == primaryServiceId else {
                throw APIError.forbidden("This connection belongs to another service.")
            }
            return
        }
        if !published {
            guard let code = request.header(IFTTTHeader.inviteCode), let inviteCode, code == inviteCode else {
                throw APIError.forbidden(
                    "This connection is not published. Send its invite code in the IFTTT-Invite-Code header.")
            }
        }
    }
}
