import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// The synchronization API of the Location documentation, as static members of `ConnectButtonController`.
///
/// Each member is a thin facade over ``ConnectButtonController/synchronizer``: it queues a command and returns
/// at once; commands run one at a time, in order. As in ConnectSDK-iOS 2.8, every member can be called from
/// any thread (for example ``stopCurrentSynchronization()`` from a background task's expiration handler), and
/// the completion handlers the host app passes run on the main thread. Importing `IFTTTConnectLocation` adds
/// this API, so apps that do not use location never link it.
extension ConnectButtonController {
    /// The synchronizer the static API uses. Created on first use with ``Synchronizer/Configuration/platformDefault()``
    /// (from another thread, without waiting for the main thread: the CoreLocation monitor is then created on the
    /// main thread soon after); replace it before
    /// ``initialize(options:)`` to inject a transport, server, storage directory, region monitor or clock
    /// (tests, the sandbox).
    ///
    /// It is process-wide because the 2.8 API it serves is static (there is no instance to inject a synchronizer
    /// into) and because the platform's resources are per app: one set of monitored regions, one background task
    /// registration. Code that can hold an instance creates its own ``Synchronizer`` instead.
    public nonisolated static var synchronizer: Synchronizer {
        get {
            if let existing = facade.withLock({ $0.synchronizer }) { return existing }
            let configuration = Synchronizer.Configuration.platformDefaultFromAnyThread()
            return facade.withLock { state in
                if let existing = state.synchronizer { return existing }
                let created = Synchronizer(configuration: configuration)
                state.synchronizer = created
                return created
            }
        }
        set { facade.withLock { $0.synchronizer = newValue } }
    }

    /// Forgets the shared synchronizer, so the next use of ``synchronizer`` creates one (tests).
    nonisolated static func resetSharedSynchronizer() {
        facade.withLock { $0.synchronizer = nil }
    }

    /// Starts synchronization support: region monitoring begins (so a crossing that launched the app is
    /// recorded), Connect Button outcomes are observed, and, with ``InitializerOptions/enableSDKBackgroundProcess``,
    /// the SDK background task is registered. It does not synchronize.
    ///
    /// Call it before the app finishes launching. It does no file or network I/O on the calling thread: the
    /// stored Connections are read afterwards, off the main thread.
    ///
    /// - Parameter options: background process and permission prompts.
    public nonisolated static func initialize(options: InitializerOptions = .standard) {
        synchronizer.initialize(options: options)
        observeOnMainThread()
    }

    /// Registers the SDK background task (`com.ifttt.ifttt.synchronization_scheduler`) and lets the SDK
    /// schedule it, as ``initialize(options:)`` does with ``InitializerOptions/enableSDKBackgroundProcess``.
    /// Call it before the app finishes launching.
    public nonisolated static func setupSDKBackgroundProcess() {
        synchronizer.enableSDKBackgroundProcess()
    }

    /// Saves the credentials background synchronization uses and sets the lifecycle events that synchronize.
    ///
    /// The provider's values are read at once, on the calling thread.
    ///
    /// - Parameters:
    ///   - credentials: the user token and invite code; `nil` keeps the saved ones.
    ///   - lifecycleSynchronizationOptions: the lifecycle events that run a synchronization; default ``ApplicationLifecycleSynchronizationOptions/all``.
    public nonisolated static func setup(
        with credentials: (any ConnectionCredentialProvider)?,
        lifecycleSynchronizationOptions: ApplicationLifecycleSynchronizationOptions = .all
    ) {
        let values = credentials.map(ConnectionCredentials.init(snapshotOf:))
        synchronizer.engine.enqueue {
            $0.setup(with: values, lifecycleSynchronizationOptions: lifecycleSynchronizationOptions)
        }
    }

    /// Activates location monitoring and synchronization, adding `connections` (ids) when known. May be called
    /// many times.
    ///
    /// - Parameters:
    ///   - ids: Connection ids to monitor; `nil` adds none.
    ///   - lifecycleSynchronizationOptions: the lifecycle events that run a synchronization; default
    ///     ``ApplicationLifecycleSynchronizationOptions/all``.
    public nonisolated static func activate(
        connections ids: [String]? = nil,
        lifecycleSynchronizationOptions: ApplicationLifecycleSynchronizationOptions = .all
    ) {
        synchronizer.engine.enqueue {
            $0.activate(connections: ids, lifecycleSynchronizationOptions: lifecycleSynchronizationOptions)
        }
    }

