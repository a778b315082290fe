import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// `GET /v2/connections/{cid}/{triggers|queries|actions|features}/{type_id}/field_options`:
/// `{"type":"field_options","options":{"<field_id>":[{"label","value","group"}]}}`.
///
/// `type_id` is `service_id.step_id` (e.g. `grocery_express.new_weekly_deals`) for steps and the feature id for
/// features. IFTTT documents them as "Service-authenticated with user_id": the service key, acting for a user who
/// has the Connection enabled; without `user_id` (as the docs' own dropdown example sends it) the service key gets
/// the Connection's options for no user.
struct FieldOptionRoutes: SandboxRoutes {
    let env: RouteEnvironment

    func register(on router: SandboxRouter) {
        for kind in SeedData.StepKind.allCases {
            router.get("/v2/connections/:connection_id/\(kind.pathSegment)/:type_id/field_options") {
                request, context in
                try await options(request: request, context: context) { connection, typeId in
                    connection.step(kind: kind, typeId: typeId).map { ($0.step.fields, typeId) }
                }
            }
        }
        router.get("/v2/connections/:connection_id/features/:type_id/field_options") { request, context in
            try await options(request: request, context: context) { connection, typeId in
                connection.feature(id: typeId).map { ($0.fields, typeId) }
            }
        }
    }

    private func options(
        request: Request, context: SandboxRequestContext,
        lookup: (SeedData.Connection, String) -> (fields: [SeedData.Field], key: String)?
    ) async throws -> Response {
        let id = context.pathParameter("connection_id")
        let snapshot: ConnectionSnapshot
        let principal = try await env.authenticator.authenticate(request, policy: .serviceOnly)
        if case .service(_, nil, _) = principal {
            // No user_id, as the docs' own dropdown example sends it: the Connection's options, for no user.
            snapshot = try await env.visibleConnection(id, principal: principal, request: request)
        } else {
            let (principal, user) = try await env.serviceUser(request)
            snapshot = try await env.enabledConnection(id, principal: principal, user: user, request: request).snapshot
        }
        let typeId = context.pathParameter("type_id")
        guard let (fields, key) = lookup(snapshot.connection, typeId) else {
            throw APIError.notFound("Connection \"\(id)\" has no step or feature \"\(typeId)\".")
        }
        let options = snapshot.connection.fieldOptions[key] ?? [:]
        let members = fields.compactMap { field -> (String, JSONValue)? in
            guard let list = options[field.id] else { return nil }
            return (
                field.id,
                .array(
                    list.map {
                        ["label": .string($0.label), "value": .string($0.value), "group": .optional($0.group)]
                    })
            )
        }
        return JSONResponse.make(["type": "field_options", "options": .object(JSONObject(members))])
    }
}
