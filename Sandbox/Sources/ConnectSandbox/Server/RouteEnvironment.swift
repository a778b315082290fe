import Foundation
import Hummingbird
import Logging

/// The router type of the sandbox.
typealias SandboxRouter = Router<SandboxRequestContext>

/// What route handlers share: the store, authentication, URL building and rendering.
struct RouteEnvironment: Sendable {
    let store: SandboxStore
    let authenticator: Authenticator
    let urls: SandboxURLs
    let renderer: ConnectionRenderer
    let logger: Logger

    init(store: SandboxStore, urls: SandboxURLs, logger: Logger) {
        self.store = store
        self.authenticator = Authenticator(store: store)
        self.urls = urls
        self.renderer = ConnectionRenderer(urls: urls)
        self.logger = logger
    }

    /// Loads a connection the principal may see, or throws 404 / 403.
    func visibleConnection(_ id: String, principal: Principal, request: Request) async throws -> ConnectionSnapshot {
        guard let snapshot = try await store.snapshot(connectionId: id, userId: principal.user?.id) else {
            throw APIError.notFound("Connection \"\(id)\" was not found.")
        }
        try snapshot.connection.checkAccess(by: principal, request: request)
        return snapshot
    }
}

/// A group of routes of one area of the API. New areas (web activation pages, `/v2/sdk/events`,
/// `/v1/location_events`, legacy `/v1` applets) add a type conforming to this and register it in
/// ``SandboxServer``.
protocol SandboxRoutes: Sendable {
    /// Adds the routes to `router`.
    func register(on router: SandboxRouter)
}
