import Foundation
import Hummingbird

/// `PUT /v2/connections/{id}/user_connection` (replace the user's configuration) and
/// `POST /v2/connections/{id}/user_connection/refresh`: service key with `user_id`, for a user who has the
/// Connection enabled (404 otherwise).
struct UserConnectionRoutes: SandboxRoutes {
    let env: RouteEnvironment

    /// The body of `PUT .../user_connection`.
    struct UpdateBody: Decodable {
        var userFeatures: [SeedData.UserFeature]
        enum CodingKeys: String, CodingKey { case userFeatures = "user_features" }
    }

    func register(on router: SandboxRouter) {
        // IFTTT's "Update a Connection": service key with user_id, and only for a user who has the Connection
        // enabled. It replaces the user's configuration (and ends a pending one); it never enables a Connection.
        router.put("/v2/connections/:connection_id/user_connection") { request, context in
            var request = request
            let (principal, user) = try await env.serviceUser(request)
            let id = context.pathParameter("connection_id")
            _ = try await env.enabledConnection(id, principal: principal, user: user, request: request)
            let update = try Self.decode(try await request.bodyData())
            let snapshot = try await env.store.replaceUserConnection(userId: user.id, connectionId: id) {
                connection, existing in
                // Checked again inside the write: the user may have disabled the Connection meanwhile.
                guard existing?.status == .enabled else {
                    throw APIError.notFound("The user does not have connection \"\(id)\" enabled.")
                }
                return try UserConnectionConfigurator.configure(
                    update.userFeatures, connection: connection, existing: existing)
            }
            env.logger.info("User \(user.id) configured connection \(id)")
            return JSONResponse.make(env.renderer.render(snapshot, viewer: user))
        }

        // IFTTT's "Refresh a Connection": service key with user_id; 204.
        router.post("/v2/connections/:connection_id/user_connection/refresh") { request, context in
            let (principal, user) = try await env.serviceUser(request)
            let id = context.pathParameter("connection_id")
            _ = try await env.enabledConnection(id, principal: principal, user: user, request: request)
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
