import Foundation
import IFTTTConnectSDK

/// The synchronization API of the Location documentation, as static members of `ConnectButtonController`.
///
/// Each member is a thin facade over ``ConnectButtonController/synchronizer``: it queues a command and returns
/// at once; commands run one at a time, in order. Importing `IFTTTConnectLocation` adds this API, so apps that
/// do not use location never link it.
extension ConnectButtonController {
    private static var sharedSynchronizer: Synchronizer?
    private static var lifecycleObservation: AnyObject?

    /// The synchronizer the static API uses. Created on first use with ``Synchronizer/Configuration/platformDefault()``;
    /// replace it before ``initialize(options:)`` to inject a transport, server, storage directory, region monitor
    /// or clock (tests, the sandbox).
    public static var synchronizer: Synchronizer {
        get {
            if let sharedSynchronizer { return sharedSynchronizer }
            let created = Synchronizer(configuration: .platformDefault())
            sharedSynchronizer = created
            return created
        }
        set { sharedSynchronizer = newValue }
    }

    /// Starts synchronization support: region monitoring begins (so a crossing that launched the app is
    /// recorded), Connect Button outcomes are observed, and, with ``InitializerOptions/enableSDKBackgroundProcess``,
    /// the SDK background task is registered. It does not synchronize.
    ///
    /// Call it before the app finishes launching. It does no file or network I/O on the calling thread: the
    /// stored Connections are read afterwards, off the main thread.
    ///
    /// - Parameter options: background process and permission prompts.
    public static func initialize(options: InitializerOptions = .standard) {
        let synchronizer = self.synchronizer
        synchronizer.initialize(options: options)
        outcomeObserver = { outcome in
            ConnectButtonController.synchronizer.submit { await $0.handle(outcome) }
        }
        if lifecycleObservation == nil { lifecycleObservation = makeLifecycleObservation() }
    }

    /// Saves the credentials background synchronization uses and sets the lifecycle events that synchronize.
    ///
    /// - Parameters:
    ///   - credentials: the user token and invite code; `nil` keeps the saved ones.
    ///   - lifecycleSynchronizationOptions: the lifecycle events that run a synchronization; default ``ApplicationLifecycleSynchronizationOptions/all``.
    public static func setup(with credentials: (any ConnectionCredentialProvider)?,
                             lifecycleSynchronizationOptions: ApplicationLifecycleSynchronizationOptions = .all) {
        // The provider need not be Sendable (a 2.8 app's class with a mutable token): copy its values now.
        let credentials = credentials.map(ConnectionCredentials.init(snapshotOf:))
        synchronizer.submit { await $0.setup(with: credentials, lifecycleSynchronizationOptions: lifecycleSynchronizationOptions) }
    }

    /// Activates location monitoring and synchronization, adding `connections` (ids) when known. May be called
    /// many times.
    ///
    /// - Parameter connections: Connection ids to monitor; `nil` adds none.
    public static func activate(connections: [String]? = nil) {
        synchronizer.submit { await $0.activate(connections: connections) }
    }

    /// Deactivates location monitoring and synchronization: stops the SDK's geofences and forgets the stored
    /// Connections, pending crossings and credentials. Pending completions are called with `.noData`.
    public static func deactivate() {
        synchronizer.submit { await $0.deactivate() }
    }

    /// Refreshes the stored Connections and their geofences and uploads pending crossings.
    ///
    /// - Parameter credentials: new credentials to save first; `nil` keeps the saved ones.
    public static func update(with credentials: (any ConnectionCredentialProvider)? = nil) {
        let credentials = credentials.map(ConnectionCredentials.init(snapshotOf:))
        synchronizer.submit { await $0.update(with: credentials) }
    }

    /// Runs a synchronization for the host app's own background task.
    ///
    /// - Parameter success: called exactly once, `false` when the synchronization failed or was stopped.
    public static func startBackgroundProcess(success: @escaping @Sendable (Bool) -> Void) {
        synchronizer.submit { await $0.synchronize(source: .externalBackgroundProcess) { success($0 != .failed) } }
    }

    /// Stops the running synchronization and cancels its network request, for example when a background
    /// task expires. Its completions are called with ``SynchronizationResult/failed``.
    public static func stopCurrentSynchronization() {
        synchronizer.submit { $0.stopCurrentSynchronization() }
    }

