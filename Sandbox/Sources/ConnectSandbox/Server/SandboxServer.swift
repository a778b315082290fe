import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The local IFTTT Connect API: builds the Hummingbird application and runs it, for the CLI or in-process.
///
/// ```swift
/// try await SandboxServer.withRunning(SandboxConfiguration(databasePath: SandboxConfiguration.inMemoryDatabasePath)) { url in
///     // url is e.g. http://127.0.0.1:51234; call url/v2/connections/gx-weekly-deals ...
/// }
/// ```
public enum SandboxServer {
    /// Validates the configuration, opens the store, seeds it (the demo data into an empty database, then the
    /// configured seed file), and builds the application. It is not started yet.
    ///
    /// - Parameters:
    ///   - configuration: The sandbox settings.
    ///   - onServerRunning: Called once the server listens, with its base URL (e.g. `http://127.0.0.1:51234`).
    /// - Throws: ``SandboxError`` for a bad configuration, database or seed file.
    public static func buildApplication(
        _ configuration: SandboxConfiguration,
        onServerRunning: @escaping @Sendable (URL) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        try configuration.validate()
        let listening = try SandboxHost.resolve(configuration.host)
        let logger = configuration.logger
        let store = try SandboxStore(path: configuration.resolvedDatabasePath, clock: configuration.clock)
        logger.info("Sandbox database: \(store.path)")

        if configuration.seedsDemoData, try await store.isEmpty() {
            try await store.load(try SeedData.demo(), source: SeedData.demoSource)
            logger.info("Loaded the demo seed into the empty database")
        }
        if let seedFile = configuration.seedFile {
            let seed = try SeedData.load(contentsOf: seedFile)
            try await store.load(seed, source: seedFile.path)
            logger.info("Loaded seed file \(seedFile.path)")
        }

        let urls = SandboxURLs()
        let injector = FaultInjector(
            latency: configuration.latency, failRate: configuration.failRate, seed: configuration.randomSeed,
            rejectLocationEvents: configuration.rejectLocationEvents)
        if configuration.rejectLocationEvents > 0 {
            logger.info(
                "Location events refused with probability \(configuration.rejectLocationEvents), seed \(injector.seed)")
        }
        if configuration.latency > 0 || configuration.failRate > 0 {
            logger.info(
                "Fault injection: latency \(configuration.latency) ms, fail rate \(configuration.failRate), seed \(injector.seed)"
            )
        }
        let router = makeRouter(
            environment: RouteEnvironment(store: store, urls: urls, logger: logger),
            injector: injector, redirectState: configuration.redirectState, listening: listening,
            strict: configuration.strict)
        logger.info("Web activation redirects: state \(configuration.redirectState.rawValue)")
        // Absolute URLs name an address a client can type: the LAN address when listening on every interface.
        let host =
            ["0.0.0.0", "::"].contains(listening.bindAddress)
            ? (listening.networkAddresses.first ?? "127.0.0.1") : listening.bindAddress
        func amount(_ duration: Duration) -> TimeAmount {
            let (seconds, attoseconds) = duration.components
            return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        let headerTimeout = amount(configuration.headerReadTimeout)
        let bodyTimeout = amount(configuration.bodyReadTimeout)
        let registry = ConnectionRegistry(limit: configuration.maximumConnections)
        return Application(
            responder: HeadResponder(inner: router.buildResponder()),
            server: .http1(
                configuration: .init(additionalChannelHandlers: [
                    ParserErrorEnvelope(),
                    PeerOwnerLookup(),
                    HeaderReadDeadline(timeout: headerTimeout, bodyTimeout: bodyTimeout, registry: registry),
                ])),
            configuration: .init(
                address: .hostname(listening.bindAddress, port: configuration.port), serverName: "ConnectSandbox"),
            onServerRunning: { channel in
                let url = SandboxURLs.baseURL(host: host, port: channel.localAddress?.port ?? 0)
                urls.setBase(url)
                await onServerRunning(url)
            },
            logger: logger)
    }

    /// The router with all middleware and route groups. Middleware order (outermost first): security headers, error
    /// envelope and request log (405 for a documented path's other methods, ``MethodRules``), `Host` allow-list,
    /// same-origin check of form posts, body limit, fault injection (API paths only). `HEAD` is served by
    /// ``HeadResponder`` around the router.
    static func makeRouter(
        environment: RouteEnvironment, injector: FaultInjector,
        redirectState: RedirectStateMode = .ignore,
        listening: SandboxHost = SandboxHost(bindAddress: "127.0.0.1", isLoopback: true, networkAddresses: []),
        strict: Bool = false
    ) -> SandboxRouter {
        let router = SandboxRouter(context: SandboxRequestContext.self)
        if strict { router.add(middleware: StrictModeMiddleware()) }
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ErrorEnvelopeMiddleware(logger: environment.logger))
        router.add(middleware: HostAllowListMiddleware(logger: environment.logger, listening: listening))
        router.add(middleware: SameOriginMiddleware(logger: environment.logger))
        router.add(middleware: BodyLimitMiddleware())
        router.add(middleware: FaultInjectionMiddleware(injector: injector))
        // IFTTT's activation pages push their authorization requests to the partner's sign-in page.
        let partnerRequests = PartnerAuthorizationRequests()
        let routes: [any SandboxRoutes] = [
            HealthRoutes(),
            AssetRoutes(env: environment),
            AccountRoutes(env: environment),
            ServiceRoutes(env: environment),
            ConnectionRoutes(env: environment),
            UserConnectionRoutes(env: environment),
            FieldOptionRoutes(env: environment),
            StepRoutes(env: environment),
            ConnectURLRoutes(env: environment),
            OpenAPIRoutes(),
            WebActivationRoutes(env: environment, redirectState: redirectState, partnerRequests: partnerRequests),
            SDKEventRoutes(env: environment),
            PlaygroundRoutes(env: environment),
            LocationEventRoutes(env: environment, injector: injector),
            LegacyAppletRoutes(env: environment),
            LegacyEmbedRoutes(env: environment),
            PartnerBackendRoutes(env: environment),
            PartnerSignInRoutes(env: environment, requests: partnerRequests),
        ]
        for group in routes { group.register(on: router) }
        return router
    }

