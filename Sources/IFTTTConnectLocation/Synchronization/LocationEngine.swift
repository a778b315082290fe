import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// The synchronizer's shell, on ``LocationEngineActor``: it owns the Connections registry, the credentials, the
/// ``SyncEngine``, the ``LocationMonitoringSession``, the ``LocationEventStore`` and the ``LocationUploader``, and
/// runs what the engine decides.
///
/// Every command is one synchronous step on the engine's actor, so commands cannot interleave: the only suspensions
/// are a run's requests (Connections and uploads), the session's one wait for the platform's limits at start, and
/// the permission prompt (on the main actor, not awaited). The public ``Synchronizer`` forwards to it.
@LocationEngineActor
final class LocationEngine {
    /// Closures the host app sets; read and written from any thread.
    struct Hooks: Sendable {
        var locationEvents: (@Sendable ([LocationEvent]) -> Void)?
        var authenticationFailure: (@Sendable () -> Void)?
        var backgroundLaunch: (@Sendable () -> Void)?
        var backgroundExpiration: (@Sendable () -> Void)?
    }

    nonisolated let configuration: Synchronizer.Configuration
    nonisolated let logger: SynchronizationLogger
    nonisolated let geofenceToggles: GeofenceToggleStore
    /// Written only through the synchronizer's setters, read by the engine.
    nonisolated let hooks = Locked(Hooks())
    /// ``SyncEngine/isActive`` as last set, readable from any thread (``Synchronizer/isActive``).
    nonisolated let activeState = Locked(false)
    nonisolated let backgroundRegistration = OnceFlag()

    private var engine = SyncEngine()
    private var registry: ConnectionsRegistry
    private var vault: CredentialVault
    private(set) var options = InitializerOptions.standard
    private var started = false
    /// The session's start: its one wait, for the platform's limits and regions.
    private var sessionStart: Task<Void, Never>?
    private var store: LocationEventStore?
    private var session: LocationMonitoringSession?
    private var uploader: LocationUploader?
    private var network: ConnectionNetworkController?
    private var completions: [SyncEngine.Ticket: @Sendable (SynchronizationResult) -> Void] = [:]
    private var nextTicket: SyncEngine.Ticket = 1
    private var runs: [Int: Task<Void, Never>] = [:]
    /// Runs cancelled but still returning (their requests are settled); the next run starts once they returned, so
    /// no two runs, and no two uploads, overlap.
    private var returningRuns: [Int: Task<Void, Never>] = [:]
    private var eventDates: [UUID: Date] = [:]
    /// ``Synchronizer/Configuration/network`` as the network controller and the uploader use it, once resolved.
    private var resolvedNetwork: ConnectionNetworkController.Configuration?
    private var storeError: LocationError?
    private var permissionsRequested = false

    nonisolated init(configuration: Synchronizer.Configuration, logger: SynchronizationLogger) {
        self.configuration = configuration
        self.logger = logger
        self.geofenceToggles = GeofenceToggleStore(directory: configuration.storageDirectory)
        self.registry = ConnectionsRegistry(directory: configuration.storageDirectory)
        self.vault = CredentialVault(
            store: configuration.secureStore ?? Self.platformSecureStore(configuration.storageDirectory),
            directory: configuration.storageDirectory)
    }

    private nonisolated static func platformSecureStore(_ directory: URL) -> any SecureStore {
        #if canImport(Security)
        return KeychainSecureStore()
        #else
        return FileSecureStore(directory: directory)
        #endif
    }

    /// ``Synchronizer/Configuration/network`` with the anonymous id read (when it was left empty), no callback queue
    /// and the log lines sent to ``logger``: the one value the network controller and the uploader share.
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

    /// Runs `command` on the engine's actor. Commands given from one thread start in the order given (a task
    /// isolated to an actor is enqueued on it when created), and each is synchronous, so each ends before the next.
    nonisolated func enqueue(_ command: @escaping @LocationEngineActor @Sendable (LocationEngine) -> Void) {
        Task { @LocationEngineActor in command(self) }
    }

    /// Waits until the session has started and no synchronization is running (commands enqueued earlier ran first).
    func waitUntilIdle() async {
        await sessionStart?.value
        while let run = runs.values.first ?? returningRuns.values.first {
            await run.value
        }
    }

    /// Sets the initializer options.
    func configure(options: InitializerOptions) {
        self.options = options
    }

    /// Lets the synchronizer schedule the SDK background task.
    func enableBackgroundProcess() {
        options.enableSDKBackgroundProcess = true
    }

