import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// The legacy v1 Applets API of the 2017 IFTTT SDK, over the same store as `/v2`: an Applet is a Connection whose
/// primary service is the `{slug}` of the path.
///
/// * `GET /v1/services/{slug}/applets?order=&platform=`: `{"type":"list","data":[applet...]}`.
/// * `GET /v1/services/{slug}/applets/{id}`: one applet.
/// * `POST /v1/services/{slug}/applets/{id}/enable` and `.../disable`: the applet as it now is.
/// * `GET /v1/me`: `{"type":"me","user_login":...,"authentication_level":...,"service_id":...}`.
/// * `POST /v1/services/{slug}/user_token` (IFTTT's example server, `IFTTT/ifttt-api-example`): the service key of
///   `{slug}` with `{"user_id": ..., "token": <the OAuth access token IFTTT holds>}` →
///   `{"type":"user_token","user_token":...}`.
///
/// Authentication is as on `/v2`: anonymous, `Authorization: Bearer <user token>`, or `IFTTT-Service-Key` with the
/// partner's `user_id` (query, or JSON body for POST). A service key may only use its own service's Applets. An
/// unpublished Applet is listed and shown only with its invite code in `IFTTT-Invite-Code` (or the service key).
/// enable and disable need a user (token, or service key with a linked `user_id`) who already has the Applet
/// (404 otherwise: a never-enabled Applet is activated on the web).
///
/// `order`: `published_at_asc`, `published_at_desc` (also the order without the parameter),
/// `enabled_count_asc`, `enabled_count_desc`; ties are broken by id, ascending. `platform`: see
/// ``SeedData/AppletPlatform``. Any other value of either is 400 `invalid_parameters`.
struct LegacyAppletRoutes: SandboxRoutes {
    let env: RouteEnvironment

    /// The accepted `order` values.
    static let orders = ["published_at_asc", "published_at_desc", "enabled_count_asc", "enabled_count_desc"]

    func register(on router: SandboxRouter) {
        router.get("/v1/services/:service_id/applets") { request, context in
            let slug = context.pathParameter("service_id")
            let principal = try await authenticate(request, slug: slug, policy: .optional)
            let order = request.query("order").flatMap { $0.isEmpty ? nil : $0 }
            if let order, !Self.orders.contains(order) {
                throw APIError.badRequest(
                    "order must be one of \(Self.orders.joined(separator: ", ")).",
                    details: [.init(parameter: "order", message: "is not a known order")])
            }
            let platform = request.query("platform").flatMap { $0.isEmpty ? nil : $0 }
            if let platform, !["ios", "android"].contains(platform) {
                throw APIError.badRequest(
                    "platform must be ios or android.",
                    details: [.init(parameter: "platform", message: "is not ios or android")])
            }
            let inviteCode = request.header(IFTTTHeader.inviteCode)
            let visible = try await env.store.snapshots(primaryServiceId: slug, userId: principal.user?.id).filter {
                let connection = $0.connection
                let unlocked =
                    connection.published || principal.service != nil
                    || (connection.inviteCode != nil && connection.inviteCode == inviteCode)
                return unlocked && connection.effectivePlatform.isListed(forQuery: platform)
            }
            // `limit` and `cursor` page through the sorted list (ListPage; the cursor is a position in that order).
            let page = try ListPage(request, kind: "applets")
            let sorted = Self.sorted(visible, order: order)
            guard let limit = page.limit else {
                return JSONResponse.make([
                    "type": "list", "data": .array(sorted.map { render($0, slug: slug, viewer: principal.user) }),
                ])
            }
            let start = min(Int(page.after ?? 0), sorted.count)
            let end = min(start + limit, sorted.count)
            let data = sorted[start..<end].map { render($0, slug: slug, viewer: principal.user) }
            return JSONResponse.page(data, next: end < sorted.count ? Int64(end) : nil, kind: "applets", paged: true)
        }

        router.get("/v1/services/:service_id/applets/:applet_id") { request, context in
            let slug = context.pathParameter("service_id")
            let principal = try await authenticate(request, slug: slug, policy: .optional)
            let snapshot = try await applet(
                context.pathParameter("applet_id"), slug: slug, principal: principal,
                request: request)
            return JSONResponse.make(render(snapshot, slug: slug, viewer: principal.user))
        }

        router.post("/v1/services/:service_id/applets/:applet_id/enable") { request, context in
            try await setStatus(.enabled, request: request, context: context)
        }

        router.post("/v1/services/:service_id/applets/:applet_id/disable") { request, context in
            try await setStatus(.disabled, request: request, context: context)
        }

        router.get("/v1/me") { request, _ in try await AccountRoutes(env: env).me(request) }

        router.post("/v1/services/:service_id/user_token") { request, context in
            var request = request
            let slug = context.pathParameter("service_id")
            let principal = try await authenticate(request, slug: slug, policy: .serviceOnly)
            guard let service = principal.service else { throw APIError.unauthorized("A service key is required.") }
            let body = try RequestBody.optionalObject(try await request.bodyData())
            let partnerUserId = try RequestBody.userId(body) ?? request.query("user_id")
            let token = try await ServiceRoutes(env: env).exchange(
                service: service, partnerUserId: partnerUserId,
                accessToken: body?["token"]?.stringValue ?? body?["access_token"]?.stringValue,
                parameter: { $0 == "access_token" ? "/token" : "/\($0)" })
            return JSONResponse.make(["type": "user_token", "user_token": .string(token)])
        }
    }