    /// Runs the sandbox until SIGINT or SIGTERM, then shuts down gracefully. For the CLI.
    ///
    /// Once the server listens, `onRunning` is called with the base URL; by default the line
    /// `IFTTT Connect sandbox listening on http://127.0.0.1:PORT` is written to standard output (unbuffered).
    ///
    /// - Throws: ``SandboxError`` when the configuration, database or seed file is bad, or the port cannot be bound.
    public static func run(
        _ configuration: SandboxConfiguration,
        onRunning: (@Sendable (URL) async -> Void)? = nil
    ) async throws {
        let announce: @Sendable (URL) async -> Void =
            onRunning ?? { url in
                FileHandle.standardOutput.write(Data("IFTTT Connect sandbox listening on \(url.absoluteString)\n".utf8))
            }
        let app = try await buildApplication(configuration, onServerRunning: announce)
        let group = ServiceGroup(
            configuration: .init(
                services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: configuration.logger))
        do {
            try await group.run()
        } catch {
            throw SandboxError.serverDidNotStart(String(describing: error))
        }
    }

    /// Starts the sandbox, runs `body` with its base URL (e.g. `http://127.0.0.1:51234`), then shuts the server down
    /// gracefully (never by cancellation) and returns `body`'s result. For tests and demos.
    ///
    /// Requests still running when `body` returns are completed before this returns.
    ///
    /// - Throws: ``SandboxError`` when the sandbox cannot start; otherwise whatever `body` throws.
    public static func withRunning<T>(
        _ configuration: SandboxConfiguration,
        _ body: (URL) async throws -> T
    ) async throws -> T {
        let (urls, continuation) = AsyncStream.makeStream(of: URL.self)
        let app = try await buildApplication(configuration) { url in
            continuation.yield(url)
            continuation.finish()
        }
        let group = ServiceGroup(
            configuration: .init(
                services: [app], gracefulShutdownSignals: [], logger: configuration.logger))
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { tasks in
            tasks.addTask {
                defer { continuation.finish() }  // unblocks the wait below if the server fails to start
                try await group.run()
            }
            var iterator = urls.makeAsyncIterator()
            guard let url = await iterator.next() else {
                do {
                    try await tasks.waitForAll()
                } catch {
                    throw SandboxError.serverDidNotStart(String(describing: error))
                }
                throw SandboxError.serverDidNotStart("the server stopped before it was listening")
            }
            let result: T
            do {
                result = try await body(url)
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        }
    }
}
