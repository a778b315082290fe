import Foundation
import Hummingbird

/// The Connect URL (IFTTT's docs, "Connect URL"): `GET /connect/{connection_id}?email=&redirect_uri=&code=&skip_config=`
/// kicks off the activation of a Connection on any platform, the sandbox's stand-in for
/// `https://ifttt.com/connect/{connection_id}`.
///
/// * `email` is required; `redirect_uri` must be registered for the Connection's service
///   (``SeedData/Service/redirectURIs``) or omitted, and is required with `skip_config=true`.
/// * `code` is a provisional access code (`POST /v2/provisional_access_code`): it is used up here and its OAuth code
///   pre-authenticates the user to the service. An unknown, used or expired code is ignored: the user goes through
///   the service's own sign-in, as the docs say.
/// * The page shows the Connection on its service's brand colour and links to the activation flow
///   (`/access/api/{connection_id}`) with these parameters; without `redirect_uri` the flow ends on
///   `/connect/{connection_id}/complete`, the sandbox's own page (IFTTT ends on its own site).
///
/// The pages are the templates `connect-landing` and `connect-complete` (``PageTemplates``).
struct ConnectURLRoutes: SandboxRoutes {
    let env: RouteEnvironment

    func register(on router: SandboxRouter) {
        router.get("/connect/:connection_id") { request, context in
            let id = context.pathParameter("connection_id")
            let query = Dictionary(
                WebActivationParameters.parseQuery(request.uri.query ?? ""), uniquingKeysWith: { first, _ in first })
            guard let (connection, service) = try await env.landingTarget(id) else {
                return WebActivationPages.error(.notFound, "There is no Connection \"\(id)\".")
            }
            if !connection.published, query["invite_code"] != connection.inviteCode {
                return WebActivationPages.error(.forbidden, "This Connection is not published.")
            }
            guard let email = query["email"]?.trimmingCharacters(in: .whitespaces), !email.isEmpty else {
                return WebActivationPages.error(.badRequest, "The email parameter is required.")
            }
            if StrictMode.isOn, let skip = query["skip_config"], !["true", "false"].contains(skip) {
                return WebActivationPages.error(.badRequest, "skip_config must be true or false (strict mode).")
            }
            let skipConfig = query["skip_config"] == "true"
            let redirect = query["redirect_uri"].flatMap { $0.isEmpty ? nil : $0 }
            if skipConfig, redirect == nil {
                return WebActivationPages.error(.badRequest, "redirect_uri is required with skip_config=true.")
            }
            if let redirect, !RedirectRegistration.accepts(redirect, registrations: service.redirectURIs) {
                return WebActivationPages.error(
                    .badRequest, "redirect_uri is not a redirect URL registered for \(service.name).")
            }
            var oauthCode: String?
            if let code = query["code"], !code.isEmpty {
                oauthCode = try await env.store.redeemProvisionalCode(
                    code, serviceId: service.id)
                if oauthCode == nil { env.logger.info("Connect URL of \(id): the provisional code is not valid") }
            }
            var flow: [(String, String)] = [
                ("sdk_return_to", redirect ?? env.urls.connectComplete(connectionId: id)), ("email", email),
            ]
            if skipConfig { flow.append(("skip_config", "true")) }
            if let oauthCode { flow.append(("code", oauthCode)) }
            if let invite = query["invite_code"], !invite.isEmpty { flow.append(("invite_code", invite)) }
            return ActivationLanding.response(connection: connection, service: service, flow: flow)
        }

        router.get("/connect/:connection_id/complete") { _, context in
            let id = context.pathParameter("connection_id")
            guard let (connection, _) = try await env.landingTarget(id) else {
                return WebActivationPages.error(.notFound, "There is no Connection \"\(id)\".")
            }
            return WebActivationPages.response(PageTemplates.render("connect-complete", ["title": connection.name]))
        }
    }
}

extension RouteEnvironment {
    /// A Connection with its primary service, for a landing page; `nil` for an unknown id.
    func landingTarget(_ id: String) async throws -> (SeedData.Connection, SeedData.Service)? {
        guard let snapshot = try await store.snapshot(connectionId: id, userId: nil),
            let service = snapshot.services.first(where: { $0.id == snapshot.connection.primaryServiceId })
        else { return nil }
        return (snapshot.connection, service)
    }

    /// Whether the web activation may redirect to `url` at its end: a redirect URL registered for the Connection's
    /// service, or the sandbox's own end page of the Connect URL.
    func acceptsReturnURL(_ url: String, connection: SeedData.Connection) async throws -> Bool {
        if url == urls.connectComplete(connectionId: connection.id) { return true }
        return try await store.acceptsRedirect(url, serviceId: connection.primaryServiceId)
    }
}

extension SandboxURLs {
    /// `/connect/{connection_id}/complete`: where a Connect URL without `redirect_uri` ends.
    func connectComplete(connectionId: String) -> String {
        "\(baseURL)/connect/\(Self.segment(connectionId))/complete"
    }
}

/// The landing page of the Connect URL and of the legacy embed URL: the Connection on its service's brand colour,
/// with a link into the web activation flow.
enum ActivationLanding {
    /// The context of the `connect-landing` template.
    struct Landing {
        let title: String
        let description: String
        let serviceName: String
        let brandColor: String
        let link: String
    }

    static func response(connection: SeedData.Connection, service: SeedData.Service, flow: [(String, String)])
        -> Response
    {
        let query = flow.map { WebActivationParameters.encode($0.0) + "=" + WebActivationParameters.encode($0.1) }
            .joined(separator: "&")
        let link = "/access/api/\(WebActivationParameters.encode(connection.id))?\(query)"
        let page = Landing(
            title: connection.name, description: connection.description, serviceName: service.name,
            brandColor: SeedData.isHexColor(service.brandColor) ? service.brandColor : "#222222", link: link)
        return WebActivationPages.response(PageTemplates.render("connect-landing", page))
    }
}
