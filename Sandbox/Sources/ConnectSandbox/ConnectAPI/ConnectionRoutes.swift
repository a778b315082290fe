import Foundation
import Hummingbird

/// `GET /v2/connections/{id}`, `POST /v2/connections/{id}/disable`, `POST /v2/connections/{id}/enable`.
struct ConnectionRoutes: SandboxRoutes {
    let env: RouteEnvironment

    func register(on router: SandboxRouter) {
        // Anonymous, user token, or service key (+ user_id). Unpublished connections need the invite code.
        router.get("/v2/connections/:connection_id") { request, context in
            // One read of the store's change count serves both cached reads (the token, the rendered JSON).
            let generation = env.store.generation
            let principal = try await env.authenticator.authenticate(
                request, policy: .optional, generation: generation)
            let body = try await env.renderedConnection(
                context.pathParameter("connection_id"), principal: principal, request: request,
                generation: generation)
            return JSONResponse.make(serialized: body)
        }

        router.post("/v2/connections/:connection_id/disable") { request, context in
            try await setStatus(.disabled, request: request, context: context)
        }

        router.post("/v2/connections/:connection_id/enable") { request, context in
            try await setStatus(.enabled, request: request, context: context)
        }
    }

    /// User token only (a service key is 403); the user must already have a user connection (else 404).
    private func setStatus(
        _ status: SeedData.UserConnectionStatus, request: Request, context: SandboxRequestContext
    ) async throws -> Response {
        let principal = try await env.authenticator.authenticate(request, policy: .userOnly)
        let user = try principal.requireUser()
        let id = context.pathParameter("connection_id")
        _ = try await env.visibleConnection(id, principal: principal, request: request)
        guard let snapshot = try await env.store.setStatus(status, userId: user.id, connectionId: id) else {
            throw APIError.notFound("You have not enabled connection \"\(id)\".")
        }
        env.logger.info("User \(user.id) set connection \(id) to \(status.rawValue)")
        return JSONResponse.make(env.renderer.render(snapshot, viewer: user))
    }
}