    /// Reads the stored state, opens the store, creates the uploader and the session and monitors the stored
    /// Connections' geofences (the session applies them once the platform's limits are read). Runs once.
    func startIfNeeded() {
        guard !started else { return }
        started = true
        registry.load()
        if registry.isActive { handle(.activated) }
        let saved = vault.read()
        logger.setSecrets([saved?.userToken, saved?.inviteCode])
        network = ConnectionNetworkController(configuration: networkSettings())
        let store = openStore()
        let session = LocationMonitoringSession(
            monitor: configuration.regionMonitor, store: store, configuration: configuration.regions,
            clock: configuration.clock,
            storeLater: true, dwellTime: configuration.dwellTime,
            ownership: RegionOwnershipFile(directory: configuration.storageDirectory))
        self.session = session
        if session.beginStarting() {
            // Monitor events and dwell deadlines come here; the session hands back what each recorded.
            sessionStart = Task {
                let outcome = await session.finishStarting { [weak self] input in self?.sessionInput(input) }
                self.act(on: outcome)
            }
        }
        applyGeofences()
        logger.log("started: \(registry.all.count) stored Connections, active: \(registry.isActive)")
    }

    /// ``startIfNeeded()``, then waits for the session's start.
    func start() async {
        startIfNeeded()
        await sessionStart?.value
    }

    func setup(
        with credentials: (any ConnectionCredentialProvider)?,
        lifecycleSynchronizationOptions: ApplicationLifecycleSynchronizationOptions
    ) {
        startIfNeeded()
        if let credentials { save(credentials) }
        handle(.lifecycleOptionsChanged(lifecycleSynchronizationOptions))
    }

    func activate(
        connections: [String]?, lifecycleSynchronizationOptions: ApplicationLifecycleSynchronizationOptions?
    ) {
        startIfNeeded()
        if let lifecycleSynchronizationOptions { handle(.lifecycleOptionsChanged(lifecycleSynchronizationOptions)) }
        do {
            try registry.add(ids: connections ?? [])
            if !registry.isActive { try registry.setActive(true) }
        } catch {
            logger.log("activate: \(error)")
        }
        handle(.activated)
        applyGeofences()
        request(.activation, completion: nil)
    }

    /// One synchronous step: no crossing can be released, and no run can act, between its parts.
    func deactivate() {
        startIfNeeded()
        handle(.deactivated)
        do {
            try registry.removeAll()
            try registry.setActive(false)
        } catch {
            logger.log("deactivate: \(error)")
        }
        do { try vault.clear() } catch { logger.log("deactivate: \(error)") }
        logger.setSecrets([])
        if let session {
            // Records nothing: the pending crossings are forgotten before anything else.
            for error in session.deactivate(clearing: store).errors { logger.log("deactivate: \(error)") }
        } else {
            do throws(LocationError) { try store?.removeAll() } catch { logger.log("deactivate: \(error)") }
        }
        eventDates = [:]
        configuration.taskScheduler?.cancel(identifier: Synchronizer.Configuration.backgroundTaskIdentifier)
        logger.log("deactivated")
    }

    func update(with credentials: (any ConnectionCredentialProvider)?) {
        startIfNeeded()
        if let credentials { save(credentials) }
        request(.forceUpdate, completion: nil)
    }

    func synchronize(source: SynchronizationSource, completion: (@Sendable (SynchronizationResult) -> Void)?) {
        startIfNeeded()
        request(source, completion: completion)
    }

    func synchronize(source: SynchronizationSource) async -> SynchronizationResult {
        await withCheckedContinuation { continuation in
            synchronize(source: source) { continuation.resume(returning: $0) }
        }
    }

    func stopCurrentSynchronization() {
        handle(.stopRequested)
    }

    /// Synchronizes when the lifecycle options say so, and schedules the SDK background task.
    func applicationDidEnterBackground() {
        synchronize(source: .appDidEnterBackground, completion: nil)
        scheduleBackgroundTask()
    }

    func geofenceSwitchesChanged() {
        startIfNeeded()
        applyGeofences()
    }

    var storedConnections: [StoredConnection] { registry.all }
    var isActive: Bool { engine.isActive }
    var monitoredRegions: [MonitoredRegion] { session?.monitoredRegions ?? [] }
    var storageError: LocationError? { storeError }
    var eventStore: LocationEventStore? { store }

    // MARK: - Engine effects

    private func handle(_ event: SyncEngine.Event) {
        let effects = engine.handle(event)
        let active = engine.isActive
        activeState.withLock { $0 = active }
        perform(effects)
    }

    private func request(_ source: SynchronizationSource, completion: (@Sendable (SynchronizationResult) -> Void)?) {
        let ticket = nextTicket
        nextTicket += 1
        if let completion { completions[ticket] = completion }
        logger.log("synchronization requested: \(source.rawValue)")
        handle(.requested(ticket, source))
    }