    // MARK: Handlers

    /// Authenticates, checks that the service exists, and that a service key belongs to it.
    private func authenticate(_ request: Request, slug: String, policy: AuthenticationPolicy) async throws -> Principal
    {
        let principal = try await env.authenticator.authenticate(request, policy: policy)
        guard try await env.store.service(id: slug) != nil else {
            throw APIError.notFound("Service \"\(slug)\" was not found.")
        }
        if let service = principal.service, service.id != slug {
            throw APIError.forbidden("This service key belongs to another service.")
        }
        return principal
    }

    /// The Applet `id` of service `slug` if the principal may see it (404 / 403 otherwise).
    private func applet(_ id: String, slug: String, principal: Principal, request: Request) async throws
        -> ConnectionSnapshot
    {
        let snapshot = try await env.visibleConnection(id, principal: principal, request: request)
        guard snapshot.connection.primaryServiceId == slug else {
            throw APIError.notFound("Applet \"\(id)\" was not found for service \"\(slug)\".")
        }
        return snapshot
    }

    private func setStatus(
        _ status: SeedData.UserConnectionStatus, request: Request, context: SandboxRequestContext
    ) async throws -> Response {
        var request = request
        let slug = context.pathParameter("service_id")
        // The legacy server form: IFTTT-Service-Key with {"user_id": ...} in the JSON body.
        // The 2017 SDK's POSTs have no body; JSON that is not an object is ignored, as IFTTT's server did; bytes that
        // are not JSON at all are refused, as every JSON body of the API is.
        let body = try RequestBody.optionalJSONObject(try await request.bodyData())
        // A user_id the body carries must be a valid one, whoever authenticates (a user token ignores it otherwise).
        _ = try RequestBody.userId(body)
        let principal = try await env.withBodyUser(
            try await authenticate(request, slug: slug, policy: .userOrService), body: body)
        let user = try principal.requireUser()
        let id = context.pathParameter("applet_id")
        _ = try await applet(id, slug: slug, principal: principal, request: request)
        guard let snapshot = try await env.store.setStatus(status, userId: user.id, connectionId: id) else {
            throw APIError.notFound(
                "Applet \"\(id)\" has never been enabled by this user; activate it on the web first.")
        }
        env.logger.info("User \(user.id) set applet \(id) to \(status.rawValue)")
        return JSONResponse.make(render(snapshot, slug: slug, viewer: user))
    }

    // MARK: Ordering and rendering

    /// `snapshots` in the legacy `order` (`nil`: newest first); ties by id.
    static func sorted(_ snapshots: [ConnectionSnapshot], order: String?) -> [ConnectionSnapshot] {
        snapshots.sorted { a, b in
            let (x, y) = (a.connection, b.connection)
            switch order {
            case "published_at_asc" where x.effectivePublishedAt != y.effectivePublishedAt:
                return x.effectivePublishedAt < y.effectivePublishedAt
            case "enabled_count_asc" where a.enabledCount != b.enabledCount:
                return a.enabledCount < b.enabledCount
            case "enabled_count_desc" where a.enabledCount != b.enabledCount:
                return a.enabledCount > b.enabledCount
            case nil, "published_at_desc":
                if x.effectivePublishedAt != y.effectivePublishedAt {
                    return x.effectivePublishedAt > y.effectivePublishedAt
                }
                return x.id < y.id
            default:
                return x.id < y.id
            }
        }
    }

    /// The legacy applet JSON (`"type": "applet"`), with `user_status` `null` for an anonymous viewer.
    func render(_ snapshot: ConnectionSnapshot, slug: String, viewer: SeedData.User?) -> JSONValue {
        let connection = snapshot.connection
        let services = snapshot.services.map { env.renderer.service($0, primaryId: connection.primaryServiceId) }
        return [
            "type": "applet",
            "id": .string(connection.id),
            "name": .string(connection.name),
            "description": .string(connection.description),
            "published_at": .string(connection.effectivePublishedAt.formatted(.iso8601)),
            "enabled_count": .number(Double(snapshot.enabledCount)),
            "user_status": snapshot.userStatus(viewer: viewer),
            "last_run_at": .null,
            "services": .array(services),
            "url": .string(ConnectionRenderer.pageURL(connectionId: connection.id)),
            "embedded_url": .string(env.urls.embed(serviceId: slug, appletId: connection.id)),
        ]
    }
}
