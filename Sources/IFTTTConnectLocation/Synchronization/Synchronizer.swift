import Foundation
import IFTTTConnectCore

/// Keeps the user's Connections, their geofences and the recorded crossings in step with IFTTT.
///
/// The shell around ``SyncEngine``: it owns the Connections registry, the credentials (in a ``SecureStore``),
/// the per-Connection geofence switch, a ``LocationMonitoringSession`` and a ``LocationUploader``, and it runs
/// what the engine decides. A run fetches the stored Connections that have location triggers
/// (`GET /v2/connections/{id}` through `ConnectionNetworkController`), hands their geofences to the session,
/// and uploads pending crossings.
///
/// The static API on `ConnectButtonController` (`ConnectButtonController.initialize(options:)`
/// and the rest) is a thin facade over `ConnectButtonController.synchronizer`. Use an instance
/// directly in tests, command-line tools and apps that prefer `async`:
///
/// ```swift
/// let synchronizer = Synchronizer(configuration: .init(regionMonitor: SimulatedRegionMonitor(),
///                                                      storageDirectory: directory, transport: transport))
/// await synchronizer.setup(with: credentials)
/// await synchronizer.activate(connections: ["gx-arrive-store"])
/// let result = await synchronizer.synchronize(source: .forceUpdate)
/// ```
///
/// Creating a synchronizer does no I/O; the first call (or ``start()``) reads the stored state.
/// Commands given with ``submit(_:)`` (as the static API does) run one at a time, in order.
public actor Synchronizer {

    /// Closures the host app sets; read and written from any thread.
    struct Hooks: Sendable {
        var locationEvents: (@Sendable ([LocationEvent]) -> Void)?
        var authenticationFailure: (@Sendable () -> Void)?
        var backgroundLaunch: (@Sendable () -> Void)?
        var backgroundExpiration: (@Sendable () -> Void)?
    }

    /// The configuration.
    public nonisolated let configuration: Configuration
    /// The synchronization log (off by default; lines are redacted).
    public nonisolated let logger = SynchronizationLogger()
    /// The per-Connection geofence switch.
    public nonisolated let geofenceToggles: GeofenceToggleStore
    nonisolated let hooks = Locked(Hooks())
    nonisolated let backgroundRegistration = OnceFlag()
    nonisolated let commands: AsyncStream<@Sendable (isolated Synchronizer) async -> Void>.Continuation

    var engine = SyncEngine()
    var registry: ConnectionsRegistry
    var vault: CredentialVault
    var options = InitializerOptions.standard
    var startTask: Task<Void, Never>?
    var store: LocationEventStore?
    var session: LocationMonitoringSession?
    var uploader: LocationUploader?
    var network: ConnectionNetworkController?
    var completions: [SyncEngine.Ticket: @Sendable (SynchronizationResult) -> Void] = [:]
    var nextTicket: SyncEngine.Ticket = 1
    var runs: [Int: Task<Void, Never>] = [:]
    var eventDates: [UUID: Date] = [:]
    /// ``Configuration/network`` as the network controller and the uploader use it, once resolved.
    var resolvedNetwork: ConnectionNetworkController.Configuration?
    var storeError: LocationError?
    var permissionsRequested = false

    /// Creates a synchronizer. No I/O happens until the first call.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.geofenceToggles = GeofenceToggleStore(directory: configuration.storageDirectory)
        self.registry = ConnectionsRegistry(directory: configuration.storageDirectory)
        self.vault = CredentialVault(
            store: configuration.secureStore ?? Self.platformSecureStore(configuration.storageDirectory),
            directory: configuration.storageDirectory)
        let (stream, continuation) = AsyncStream.makeStream(of: (@Sendable (isolated Synchronizer) async -> Void).self)
        self.commands = continuation
        Task { [weak self] in
            for await command in stream {
                guard let self else { return }
                await command(self)
            }
        }
    }

    deinit {
        commands.finish()
    }

    private static func platformSecureStore(_ directory: URL) -> any SecureStore {
        #if canImport(Security)
        return KeychainSecureStore()
        #else
        return FileSecureStore(directory: directory)
        #endif
    }

    /// ``Configuration/network`` with the anonymous id read (when it was left empty), no callback queue and the
    /// log lines sent to ``logger``: the one value the network controller and the uploader share.
    func networkSettings() -> ConnectionNetworkController.Configuration {
        if let resolvedNetwork { return resolvedNetwork }
        var network = configuration.network
        if network.anonymousId.isEmpty { network.anonymousId = AnonymousIdentifierStore.current }
        network.callbackQueue = nil
        let logger = self.logger
        network.logHandler = { logger.log($0) }
        resolvedNetwork = network
        return network
    }

    // MARK: - Commands

    /// Queues `command`; commands run one at a time, in the order they were submitted. Returns at once.
    public nonisolated func submit(_ command: @escaping @Sendable (isolated Synchronizer) async -> Void) {
        commands.yield(command)
    }

    /// Waits until every command submitted before this call has run and no synchronization is running.
    public nonisolated func waitUntilIdle() async {
        while true {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                submit { _ in continuation.resume() }
            }
            guard let run = await anyRun() else { return }
            await run.value
        }
    }

    func anyRun() -> Task<Void, Never>? { runs.values.first }

    /// Registers the SDK background task (once) or cancels it, then queues ``configure(options:)`` and ``start()``.
    /// Everything but the registration, which the platform requires before launch ends, happens later.
    public nonisolated func initialize(options: InitializerOptions) {
        if options.enableSDKBackgroundProcess {
            enableSDKBackgroundProcess()
        } else {
            configuration.taskScheduler?.cancel(identifier: Configuration.backgroundTaskIdentifier)
        }
        submit { synchronizer in
            synchronizer.configure(options: options)
            await synchronizer.start()
        }
    }

    /// Sets the initializer options.
    public func configure(options: InitializerOptions) {
        self.options = options
    }

    /// Registers the SDK background task (once) and lets the synchronizer schedule it, keeping the other
    /// initializer options (Location.md's `setupSDKBackgroundProcess()`).
    public nonisolated func enableSDKBackgroundProcess() {
        if let scheduler = configuration.taskScheduler, backgroundRegistration.claim() {
            let registered = scheduler.register(identifier: Configuration.backgroundTaskIdentifier) {
                [weak self] task in
                self?.handleBackgroundTask(task)
            }
            if !registered {
                logger.log("the background task could not be registered; is it in BGTaskSchedulerPermittedIdentifiers?")
            }
        }
        submit { $0.options.enableSDKBackgroundProcess = true }
    }

    /// Reads the stored state, starts region monitoring (so crossings are recorded from now on, even before
    /// ``activate(connections:lifecycleSynchronizationOptions:)``) and monitors the stored Connections' geofences. Calling it again does nothing.
    public func start() async {
        if let startTask { return await startTask.value }
        let task = Task { await self.performStart() }
        startTask = task
        await task.value
    }

    func performStart() async {
        registry.load()
        if registry.isActive { _ = engine.handle(.activated) }
        let saved = vault.read()
        logger.setSecrets([saved?.userToken, saved?.inviteCode])
        let configuration = self.configuration
        let logger = self.logger
        self.network = ConnectionNetworkController(configuration: networkSettings())
        let store = openStore()
        session = LocationMonitoringSession(
            monitor: configuration.regionMonitor, store: store, configuration: configuration.regions,
            clock: configuration.clock,
            openStore: { [weak self] in await self?.openStore() }, dwellTime: configuration.dwellTime,
            onEvent: { [weak self] event in self?.submit { $0.recorded(event) } },
            onError: { error in logger.log("a crossing could not be recorded: \(error)") },
            ownership: RegionOwnershipFile(directory: configuration.storageDirectory))
        await session?.start()
        await applyGeofences()
        logger.log("started: \(registry.all.count) stored Connections, active: \(registry.isActive)")
    }

    /// Saves credentials for background synchronization and sets the lifecycle events that synchronize.
    ///
    /// - Parameters:
    ///   - credentials: the user token and invite code to save; `nil` keeps the saved ones. A provider whose
    ///     token and invite code are both `nil` deletes them.
    ///   - lifecycleSynchronizationOptions: the lifecycle events that run a synchronization.
    public func setup(
        with credentials: (any ConnectionCredentialProvider)?,
        lifecycleSynchronizationOptions: ApplicationLifecycleSynchronizationOptions = .all
    ) async {
        await start()
        if let credentials { await save(credentials) }
        perform(engine.handle(.lifecycleOptionsChanged(lifecycleSynchronizationOptions)))
    }

    /// Activates synchronization, adds `connections` (ids) to the stored Connections, monitors their geofences
    /// and runs a synchronization. May be called many times.
    ///
    /// - Parameters:
    ///   - connections: Connection ids to add; `nil` adds none.
    ///   - lifecycleSynchronizationOptions: when given, the lifecycle events that run a synchronization from now on.
    public func activate(
        connections: [String]? = nil,
        lifecycleSynchronizationOptions: ApplicationLifecycleSynchronizationOptions? = nil
    ) async {
        await start()
        if let lifecycleSynchronizationOptions {
            perform(engine.handle(.lifecycleOptionsChanged(lifecycleSynchronizationOptions)))
        }
        do {
            try registry.add(ids: connections ?? [])
            if !registry.isActive { try registry.setActive(true) }
        } catch {
            logger.log("activate: \(error)")
        }
        perform(engine.handle(.activated))
        await applyGeofences()
        request(.activation, completion: nil)
    }

    /// Deactivates synchronization: completes every waiting request, cancels the running synchronization,
    /// stops the SDK's geofences, and deletes the stored Connections, the pending crossings and the credentials.
    /// The geofence switches stay.
    public func deactivate() async {
        await start()
        perform(engine.handle(.deactivated))
        do {
            try registry.removeAll()
            try registry.setActive(false)
        } catch {
            logger.log("deactivate: \(error)")
        }
        do { try vault.clear() } catch { logger.log("deactivate: \(error)") }
        logger.setSecrets([])
        await session?.stop()
        do throws(LocationError) { try await store?.removeAll() } catch { logger.log("deactivate: \(error)") }
        await session?.forgetPresence()
        eventDates = [:]
        configuration.taskScheduler?.cancel(identifier: Configuration.backgroundTaskIdentifier)
        logger.log("deactivated")
    }

    /// Saves `credentials` when given, then runs a synchronization.
    public func update(with credentials: (any ConnectionCredentialProvider)?) async {
        await start()
        if let credentials { await save(credentials) }
        request(.forceUpdate, completion: nil)
    }

    /// Requests a synchronization; `completion` is called exactly once, with the result of the run that
    /// served the request (several requests during a run share the next one), or at once when synchronization
    /// is inactive. It is called on the synchronizer's executor, not on the main thread.
    public func synchronize(source: SynchronizationSource, completion: (@Sendable (SynchronizationResult) -> Void)?)
        async
    {
        await start()
        request(source, completion: completion)
    }

    /// Requests a synchronization and returns its result.
    public func synchronize(source: SynchronizationSource) async -> SynchronizationResult {
        await withCheckedContinuation { continuation in
            submit { await $0.synchronize(source: source) { continuation.resume(returning: $0) } }
        }
    }

    /// Cancels the running synchronization (its requests complete with ``SynchronizationResult/failed``), and
    /// completes the waiting ones the same way. The in-flight request is cancelled.
    public func stopCurrentSynchronization() {
        perform(engine.handle(.stopRequested))
    }

    /// Tells the synchronizer the app became active (the UIKit adapter does this on iOS).
    public nonisolated func applicationDidBecomeActive() {
        submit { await $0.synchronize(source: .appDidBecomeActive, completion: nil) }
    }

    /// Tells the synchronizer the app entered the background (the UIKit adapter does this on iOS): synchronizes
    /// when the lifecycle options say so, and schedules the SDK background task.
    public nonisolated func applicationDidEnterBackground() {
        submit { synchronizer in
            await synchronizer.synchronize(source: .appDidEnterBackground, completion: nil)
            synchronizer.scheduleBackgroundTask()
        }
    }

    /// Monitors the geofences again after a geofence switch changed (no synchronization runs).
    public func geofenceSwitchesChanged() async {
        await start()
        await applyGeofences()
    }

    /// The stored Connections, in the order they were added.
    public var storedConnections: [StoredConnection] { registry.all }
    /// Whether synchronization is active.
    public var isActive: Bool { engine.isActive }
    /// The SDK's monitored regions.
    public var monitoredRegions: [MonitoredRegion] { get async { await session?.monitoredRegions ?? [] } }

    /// Sets the closure that receives location event reports (what the static
    /// `ConnectButtonController.setLocationEventReportedClosure(_:)` sets on the shared synchronizer). It is called
    /// on the synchronizer's executor.
    public nonisolated func setLocationEventReportedClosure(_ closure: LocationEventsClosure?) {
        hooks.withLock { $0.locationEvents = closure }
    }

    /// Why the event store cannot be opened, or `nil` when it is open. While it is not `nil`, crossings wait in
    /// memory (they are not reported as recorded) and every synchronization answers ``SynchronizationResult/failed``.
    public var storageError: LocationError? { storeError }

    /// The event store, once it is open (for inspection: pending events, dead letters, counters).
    public var eventStore: LocationEventStore? { store }

}