    private func perform(_ effects: [SyncEngine.Effect]) {
        for effect in effects {
            switch effect {
            case .startRun(let plan):
                logger.log(
                    "synchronization \(plan.id) started (\(plan.sources.map(\.rawValue).sorted().joined(separator: ", ")))"
                )
                let returning = Array(returningRuns.values)
                runs[plan.id] = Task {
                    for run in returning { await run.value }
                    let outcome = await self.execute(plan)
                    self.finish(plan.id, outcome)
                }
            case .cancelRun(let id):
                logger.log("synchronization \(id) cancelled")
                if let run = runs.removeValue(forKey: id) {
                    run.cancel()
                    returningRuns[id] = run
                }
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
        returningRuns[id] = nil
        logger.log("synchronization \(id) finished: \(outcome)")
        handle(.runFinished(id: id, outcome))
    }

    private func isCurrent(_ plan: SyncEngine.Plan) -> Bool {
        engine.currentRunId == plan.id && !Task.isCancelled
    }

    /// A run: refreshes the stored Connections when the plan says so, then uploads. Its suspensions are its
    /// requests; everything between them is synchronous on the engine's actor.
    private func execute(_ plan: SyncEngine.Plan) async -> SyncEngine.Outcome {
        guard isCurrent(plan) else { return .finished(.failed) }
        // A store that could not open is retried on every run; while crossings cannot be stored, the run fails
        // (after refreshing the Connections, so geofences are still monitored and crossings wait in memory).
        let stored: Bool
        if let session {
            act(on: session.retryStorage())
            stored = session.isStorageSettled
        } else {
            stored = openStore() != nil
        }
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
            if changed { applyGeofences() }
        }
        guard isCurrent(plan) else { return .finished(.failed) }
        var uploaded = 0
        if let uploader = uploaderIfStoreOpen() {
            let report = await upload(with: uploader)
            uploaded = report.uploaded + report.rejected
            // The upload made room: crossings a full store refused are recorded now, in order (their reports
            // request the next run, which uploads them).
            if report.uploaded + report.rejected > 0, let session { act(on: session.retryStorage()) }
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

// Geofences, recorded crossings and their reports, the event store, the uploader and the credentials.
extension LocationEngine {
    private func applyGeofences() {
        guard let session else { return }
        let limits = session.effectiveRadiusLimits
        let fences =
            engine.isActive
            ? registry.all.filter { geofenceToggles.isEnabled($0.id) }.flatMap { $0.geofences(radiusLimits: limits) }
            : []
        act(on: session.update(geofences: fences))
        if options.showPermissionsPrompts, !fences.isEmpty, !permissionsRequested,
            let requester = configuration.permissionRequester
        {
            permissionsRequested = true
            // The prompt runs on the main actor and is not waited for: the engine goes on at once.
            Task { await requester() }
        }
    }

    /// A monitor event or a dwell deadline the session routed here: handed back to it, and what it recorded reported.
    private func sessionInput(_ input: LocationMonitoringSession.Input) {
        guard let session else { return }
        act(on: session.handle(routed: input))
    }

    /// Acts on what one of the session's inputs did (see ``report(_:)``); when the session needs the store, it is
    /// opened (or tried again) and given, once: that answers the session's question and asks nothing again.
    private func act(on outcome: LocationMonitoringSession.Outcome) {
        report(outcome)
        if outcome.needsStore, let session { report(session.storeOpened(openStore())) }
    }

    /// Each failure of a session's outcome is logged, each recorded crossing reported to the app and a run requested
    /// to upload it.
    private func report(_ outcome: LocationMonitoringSession.Outcome) {
        for error in outcome.errors { logger.log("a crossing could not be recorded: \(error)") }
        for event in outcome.recorded { recorded(event) }
    }

    private func recorded(_ event: RegionEvent) {
        eventDates[event.recordId] = configuration.clock.now
        logger.log("recorded \(event.transition.rawValue) of \(event.triggerSubscriptionId)")
        hooks.withLock { $0 }.locationEvents?([.reported(region: event)])
        request(.regionEvent, completion: nil)
    }

    /// One upload call, request by request: the uploader decides each request and settles its answer, both
    /// synchronously, and returns each step's progress here, where it is reported to the app as it happens (the
    /// attempt before the request is sent). The request is the call's only suspension. Each request carries the
    /// token saved when it is decided, so credentials given during the run (while its Connections were fetched, or
    /// between two batches) are the ones sent.
    private func upload(with uploader: LocationUploader) async -> LocationUploader.Report {
        var run = uploader.beginRun(userToken: vault.read()?.userToken)
        while let request = uploader.nextRequest(in: &run) {
            for progress in request.progress { uploadProgress(progress) }
            let answer = await uploader.send(request)
            for progress in uploader.settle(answer, of: request, in: &run) { uploadProgress(progress) }
            run.userToken = vault.read()?.userToken
        }
        return run.result
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

    /// Opens the event store if it is not open; `nil` when it cannot be opened (then ``storageError`` says why and
    /// the next crossing or run tries again). Opening creates nothing else.
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

    /// The uploader, created here (its one place) for the store once the store is open; `nil` while it is not.
    private func uploaderIfStoreOpen() -> LocationUploader? {
        if let uploader { return uploader }
        guard let store = store ?? openStore() else { return nil }
        let created = LocationUploader(
            store: store, configuration: .init(network: networkSettings(), scheduler: configuration.upload),
            clock: configuration.clock, random: configuration.random)
        uploader = created
        return created
    }

    private func save(_ credentials: any ConnectionCredentialProvider) {
        do {
            try vault.write(userToken: credentials.userToken, inviteCode: credentials.inviteCode)
        } catch {
            logger.log("the credentials could not be saved: \(error)")
        }
        logger.setSecrets([credentials.userToken, credentials.inviteCode])
        handle(.credentialsUpdated)
        if let uploader, uploader.schedulerState.isPausedForAuthentication { uploader.resume() }
    }
}

// What the engine does with a Connect Button's outcomes.
extension LocationEngine {
    /// Acts on what a Connect Button did: an activation stores the Connection (and the token the redirect
    /// carried) and synchronizes; a deactivation removes it and synchronizes; a Connection shown on a button
    /// updates a stored one. Ignored while synchronization is inactive.
    func handle(_ outcome: ConnectButtonOutcome) {
        startIfNeeded()
        guard engine.isActive else { return }
        switch outcome {
        case .activated(let activation, let credentials):
            if let token = activation.userToken ?? credentials.userToken, !token.isEmpty {
                save(ConnectionCredentials(userToken: token, inviteCode: credentials.inviteCode))
            }
            var stored = StoredConnection(activation.connection)
            stored.status = Connection.Status.enabled.rawValue
            store(stored)
            applyGeofences()
            request(.connectionEnabled, completion: nil)
        case .deactivated(let connection, _):
            do { try registry.remove(id: connection.id) } catch { logger.log("deactivation: \(error)") }
            applyGeofences()
            request(.connectionDisabled, completion: nil)
        case .connectionShown(let connection, _):
            let stored = StoredConnection(connection)
            guard
                registry.connections[connection.id] != nil
                    || (connection.status == .enabled && stored.hasLocationTriggers == true)
            else { return }
            guard store(stored) else { return }
            applyGeofences()
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
extension LocationEngine {
    /// Submits the SDK background task one interval from now, when it is enabled, registered, synchronization
    /// is active and a token is saved; otherwise cancels it.
    func scheduleBackgroundTask() {
        guard let scheduler = configuration.taskScheduler, options.enableSDKBackgroundProcess else { return }
        guard engine.isActive, vault.read()?.userToken?.isEmpty == false else {
            scheduler.cancel(identifier: Synchronizer.Configuration.backgroundTaskIdentifier)
            return
        }
        let request = BackgroundTaskRequest(
            identifier: Synchronizer.Configuration.backgroundTaskIdentifier,
            earliestBeginDate: configuration.clock.now.addingTimeInterval(configuration.backgroundTaskInterval),
            requiresNetworkConnectivity: true, requiresExternalPower: false)
        do { try scheduler.submit(request) } catch {
            logger.log("the background task could not be submitted: \(error)")
        }
    }

    /// Runs a synchronization for a background task the system launched; the task is completed exactly once,
    /// when the synchronization ends or when its time expires, whichever comes first.
    nonisolated func handleBackgroundTask(_ task: any BackgroundTask) {
        let once = OnceFlag()
        let hooks = self.hooks.withLock { $0 }
        task.setExpirationHandler { [weak self] in
            hooks.backgroundExpiration?()
            self?.enqueue { $0.stopCurrentSynchronization() }
            if once.claim() { task.setTaskCompleted(success: false) }
        }
        hooks.backgroundLaunch?()
        enqueue { engine in
            engine.synchronize(source: .internalBackgroundProcess) { [weak engine] result in
                if once.claim() { task.setTaskCompleted(success: result != .failed) }
                engine?.enqueue { $0.scheduleBackgroundTask() }
            }
        }
    }
}
