import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// Keeps the user's Connections, their geofences and the recorded crossings in step with IFTTT.
///
/// The shell around `SyncEngine`: it owns the Connections registry, the credentials (in a `SecureStore`),
/// the per-Connection geofence switch, a `LocationMonitoringSession` and a `LocationUploader`, and it runs
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
/// Creating a synchronizer does no I/O; the first call (or `start()`) reads the stored state.
/// Commands given with `submit(_:)` (as the static API does) run one at a time, in order.
public actor Synchronizer {

    /// Closures the host app sets; read and written from any thread.
    struct Hooks: Sendable {
        var locationEvents: (@Sendable ([LocationEvent]) -> Void)?
        var authenticationFailure: (@Sendable () -> Void)?
        var backgroundLaunch: (@Sendable () -> Void)?
        var backgroundExpiration: (@Sendable () -> Void)?
    }

    /// The configuration.
    @_spi(Sandbox) public nonisolated let configuration: Configuration
    /// The synchronization log (off by default; lines are redacted).
    @_spi(Sandbox) public nonisolated let logger = SynchronizationLogger()
    /// The per-Connection geofence switch.
    @_spi(Sandbox) public nonisolated let geofenceToggles: GeofenceToggleStore
    /// Written only through the setters below (the static API's and tests'), read by this file.
    private nonisolated let hooks = Locked(Hooks())
    private nonisolated let backgroundRegistration = OnceFlag()
    private nonisolated let commands: AsyncStream<@Sendable (isolated Synchronizer) async -> Void>.Continuation

    // The synchronizer's mutable state: private to this file, changed only by the actor's own methods below.
    private var engine = SyncEngine()
    private var registry: ConnectionsRegistry
    private var vault: CredentialVault
    private(set) var options = InitializerOptions.standard
    private var startTask: Task<Void, Never>?
    private var store: LocationEventStore?
    private var session: LocationMonitoringSession?
    private var uploader: LocationUploader?
    private var network: ConnectionNetworkController?
    private var completions: [SyncEngine.Ticket: @Sendable (SynchronizationResult) -> Void] = [:]
    private var nextTicket: SyncEngine.Ticket = 1
    private var runs: [Int: Task<Void, Never>] = [:]
    private var eventDates: [UUID: Date] = [:]
    /// ``Configuration/network`` as the network controller and the uploader use it, once resolved.
    private var resolvedNetwork: ConnectionNetworkController.Configuration?
    private var storeError: LocationError?
    private var permissionsRequested = false

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
    private func networkSettings() -> ConnectionNetworkController.Configuration {
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
    @_spi(Sandbox) public nonisolated func submit(_ command: @escaping @Sendable (isolated Synchronizer) async -> Void)
    {
        commands.yield(command)
    }

    /// Waits until every command submitted before this call has run and no synchronization is running.
    @_spi(Sandbox) public nonisolated func waitUntilIdle() async {
        while true {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                submit { _ in continuation.resume() }
            }
            guard let run = await anyRun() else { return }
            await run.value
        }
    }

    private func anyRun() -> Task<Void, Never>? { runs.values.first }

    /// Registers the SDK background task (once) or cancels it, then queues ``configure(options:)`` and ``start()``.
    /// Everything but the registration, which the platform requires before launch ends, happens later.
    @_spi(Sandbox) public nonisolated func initialize(options: InitializerOptions) {
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
    @_spi(Sandbox) public func configure(options: InitializerOptions) {
        self.options = options
    }

    /// Registers the SDK background task (once) and lets the synchronizer schedule it, keeping the other
    /// initializer options (Location.md's `setupSDKBackgroundProcess()`).
    @_spi(Sandbox) public nonisolated func enableSDKBackgroundProcess() {
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
    @_spi(Sandbox) public func start() async {
        if let startTask { return await startTask.value }
        let task = Task { await self.performStart() }
        startTask = task
        await task.value
    }

    private func performStart() async {
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
        if let session {
            // One step: no release of a crossing between stopping the regions and emptying the store.
            if let error = await session.deactivate(clearing: store) { logger.log("deactivate: \(error)") }
        } else {
            do throws(LocationError) { try await store?.removeAll() } catch { logger.log("deactivate: \(error)") }
        }
        eventDates = [:]
        configuration.taskScheduler?.cancel(identifier: Configuration.backgroundTaskIdentifier)
        logger.log("deactivated")
    }

    /// Saves `credentials` when given, then runs a synchronization.
    @_spi(Sandbox) public func update(with credentials: (any ConnectionCredentialProvider)?) async {
        await start()
        if let credentials { await save(credentials) }
        request(.forceUpdate, completion: nil)
    }

    /// Requests a synchronization; `completion` is called exactly once, with the result of the run that
    /// served the request (several requests during a run share the next one), or at once when synchronization
    /// is inactive. It is called on the synchronizer's executor, not on the main thread.
    @_spi(Sandbox) public func synchronize(
        source: SynchronizationSource, completion: (@Sendable (SynchronizationResult) -> Void)?
    )
        async
    {
        await start()
        request(source, completion: completion)
    }

    /// Requests a synchronization and returns its result.
    @_spi(Sandbox) public func synchronize(source: SynchronizationSource) async -> SynchronizationResult {
        await withCheckedContinuation { continuation in
            submit { await $0.synchronize(source: source) { continuation.resume(returning: $0) } }
        }
    }

    /// Cancels the running synchronization (its requests complete with ``SynchronizationResult/failed``), and
    /// completes the waiting ones the same way. The in-flight request is cancelled.
    @_spi(Sandbox) public func stopCurrentSynchronization() {
        perform(engine.handle(.stopRequested))
    }

    /// Tells the synchronizer the app became active (the UIKit adapter does this on iOS).
    @_spi(Sandbox) public nonisolated func applicationDidBecomeActive() {
        submit { await $0.synchronize(source: .appDidBecomeActive, completion: nil) }
    }

    /// Tells the synchronizer the app entered the background (the UIKit adapter does this on iOS): synchronizes
    /// when the lifecycle options say so, and schedules the SDK background task.
    @_spi(Sandbox) public nonisolated func applicationDidEnterBackground() {
        submit { synchronizer in
            await synchronizer.synchronize(source: .appDidEnterBackground, completion: nil)
            synchronizer.scheduleBackgroundTask()
        }
    }

    /// Monitors the geofences again after a geofence switch changed (no synchronization runs).
    @_spi(Sandbox) public func geofenceSwitchesChanged() async {
        await start()
        await applyGeofences()
    }

    /// The stored Connections, in the order they were added.
    @_spi(Sandbox) public var storedConnections: [StoredConnection] { registry.all }
    /// Whether synchronization is active.
    public var isActive: Bool { engine.isActive }
    /// The SDK's monitored regions.
    @_spi(Sandbox) public var monitoredRegions: [MonitoredRegion] {
        get async { await session?.monitoredRegions ?? [] }
    }

    /// Sets the closure that receives location event reports (what the static
    /// `ConnectButtonController.setLocationEventReportedClosure(_:)` sets on the shared synchronizer). It is called
    /// on the synchronizer's executor.
    public nonisolated func setLocationEventReportedClosure(_ closure: LocationEventsClosure?) {
        hooks.withLock { $0.locationEvents = closure }
    }

    /// Sets the closure called when IFTTT rejects the saved credentials (401).
    nonisolated func setAuthenticationFailureHandler(_ handler: (@Sendable () -> Void)?) {
        hooks.withLock { $0.authenticationFailure = handler }
    }

    /// Sets the closures called when the SDK's background task launches and when it expires.
    nonisolated func setBackgroundProcessHandlers(
        launch: (@Sendable () -> Void)?, expiration: (@Sendable () -> Void)?
    ) {
        hooks.withLock {
            $0.backgroundLaunch = launch
            $0.backgroundExpiration = expiration
        }
    }

    /// Why the event store cannot be opened or written (``LocationError/Code/readOnly``: it is uploaded but takes no
    /// new crossing), or `nil` when it works. While crossings wait in memory (they are not reported as recorded),
    /// every synchronization answers ``SynchronizationResult/failed``.
    @_spi(Sandbox) public var storageError: LocationError? { storeError }

    /// The event store, once it is open (for inspection: pending events, dead letters, counters).
    @_spi(Sandbox) public var eventStore: LocationEventStore? { store }

}

// A synchronization run: the engine's effects and the run itself (refresh the Connections, upload).
extension Synchronizer {
    // MARK: - Engine effects

    private func request(_ source: SynchronizationSource, completion: (@Sendable (SynchronizationResult) -> Void)?) {
        let ticket = nextTicket
        nextTicket += 1
        if let completion { completions[ticket] = completion }
        logger.log("synchronization requested: \(source.rawValue)")
        perform(engine.handle(.requested(ticket, source)))
    }

    private func perform(_ effects: [SyncEngine.Effect]) {
        for effect in effects {
            switch effect {
            case .startRun(let plan):
                logger.log(
                    "synchronization \(plan.id) started (\(plan.sources.map(\.rawValue).sorted().joined(separator: ", ")))"
                )
                runs[plan.id] = Task {
                    let outcome = await self.execute(plan)
                    self.finish(plan.id, outcome)
                }
            case .cancelRun(let id):
                logger.log("synchronization \(id) cancelled")
                runs.removeValue(forKey: id)?.cancel()
            case .complete(let ticket, let result):
                completions.removeValue(forKey: ticket)?(result)
            case .notifyAuthenticationFailure:
                logger.log("the credentials were rejected (401); synchronization waits for new ones")
                hooks.withLock { $0 }.authenticationFailure?()
            }
        }
    }

    private func finish(_ id: Int, _ outcome: SyncEngine.Outcome) {
        runs[id] = nil
        logger.log("synchronization \(id) finished: \(outcome)")
        perform(engine.handle(.runFinished(id: id, outcome)))
    }

    private func isCurrent(_ plan: SyncEngine.Plan) -> Bool {
        engine.currentRunId == plan.id && !Task.isCancelled
    }

    private func execute(_ plan: SyncEngine.Plan) async -> SyncEngine.Outcome {
        // A store that could not open is retried on every run; while crossings cannot be stored, the run fails
        // (after refreshing the Connections, so geofences are still monitored and crossings wait in memory).
        let stored = await session?.retryStorage() ?? (openStore() != nil)
        let cannotStore = store == nil || !stored
        if cannotStore {
            logger.log(
                "synchronization fails: crossings cannot be stored (\(storeError.map { "\($0)" } ?? "the store refused a crossing"))"
            )
        }
        guard let saved = vault.read(), let token = saved.userToken, !token.isEmpty else {
            logger.log("no user token saved: nothing to synchronize")
            return .finished(cannotStore ? .failed : .noData)
        }
        var changed = false
        var failed = false
        if plan.refreshConnections, let network {
            let credentials = ConnectionCredentials(userToken: token, inviteCode: saved.inviteCode)
            // One write for the whole refresh, also when it ends early.
            defer { if changed { persistRegistry() } }
            for stored in registry.all where stored.needsSynchronization {
                guard isCurrent(plan) else { return .finished(.failed) }
                do throws(ConnectAPIError) {
                    let connection = try await network.fetchConnection(for: stored.id, credentialProvider: credentials)
                    guard isCurrent(plan), registry.connections[stored.id] != nil else { return .finished(.failed) }
                    if store(StoredConnection(connection), persist: false) { changed = true }
                } catch .authenticationFailure {
                    return .authenticationFailure
                } catch .cancelled {
                    return .finished(.failed)
                } catch {
                    logger.log("Connection \(stored.id) could not be refreshed: \(error)")
                    failed = true
                }
            }
            if changed { await applyGeofences() }
        }
        guard isCurrent(plan) else { return .finished(.failed) }
        var uploaded = 0
        if let uploader {
            var report = await uploader.uploadPending()
            if report.next == .busy {
                // Another upload (from a cancelled run or another caller) is in flight: wait for it, then upload.
                logger.log("the uploader is busy; waiting for the upload in flight")
                await uploader.waitUntilIdle()
                guard isCurrent(plan) else { return .finished(.failed) }
                report = await uploader.uploadPending()
                if report.next == .busy { return .finished(.failed) }
            }
            uploaded = report.uploaded + report.rejected
            // The upload made room: crossings a full store refused are recorded now, in order (their reports
            // request the next run, which uploads them).
            if report.uploaded + report.rejected > 0 { await session?.retryStorage() }
            switch report.error?.code {
            case .authenticationFailure?: return .authenticationFailure
            case .missingCredentials?, nil: break
            case .cancelled?: return .finished(.failed)
            default: failed = true
            }
        }
        if failed || cannotStore { return .finished(.failed) }
        return .finished(changed || uploaded > 0 ? .newData : .noData)
    }
}

// Geofences, recorded crossings and their reports, the event store and the credentials.
extension Synchronizer {
    // MARK: - Geofences, events, credentials

    private func applyGeofences() async {
        guard let session else { return }
        let limits = await session.effectiveRadiusLimits
        let fences =
            engine.isActive
            ? registry.all.filter { geofenceToggles.isEnabled($0.id) }.flatMap { $0.geofences(radiusLimits: limits) }
            : []
        await session.update(geofences: fences)
        if options.showPermissionsPrompts, !fences.isEmpty, !permissionsRequested,
            let requester = configuration.permissionRequester
        {
            permissionsRequested = true
            await requester()
        }
    }

    private func recorded(_ event: RegionEvent) {
        eventDates[event.recordId] = configuration.clock.now
        logger.log("recorded \(event.transition.rawValue) of \(event.triggerSubscriptionId)")
        hooks.withLock { $0 }.locationEvents?([.reported(region: event)])
        request(.regionEvent, completion: nil)
    }

    private func uploadProgress(_ progress: LocationUploader.Progress) {
        let now = configuration.clock.now
        func delay(_ event: RegionEvent) -> TimeInterval {
            now.timeIntervalSince(eventDates[event.recordId] ?? event.occurredAt)
        }
        let reports: [LocationEvent]
        switch progress {
        case .attempted(let batch):
            reports = batch.map { .uploadAttempted(region: $0, delay: delay($0)) }
            for event in batch { eventDates[event.recordId] = now }
        case .succeeded(let batch):
            reports = batch.map { .uploadSuccessful(region: $0, delay: delay($0)) }
            for event in batch { eventDates[event.recordId] = nil }
        case .failed(let batch, _):
            reports = batch.map { .uploadFailed(region: $0, error: .networkError, delay: delay($0)) }
            for event in batch { eventDates[event.recordId] = now }
        case .rejected(let letters):
            reports = letters.map { letter in
                var event = letter.event
                event.rejection = letter.rejection
                return .uploadFailed(region: event, error: .networkError, delay: delay(letter.event))
            }
            for letter in letters {
                eventDates[letter.event.recordId] = nil
                logger.log(
                    "the server refused the \(letter.event.transition.rawValue) of \(letter.event.triggerSubscriptionId) (\(letter.rejection.statusCode): \(letter.rejection.reason)); it was moved to the dead-letter area"
                )
            }
        }
        hooks.withLock { $0 }.locationEvents?(reports)
    }

    /// Opens the event store (and the uploader) if it is not open; `nil` when it cannot be opened (then
    /// ``storageError`` says why and the next crossing or run tries again).
    private func openStore() -> LocationEventStore? {
        if let store { return store }
        let logger = self.logger
        do {
            let store = try LocationEventStore(
                directory: configuration.storageDirectory, logHandler: { logger.log($0) })
            self.store = store
            if let reason = store.readOnlyReason {
                // It still uploads what it holds; the session's crossings wait in memory and the log says why.
                logger.log(
                    "the event store opened read-only (\(reason)); its events are uploaded, new crossings cannot be recorded"
                )
                storeError = LocationError(.readOnly, "\(reason): new crossings cannot be recorded")
            } else {
                if storeError != nil { logger.log("the event store opened") }
                storeError = nil
            }
            uploader = LocationUploader(
                store: store, configuration: .init(network: networkSettings(), scheduler: configuration.upload),
                tokenProvider: { [weak self] in await self?.currentToken() },
                clock: configuration.clock, random: configuration.random,
                progressHandler: { [weak self] progress in await self?.uploadProgress(progress) })
            return store
        } catch {
            if storeError != error {
                logger.log(
                    "the event store cannot be opened (\(error)); crossings wait in memory and synchronization fails until it opens"
                )
            }
            storeError = error
            return nil
        }
    }

    private func currentToken() -> String? { vault.read()?.userToken }

    private func save(_ credentials: any ConnectionCredentialProvider) async {
        do {
            try vault.write(userToken: credentials.userToken, inviteCode: credentials.inviteCode)
        } catch {
            logger.log("the credentials could not be saved: \(error)")
        }
        logger.setSecrets([credentials.userToken, credentials.inviteCode])
        perform(engine.handle(.credentialsUpdated))
        if let uploader, await uploader.schedulerState.isPausedForAuthentication { await uploader.resume() }
    }
}

// What the synchronizer does with a Connect Button's outcomes.
extension Synchronizer {
    // MARK: - Connect Button outcomes

    /// Acts on what a Connect Button did: an activation stores the Connection (and the token the redirect
    /// carried) and synchronizes; a deactivation removes it and synchronizes; a Connection shown on a button
    /// updates a stored one. Ignored while synchronization is inactive.
    package func handle(_ outcome: ConnectButtonOutcome) async {
        await start()
        guard engine.isActive else { return }
        switch outcome {
        case .activated(let activation, let credentials):
            if let token = activation.userToken ?? credentials.userToken, !token.isEmpty {
                await save(ConnectionCredentials(userToken: token, inviteCode: credentials.inviteCode))
            }
            var stored = StoredConnection(activation.connection)
            stored.status = Connection.Status.enabled.rawValue
            store(stored)
            await applyGeofences()
            request(.connectionEnabled, completion: nil)
        case .deactivated(let connection, _):
            do { try registry.remove(id: connection.id) } catch { logger.log("deactivation: \(error)") }
            await applyGeofences()
            request(.connectionDisabled, completion: nil)
        case .connectionShown(let connection, _):
            let stored = StoredConnection(connection)
            guard
                registry.connections[connection.id] != nil
                    || (connection.status == .enabled && stored.hasLocationTriggers == true)
            else { return }
            guard store(stored) else { return }
            await applyGeofences()
            request(.connectionShown, completion: nil)
        }
    }

    @discardableResult
    private func store(_ connection: StoredConnection, persist: Bool = true) -> Bool {
        do { return try registry.update(connection, persist: persist) } catch {
            logger.log("cannot store Connection \(connection.id): \(error)")
            return false
        }
    }

    private func persistRegistry() {
        do { try registry.save() } catch { logger.log("cannot save the Connections: \(error)") }
    }
}

// The SDK background task: scheduling it and running a synchronization when the system launches it.
extension Synchronizer {
    // MARK: - Background task

    /// Submits the SDK background task one interval from now, when it is enabled, registered, synchronization
    /// is active and a token is saved; otherwise cancels it.
    private func scheduleBackgroundTask() {
        guard let scheduler = configuration.taskScheduler, options.enableSDKBackgroundProcess else { return }
        guard engine.isActive, vault.read()?.userToken?.isEmpty == false else {
            scheduler.cancel(identifier: Configuration.backgroundTaskIdentifier)
            return
        }
        let request = BackgroundTaskRequest(
            identifier: Configuration.backgroundTaskIdentifier,
            earliestBeginDate: configuration.clock.now.addingTimeInterval(configuration.backgroundTaskInterval),
            requiresNetworkConnectivity: true, requiresExternalPower: false)
        do { try scheduler.submit(request) } catch {
            logger.log("the background task could not be submitted: \(error)")
        }
    }

    /// Runs a synchronization for a background task the system launched; the task is completed exactly once,
    /// when the synchronization ends or when its time expires, whichever comes first.
    private nonisolated func handleBackgroundTask(_ task: any BackgroundTask) {
        let once = OnceFlag()
        let hooks = self.hooks.withLock { $0 }
        task.setExpirationHandler { [weak self] in
            hooks.backgroundExpiration?()
            self?.submit { $0.stopCurrentSynchronization() }
            if once.claim() { task.setTaskCompleted(success: false) }
        }
        hooks.backgroundLaunch?()
        submit { synchronizer in
            await synchronizer.synchronize(source: .internalBackgroundProcess) { [weak synchronizer] result in
                if once.claim() { task.setTaskCompleted(success: result != .failed) }
                synchronizer?.submit { $0.scheduleBackgroundTask() }
            }
        }
    }
}
