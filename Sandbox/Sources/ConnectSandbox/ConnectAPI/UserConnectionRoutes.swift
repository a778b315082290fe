import Foundation
import Hummingbird

/// `PUT /v2/connections/{id}/user_connection` (replace the user's configuration) and
/// `POST /v2/connections/{id}/user_connection/refresh`.
struct UserConnectionRoutes: SandboxRoutes {
    let env: RouteEnvironment

    /// The body of `PUT .../user_connection`.
    struct UpdateBody: Decodable {
        var userFeatures: [SeedData.UserFeature]
        enum CodingKeys: String, CodingKey { case userFeatures = "user_features" }
    }

    func register(on router: SandboxRouter) {
        router.put("/v2/connections/:connection_id/user_connection") { request, context in
            var request = request
            let principal = try await env.authenticator.authenticate(request, policy: .userOrService)
            let user = try principal.requireUser()
            let id = context.pathParameter("connection_id")
            _ = try await env.visibleConnection(id, principal: principal, request: request)
            let update = try Self.decode(try await request.bodyData())
            let snapshot = try await env.store.replaceUserConnection(userId: user.id, connectionId: id) {
                connection, existing in
                try UserConnectionConfigurator.configure(
                    update.userFeatures, connection: connection, existing: existing)
            }
            env.logger.info("User \(user.id) configured connection \(id)")
            return JSONResponse.make(env.renderer.render(snapshot, viewer: user))
        }

        router.post("/v2/connections/:connection_id/user_connection/refresh") { request, context in
            let principal = try await env.authenticator.authenticate(request, policy: .userOrService)
            let user = try principal.requireUser()
            let id = context.pathParameter("connection_id")
            _ = try await env.visibleConnection(id, principal: principal, request: request)
            guard try await env.store.hasUserConnection(userId: user.id, connectionId: id) else {
                throw APIError.notFound("The user has not enabled connection \"\(id)\".")
            }
            return JSONResponse.empty()
        }
    }

    /// Decodes the body; anything that is not JSON of the right shape is 400 `invalid_parameters`.
    static func decode(_ data: Data) throws -> UpdateBody {
        guard !data.isEmpty else {
            throw APIError.badRequest("The request body must be a JSON object with user_features.")
        }
        do {
            return try JSONDecoder().decode(UpdateBody.self, from: data)
        } catch let error as DecodingError {
            throw APIError.badRequest("The request body is invalid: \(SeedData.describe(error)).")
        }
    }
}
