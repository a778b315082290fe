import Foundation
import Hummingbird

/// The legacy Applet's `embedded_url`, `GET /embed/{service_id}/applets/{applet_id}` (the sandbox's stand-in for
/// `https://ifttt.com/embed/{service_id}/applets/{applet_id}`), with the query the 2017 SDK appends
/// (`ifttt_sdk_version`, `ifttt_sdk_platform`, `ifttt_sdk_anonymous_id`, `user_id`, `redirect_uri`, `invite_code`,
/// `email`; spec legacy-ifttt-sdk.md, "Embedded activation URL").
///
/// `user_id` (the user's id on the service) and `redirect_uri` are required, as the SDK asserts; `redirect_uri` must
/// be registered for the service. An unpublished Applet needs its `invite_code`. The page shows the Applet and links
/// to the web activation flow (`/access/api/{applet_id}`), which returns to `redirect_uri`.
struct LegacyEmbedRoutes: SandboxRoutes {
    let env: RouteEnvironment

    func register(on router: SandboxRouter) {
        router.get("/embed/:service_id/applets/:applet_id") { request, context in
            let slug = context.pathParameter("service_id")
            let id = context.pathParameter("applet_id")
            let query = Dictionary(
                WebActivationParameters.parseQuery(request.uri.query ?? ""), uniquingKeysWith: { first, _ in first })
            guard let (connection, service) = try await env.landingTarget(id), service.id == slug else {
                return WebActivationPages.error(.notFound, "Service \"\(slug)\" has no Applet \"\(id)\".")
            }
            if !connection.published, query["invite_code"] != connection.inviteCode {
                return WebActivationPages.error(
                    .forbidden, "This Applet is not published. The link needs its invite_code.")
            }
            guard let userId = query["user_id"], !userId.isEmpty else {
                return WebActivationPages.error(.badRequest, "The user_id parameter is required.")
            }
            guard let redirect = query["redirect_uri"], !redirect.isEmpty else {
                return WebActivationPages.error(.badRequest, "The redirect_uri parameter is required.")
            }
            guard RedirectRegistration.accepts(redirect, registrations: service.redirectURIs) else {
                return WebActivationPages.error(
                    .badRequest, "redirect_uri is not a redirect URL registered for \(service.name).")
            }
            var flow: [(String, String)] = [("sdk_return_to", redirect)]
            for (name, carried) in [
                ("ifttt_sdk_version", "sdk_version"), ("ifttt_sdk_platform", "sdk_platform"),
                ("ifttt_sdk_anonymous_id", "sdk_anonymous_id"), ("invite_code", "invite_code"), ("email", "email"),
            ] {
                if let value = query[name], !value.isEmpty { flow.append((carried, value)) }
            }
            return ActivationLanding.response(connection: connection, service: service, flow: flow)
        }
    }
}
