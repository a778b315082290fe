import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        if configuration.ephemeral {
            throw SandboxError.invalidConfiguration(
                parameter: "ephemeral", message: "needs run(_:onRunning:) or withRunning(_:_:), which remove its folder"
            )
        }
        return try await prepare(configuration, onServerRunning: onServerRunning).app
    }

    /// What ``prepare(_:onServerRunning:)`` made: the application, its store, and the ephemeral folder to remove
    /// when it stops.
    static func prepare(
        _ configuration: SandboxConfiguration,
        onServerRunning: @escaping @Sendable (URL) async -> Void
    ) async throws -> (app: some ApplicationProtocol, store: SandboxStore, ephemeral: EphemeralDatabase?) {
        try configuration.validate()
        let listening = try SandboxHost.resolve(configuration.host)
        let logger = configuration.logger
        // Every seed is read and checked before the database is touched: a bad seed file writes nothing.
        var seeds: [(seed: SeedData, source: String)] = []
        if configuration.seedsDemoData {
            let demo = try SeedData.demo()
            seeds.append((seed: demo, source: SeedData.demoSource))
        }
        if let seedFile = configuration.seedFile {
            let loaded = try SeedData.load(contentsOf: seedFile)
            seeds.append((seed: loaded, source: seedFile.path))
        }
        var ephemeral: EphemeralDatabase?
        if configuration.ephemeral { ephemeral = try EphemeralDatabase() }
        let path = ephemeral?.databasePath ?? configuration.resolvedDatabasePath
        let isNew = path == SandboxConfiguration.inMemoryDatabasePath || !FileManager.default.fileExists(atPath: path)
        let store: SandboxStore
        do {
            store = try SandboxStore(path: path, clock: configuration.clock)
            // The demo seed goes into an empty database only; the seed file is upserted at every start. Both in one
            // transaction: when the seed file does not fit the database, nothing is written.
            let initial = try await store.isEmpty() ? seeds : seeds.filter { $0.source != SeedData.demoSource }
            try await store.load(initial)
        } catch {
            ephemeral?.remove()
            if isNew, path != SandboxConfiguration.inMemoryDatabasePath {
                // A database this start created and could not seed is not left behind.
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            throw error
        }
        logger.info("Sandbox database: \(store.path)\(ephemeral == nil ? "" : " (ephemeral)")")
        for item in seeds { logger.info("Seed: \(item.source)") }

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
            strict: configuration.strict, seeds: seeds)
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
        let app = Application(
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
                let port = channel.localAddress?.port ?? 0
                let url = SandboxURLs.baseURL(host: host, port: port)
                urls.setBase(url, selfCall: SandboxURLs.baseURL(host: listening.bindAddress, port: port))
                await onServerRunning(url)
            },
            logger: logger)
        return (app: app, store: store, ephemeral: ephemeral)
    }

    /// The router with all middleware and route groups. Middleware order (outermost first): security headers, error
    /// envelope and request log (405 for a documented path's other methods, ``MethodRules``), `Host` allow-list,
    /// same-origin check of form posts, body limit, fault injection (API paths only). `HEAD` is served by
    /// ``HeadResponder`` around the router.
    static func makeRouter(
        environment: RouteEnvironment, injector: FaultInjector,
        redirectState: RedirectStateMode = .ignore,
        listening: SandboxHost = SandboxHost(bindAddress: "127.0.0.1", isLoopback: true, networkAddresses: []),
        strict: Bool = false,
        seeds: [(seed: SeedData, source: String)] = []
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
            ResetRoutes(env: environment, seeds: seeds),
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
        let (app, store, ephemeral) = try await prepare(configuration, onServerRunning: announce)
        defer { ephemeral?.remove() }
        let group = ServiceGroup(
            configuration: .init(
                services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: configuration.logger))
        do {
            try await group.run()
        } catch {
            throw SandboxError.serverDidNotStart(describeStartFailure(error, configuration))
        }
        stop(store, configuration)
    }

    /// After the server stopped: the write-ahead log goes into the database file, so that the file alone is the
    /// whole database (its `-wal` and `-shm` companions are then empty or gone).
    static func stop(_ store: SandboxStore, _ configuration: SandboxConfiguration) {
        do {
            try store.checkpoint()
        } catch {
            configuration.logger.warning(
                "Sandbox database \(store.path): the write-ahead log could not be checkpointed: \(error)")
        }
    }

    /// A sentence for a server that failed to start, naming the address and port instead of the socket call.
    static func describeStartFailure(_ error: any Error, _ configuration: SandboxConfiguration) -> String {
        if let error = error as? IOError {
            let address = "\(configuration.host) port \(configuration.port)"
            switch error.errnoCode {
            case EADDRINUSE: return "\(address) is already in use (pick another --port, or 0 for a free one)"
            case EACCES: return "\(address) needs privileges this user lacks (use a port above 1023)"
            case EADDRNOTAVAIL: return "\(configuration.host) is not an address of this machine"
            default: return "cannot listen on \(address): \(String(cString: strerror(error.errnoCode)))"
            }
        }
        return String(describing: error)
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
        let (app, store, ephemeral) = try await prepare(configuration) { url in
            continuation.yield(url)
            continuation.finish()
        }
        defer { ephemeral?.remove() }
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
                    throw SandboxError.serverDidNotStart(describeStartFailure(error, configuration))
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
            stop(store, configuration)
            return result
        }
    }
}