    /// Sets closures run when the SDK background task is launched and when its time expires.
    ///
    /// - Parameters:
    ///   - launchHandler: called when the system launches the task.
    ///   - expirationHandler: called when the task's time runs out.
    public static func setBackgroundProcessClosures(launchHandler: (@Sendable () -> Void)?, expirationHandler: (@Sendable () -> Void)?) {
        synchronizer.hooks.update {
            $0.backgroundLaunch = launchHandler
            $0.backgroundExpiration = expirationHandler
        }
    }

    /// Runs a synchronization for a silent push notification.
    ///
    /// - Parameter backgroundFetchCompletion: called exactly once with the result, also when synchronization
    ///   is not active.
    public static func didReceiveSilentRemoteNotification(backgroundFetchCompletion: @escaping @Sendable (SynchronizationResult) -> Void) {
        synchronizer.submit { await $0.synchronize(source: .silentPushNotification, completion: backgroundFetchCompletion) }
    }

    /// Runs a synchronization for a background fetch.
    ///
    /// - Parameter backgroundFetchCompletion: called exactly once with the result, also when synchronization
    ///   is not active.
    public static func performFetchWithCompletionHandler(backgroundFetchCompletion: @escaping @Sendable (SynchronizationResult) -> Void) {
        synchronizer.submit { await $0.synchronize(source: .backgroundFetch, completion: backgroundFetchCompletion) }
    }

    /// Turns monitoring of one Connection's geofences on or off. The switch is saved at once, survives
    /// relaunches and is never reset by a refresh; it runs no synchronization.
    ///
    /// - Parameters:
    ///   - enabled: whether the Connection's geofences are monitored.
    ///   - connectionId: the Connection.
    public static func setGeofencesEnabled(enabled: Bool, for connectionId: String) {
        let synchronizer = self.synchronizer
        do {
            if try synchronizer.geofenceToggles.setEnabled(enabled, for: connectionId) {
                synchronizer.submit { await $0.geofenceSwitchesChanged() }
            }
        } catch {
            synchronizer.logger.log("the geofence switch could not be saved: \(error)")
        }
    }

    /// Whether one Connection's geofences are monitored: the saved switch, `true` when never set.
    ///
    /// - Parameter connectionId: the Connection.
    /// - Returns: The switch.
    public static func geofencesEnabled(for connectionId: String) -> Bool {
        synchronizer.geofenceToggles.isEnabled(connectionId)
    }

    /// Sets the closure that receives location event reports: recorded, upload attempted, succeeded, failed.
    /// It is called on the synchronizer's executor, not on the main thread.
    ///
    /// - Parameter closure: the receiver, or `nil`.
    public static func setLocationEventReportedClosure(_ closure: (@Sendable ([LocationEvent]) -> Void)?) {
        synchronizer.hooks.update { $0.locationEvents = closure }
    }

    /// Whether synchronization logs. Default `false`; when `false`, neither `NSLog` nor the custom handler runs.
    public static var synchronizationLoggingEnabled: Bool {
        get { synchronizer.logger.isEnabled }
        set { synchronizer.logger.isEnabled = newValue }
    }

    /// Receives synchronization log lines instead of `NSLog`. Lines never contain a token or an invite code.
    public static var synchronizationLoggingHandler: (@Sendable (String) -> Void)? {
        get { synchronizer.logger.customHandler }
        set { synchronizer.logger.customHandler = newValue }
    }

    /// The original SDK's (misspelt) name of ``synchronizationLoggingHandler``.
    @available(*, deprecated, renamed: "synchronizationLoggingHandler")
    public static var synchnronizationLoggingHandler: (@Sendable (String) -> Void)? {
        get { synchronizationLoggingHandler }
        set { synchronizationLoggingHandler = newValue }
    }

    /// Called when IFTTT rejects the saved credentials (401). Nothing is deleted: geofences stay monitored,
    /// crossings stay stored, and synchronization resumes after ``setup(with:lifecycleSynchronizationOptions:)``
    /// or ``update(with:)`` with new credentials. Called on the synchronizer's executor.
    public static var authenticationFailureHandler: (@Sendable () -> Void)? {
        get { synchronizer.hooks.value.authenticationFailure }
        set { synchronizer.hooks.update { $0.authenticationFailure = newValue } }
    }
}