    /// Deactivates location monitoring and synchronization: stops the SDK's geofences and forgets the stored
    /// Connections, pending crossings and credentials. Pending completions are called with `.noData`.
    public nonisolated static func deactivate() {
        synchronizer.engine.enqueue { $0.deactivate() }
    }

    /// Refreshes the stored Connections and their geofences and uploads pending crossings.
    ///
    /// - Parameter credentials: new credentials to save first (read at once, on the calling thread); `nil`
    ///   keeps the saved ones.
    public nonisolated static func update(with credentials: (any ConnectionCredentialProvider)? = nil) {
        let values = credentials.map(ConnectionCredentials.init(snapshotOf:))
        synchronizer.engine.enqueue { $0.update(with: values) }
    }

    /// Runs a synchronization for the host app's own background task.
    ///
    /// - Parameter success: called exactly once, on the main thread: `false` when the synchronization failed
    ///   or was stopped.
    public nonisolated static func startBackgroundProcess(success: @escaping BoolClosure) {
        let callback = HostCallback(success, on: .main)
        synchronizer.engine.enqueue { $0.synchronize(source: .externalBackgroundProcess) { callback($0 != .failed) } }
    }

    /// Stops the running synchronization and cancels its network request, for example when a background
    /// task expires. Its completions are called with ``SynchronizationResult/failed``. Callable from any thread.
    public nonisolated static func stopCurrentSynchronization() {
        synchronizer.engine.enqueue { $0.stopCurrentSynchronization() }
    }

    /// Sets closures run when the SDK background task is launched and when its time expires.
    ///
    /// - Parameters:
    ///   - launchHandler: called when the system launches the task, on a serial background queue (as in 2.8).
    ///   - expirationHandler: called when the task's time runs out, on the same serial queue.
    public nonisolated static func setBackgroundProcessClosures(
        launchHandler: VoidClosure?, expirationHandler: VoidClosure?
    ) {
        let launch = launchHandler.map { handler in HostCallback<Void>({ _ in handler() }, on: .engine) }
        let expiration = expirationHandler.map { handler in HostCallback<Void>({ _ in handler() }, on: .engine) }
        synchronizer.setBackgroundProcessHandlers(launch: launch?.voidClosure, expiration: expiration?.voidClosure)
    }

    /// Turns monitoring of one Connection's geofences on or off. The switch is saved at once, survives
    /// relaunches and is never reset by a refresh; it runs no synchronization.
    ///
    /// - Parameters:
    ///   - enabled: whether the Connection's geofences are monitored.
    ///   - connectionId: the Connection.
    public nonisolated static func setGeofencesEnabled(enabled: Bool, for connectionId: String) {
        let synchronizer = self.synchronizer
        do {
            if try synchronizer.geofenceToggles.setEnabled(enabled, for: connectionId) {
                synchronizer.engine.enqueue { $0.geofenceSwitchesChanged() }
            }
        } catch {
            synchronizer.logger.log("the geofence switch could not be saved: \(error)")
        }
    }

    /// Whether one Connection's geofences are monitored: the saved switch, `true` when never set.
    ///
    /// - Parameter connectionId: the Connection.
    /// - Returns: The switch.
    public nonisolated static func geofencesEnabled(for connectionId: String) -> Bool {
        synchronizer.geofenceToggles.isEnabled(connectionId)
    }

    /// Sets the closure that receives location event reports: recorded, upload attempted, succeeded, failed.
    /// It is called on the main thread, one batch at a time, in order (as in ConnectSDK-iOS 2.8).
    ///
    /// - Parameter closure: the receiver, or `nil`.
    public nonisolated static func setLocationEventReportedClosure(_ closure: (([LocationEvent]) -> Void)?) {
        let callback = closure.map { HostCallback($0, on: .main) }
        synchronizer.setLocationEventReportedClosure(callback?.closure)
    }

    /// Whether synchronization logs. Default `false`; when `false`, neither `NSLog` nor the custom handler runs.
    public nonisolated static var synchronizationLoggingEnabled: Bool {
        get { synchronizer.logger.isEnabled }
        set { synchronizer.logger.isEnabled = newValue }
    }

    /// Receives synchronization log lines instead of `NSLog`, on the synchronizer's executor. Lines never
    /// contain a token or an invite code.
    public nonisolated static var synchronizationLoggingHandler: (@Sendable (String) -> Void)? {
        get { synchronizer.logger.customHandler }
        set {
            facade.withLock { $0.legacyLoggingHandler = nil }
            synchronizer.logger.customHandler = newValue
        }
    }

