import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// Keeps the user's Connections, their geofences and the recorded crossings in step with IFTTT.
///
/// A facade over the location engine, which runs on one actor of its own (the engine's global actor): the
/// Connections registry, the credentials (in a `SecureStore`), the per-Connection geofence switch, the region
/// monitoring, the event store and the uploader. A run fetches the stored Connections that have location triggers
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
/// Creating a synchronizer does no I/O; the first call (or `start()`) reads the stored state. Each command is one
/// step on the engine's actor; commands the static API gives from one thread run in the order given.
public actor Synchronizer {
    /// The configuration.
    @_spi(Sandbox) public nonisolated let configuration: Configuration
    /// The synchronization log (off by default; lines are redacted).
    @_spi(Sandbox) public nonisolated let logger: SynchronizationLogger
    /// The per-Connection geofence switch.
    @_spi(Sandbox) public nonisolated var geofenceToggles: GeofenceToggleStore { engine.geofenceToggles }
    /// The engine: every piece of state lives there, on its actor.
    nonisolated let engine: LocationEngine

    /// Creates a synchronizer. No I/O happens until the first call.
    public init(configuration: Configuration) {
        let logger = SynchronizationLogger()
        self.configuration = configuration
        self.logger = logger
        self.engine = LocationEngine(configuration: configuration, logger: logger)
    }

    // MARK: - Commands

    /// Waits until every command given before this call has run, the session has started and no synchronization
    /// is running.
    @_spi(Sandbox) public nonisolated func waitUntilIdle() async {
        await engine.waitUntilIdle()
    }

    /// Registers the SDK background task (once) or cancels it, then configures the options and starts.
    /// Everything but the registration, which the platform requires before launch ends, happens later.
    @_spi(Sandbox) public nonisolated func initialize(options: InitializerOptions) {
        if options.enableSDKBackgroundProcess {
            enableSDKBackgroundProcess()
        } else {
            configuration.taskScheduler?.cancel(identifier: Configuration.backgroundTaskIdentifier)
        }
        engine.enqueue { engine in
            engine.configure(options: options)
            engine.startIfNeeded()
        }
    }

    /// Sets the initializer options.
    @_spi(Sandbox) public nonisolated func configure(options: InitializerOptions) async {
        await engine.configure(options: options)
    }

    /// The initializer options.
    var options: InitializerOptions {
        get async { await engine.options }
    }

    /// Registers the SDK background task (once) and lets the synchronizer schedule it, keeping the other
    /// initializer options (Location.md's `setupSDKBackgroundProcess()`).
    @_spi(Sandbox) public nonisolated func enableSDKBackgroundProcess() {
        let engine = self.engine
        if let scheduler = configuration.taskScheduler, engine.backgroundRegistration.claim() {
            let registered = scheduler.register(identifier: Configuration.backgroundTaskIdentifier) {
                [weak engine] task in
                engine?.handleBackgroundTask(task)
            }
            if !registered {
                logger.log("the background task could not be registered; is it in BGTaskSchedulerPermittedIdentifiers?")
            }
        }
        engine.enqueue { $0.enableBackgroundProcess() }
    }

    /// Reads the stored state, starts region monitoring (so crossings are recorded from now on, even before
    /// ``activate(connections:lifecycleSynchronizationOptions:)``) and monitors the stored Connections' geofences.
    /// Calling it again does nothing.
    @_spi(Sandbox) public nonisolated func start() async {
        await engine.start()
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
        let values = credentials.map(ConnectionCredentials.init(snapshotOf:))
        await engine.setup(with: values, lifecycleSynchronizationOptions: lifecycleSynchronizationOptions)
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
        await engine.activate(
            connections: connections, lifecycleSynchronizationOptions: lifecycleSynchronizationOptions)
    }

    /// Deactivates synchronization: completes every waiting request, cancels the running synchronization,
    /// stops the SDK's geofences, and deletes the stored Connections, the pending crossings and the credentials,
    /// in one step no crossing can interleave. The geofence switches stay.
    public func deactivate() async {
        await engine.deactivate()
    }

    /// Saves `credentials` when given, then runs a synchronization.
    @_spi(Sandbox) public nonisolated func update(with credentials: (any ConnectionCredentialProvider)?) async {
        let values = credentials.map(ConnectionCredentials.init(snapshotOf:))
        await engine.update(with: values)
    }

    /// Requests a synchronization; `completion` is called exactly once, with the result of the run that
    /// served the request (several requests during a run share the next one), or at once when synchronization
    /// is inactive. It is called on the engine's actor, not on the main thread.
    @_spi(Sandbox) public nonisolated func synchronize(
        source: SynchronizationSource, completion: (@Sendable (SynchronizationResult) -> Void)?
    ) async {
        await engine.synchronize(source: source, completion: completion)
    }

    /// Requests a synchronization and returns its result.
    @_spi(Sandbox) public nonisolated func synchronize(source: SynchronizationSource) async -> SynchronizationResult {
        await engine.synchronize(source: source)
    }

    /// Cancels the running synchronization (its requests complete with ``SynchronizationResult/failed``), and
    /// completes the waiting ones the same way. The in-flight request is cancelled.
    @_spi(Sandbox) public nonisolated func stopCurrentSynchronization() async {
        await engine.stopCurrentSynchronization()
    }

    /// Tells the synchronizer the app became active (the UIKit adapter does this on iOS).
    @_spi(Sandbox) public nonisolated func applicationDidBecomeActive() {
        engine.enqueue { $0.synchronize(source: .appDidBecomeActive, completion: nil) }
    }

    /// Tells the synchronizer the app entered the background (the UIKit adapter does this on iOS): synchronizes
    /// when the lifecycle options say so, and schedules the SDK background task.
    @_spi(Sandbox) public nonisolated func applicationDidEnterBackground() {
        engine.enqueue { $0.applicationDidEnterBackground() }
    }

    /// Monitors the geofences again after a geofence switch changed (no synchronization runs).
    @_spi(Sandbox) public nonisolated func geofenceSwitchesChanged() async {
        await engine.geofenceSwitchesChanged()
    }

    /// The stored Connections, in the order they were added.
    @_spi(Sandbox) public nonisolated var storedConnections: [StoredConnection] {
        get async { await engine.storedConnections }
    }
    /// Whether synchronization is active.
    public var isActive: Bool { engine.activeState.withLock { $0 } }
    /// The SDK's monitored regions.
    @_spi(Sandbox) public nonisolated var monitoredRegions: [MonitoredRegion] {
        get async { await engine.monitoredRegions }
    }

    /// Sets the closure that receives location event reports (what the static
    /// `ConnectButtonController.setLocationEventReportedClosure(_:)` sets on the shared synchronizer). It is called
    /// on the engine's actor.
    public nonisolated func setLocationEventReportedClosure(_ closure: LocationEventsClosure?) {
        engine.hooks.withLock { $0.locationEvents = closure }
    }

    /// Sets the closure called when IFTTT rejects the saved credentials (401).
    nonisolated func setAuthenticationFailureHandler(_ handler: (@Sendable () -> Void)?) {
        engine.hooks.withLock { $0.authenticationFailure = handler }
    }

    /// Sets the closures called when the SDK's background task launches and when it expires.
    nonisolated func setBackgroundProcessHandlers(
        launch: (@Sendable () -> Void)?, expiration: (@Sendable () -> Void)?
    ) {
        engine.hooks.withLock {
            $0.backgroundLaunch = launch
            $0.backgroundExpiration = expiration
        }
    }

    /// Why the event store cannot be opened or written (``LocationError/Code/readOnly``: it is uploaded but takes no
    /// new crossing), or `nil` when it works. While crossings wait in memory (they are not reported as recorded),
    /// every synchronization answers ``SynchronizationResult/failed``.
    @_spi(Sandbox) public nonisolated var storageError: LocationError? {
        get async { await engine.storageError }
    }

    /// The event store, once it is open (for inspection: pending events, dead letters, counters).
    @_spi(Sandbox) public nonisolated var eventStore: LocationEventStore? {
        get async { await engine.eventStore }
    }

    /// Acts on what a Connect Button did (see ``LocationEngine/handle(_:)``).
    package nonisolated func handle(_ outcome: ConnectButtonOutcome) async {
        await engine.handle(outcome)
    }
}