    /// Receives synchronization log lines instead of `NSLog`, in order, on the main thread: ConnectSDK-iOS 2.8's
    /// name (spelt as 2.8 spells it) and type. Setting it replaces ``synchronizationLoggingHandler``.
    public nonisolated static var synchnronizationLoggingHandler: ((String) -> Void)? {
        get {
            if let legacy = facade.withLock({ $0.legacyLoggingHandler }) { return legacy.body }
            return synchronizationLoggingHandler
        }
        set {
            let callback = newValue.map { HostCallback($0, on: .main) }
            facade.withLock { $0.legacyLoggingHandler = callback }
            synchronizer.logger.customHandler = callback?.closure
        }
    }

    /// Called on the main thread when IFTTT rejects the saved credentials (401). Nothing is deleted: geofences
    /// stay monitored, crossings stay stored, and synchronization resumes after
    /// ``setup(with:lifecycleSynchronizationOptions:)`` or ``update(with:)`` with new credentials.
    public nonisolated static var authenticationFailureHandler: VoidClosure? {
        get {
            guard let callback = facade.withLock({ $0.authenticationFailureHandler }) else { return nil }
            return { callback.body(()) }
        }
        set {
            let callback = newValue.map { handler in HostCallback<Void>({ _ in handler() }, on: .main) }
            facade.withLock { $0.authenticationFailureHandler = callback }
            synchronizer.setAuthenticationFailureHandler(callback?.voidClosure)
        }
    }

    // MARK: - Threading

    /// Subscribes the shared synchronizer to Connect Button outcomes, and installs the lifecycle observation on
    /// the main thread: at once when called there, soon after otherwise.
    private nonisolated static func observeOnMainThread() {
        // Controllers report to the outcome channel their configuration names (by default the shared one); the
        // static API listens there once, however often `initialize` runs.
        facade.withLock { state in
            guard state.outcomeSubscription == nil else { return }
            state.outcomeSubscription = ConnectButtonOutcomes.shared.addObserver { outcome in
                ConnectButtonController.synchronizer.engine.enqueue { $0.handle(outcome) }
            }
        }
        let install: @MainActor @Sendable () -> Void = {
            if lifecycleObservation == nil { lifecycleObservation = makeLifecycleObservation() }
        }
        if isOnMainQueue() {
            MainActor.assumeIsolated(install)
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(install) }
        }
    }

    /// Ends the static API's subscription to Connect Button outcomes (tests that replaced the synchronizer).
    static func stopObservingButtonOutcomes() {
        let token = facade.withLock { state -> UUID? in
            let token = state.outcomeSubscription
            state.outcomeSubscription = nil
            return token
        }
        if let token { ConnectButtonOutcomes.shared.removeObserver(token) }
    }

    @MainActor private static var lifecycleObservation: AnyObject?
}

/// The static API's process-wide state.
private struct FacadeState: Sendable {
    var synchronizer: Synchronizer?
    var legacyLoggingHandler: HostCallback<String>?
    var authenticationFailureHandler: HostCallback<Void>?
    /// The subscription to ``ConnectButtonOutcomes/shared``, once `initialize` ran.
    var outcomeSubscription: UUID?
}

private let facade = Locked(FacadeState())

#if !(canImport(UIKit) && !os(watchOS))
// Where UIKit exists, these take `UIBackgroundFetchResult`, as in ConnectSDK-iOS 2.8 (see PlatformAdapters.swift).
extension ConnectButtonController {
    /// Runs a synchronization for a silent push notification.
    ///
    /// - Parameter backgroundFetchCompletion: called exactly once with the result, on the main thread, also
    ///   when synchronization is not active.
    public nonisolated static func didReceiveSilentRemoteNotification(
        backgroundFetchCompletion: ((SynchronizationResult) -> Void)?
    ) {
        let callback = backgroundFetchCompletion.map { HostCallback($0, on: .main) }
        synchronizer.engine.enqueue { $0.synchronize(source: .silentPushNotification) { callback?($0) } }
    }

    /// Runs a synchronization for a background fetch.
    ///
    /// - Parameter backgroundFetchCompletion: called exactly once with the result, on the main thread, also
    ///   when synchronization is not active.
    public nonisolated static func performFetchWithCompletionHandler(
        backgroundFetchCompletion: ((SynchronizationResult) -> Void)?
    ) {
        let callback = backgroundFetchCompletion.map { HostCallback($0, on: .main) }
        synchronizer.engine.enqueue { $0.synchronize(source: .backgroundFetch) { callback?($0) } }
    }
}
#endif
