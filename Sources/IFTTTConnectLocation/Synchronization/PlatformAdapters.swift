import Foundation
@_spi(Sandbox) import IFTTTConnectCore
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif
#if canImport(BackgroundTasks) && (os(iOS) || IFTTT_APPLE_STUB_CHECK)
import BackgroundTasks
#endif
#if canImport(CoreLocation)
import CoreLocation
#endif

extension Synchronizer.Configuration {
    /// The platform's defaults: CoreLocation region monitoring where it exists (a `SimulatedRegionMonitor`
    /// with nothing to replay elsewhere), `BGTaskScheduler` on iOS, and CoreLocation's "Always" prompt.
    /// Create it on the main thread, early at launch.
    @MainActor
    public static func platformDefault() -> Synchronizer.Configuration {
        #if canImport(CoreLocation)
        return platform(regionMonitor: CoreLocationRegionMonitor())
        #else
        return platform(regionMonitor: SimulatedRegionMonitor())
        #endif
    }

    /// ``platformDefault()`` from any thread, without waiting for the main thread: off the main thread the
    /// CoreLocation monitor is created on the main actor soon after, by a ``MainActorRegionMonitor``.
    static func platformDefaultFromAnyThread() -> Synchronizer.Configuration {
        if isOnMainQueue() { return MainActor.assumeIsolated { platformDefault() } }
        #if canImport(CoreLocation)
        return platform(regionMonitor: MainActorRegionMonitor { CoreLocationRegionMonitor() })
        #else
        return platform(regionMonitor: SimulatedRegionMonitor())
        #endif
    }

    /// The platform's defaults around `regionMonitor`.
    private static func platform(regionMonitor: any RegionMonitor) -> Synchronizer.Configuration {
        var configuration = Synchronizer.Configuration(regionMonitor: regionMonitor)
        #if canImport(CoreLocation)
        configuration.permissionRequester = { await CoreLocationPermissionRequester.shared.requestAlways() }
        #endif
        #if canImport(BackgroundTasks) && (os(iOS) || IFTTT_APPLE_STUB_CHECK)
        configuration.taskScheduler = BackgroundTasksScheduler()
        #endif
        return configuration
    }
}

extension ConnectButtonController {
    /// Observes the app's lifecycle notifications on UIKit platforms; `nil` elsewhere, where the host app calls
    /// ``Synchronizer/applicationDidBecomeActive()`` and ``Synchronizer/applicationDidEnterBackground()``.
    static func makeLifecycleObservation() -> AnyObject? {
        #if canImport(UIKit) && !os(watchOS)
        return ApplicationLifecycleObservation()
        #else
        return nil
        #endif
    }
}

#if canImport(UIKit) && !os(watchOS)
/// Forwards `UIApplication.didBecomeActiveNotification` and `didEnterBackgroundNotification` to the shared
/// synchronizer until released.
// @unchecked: it holds NotificationCenter tokens (not Sendable), written once in init and only removed in deinit.
final class ApplicationLifecycleObservation: @unchecked Sendable {
    private var tokens: [any NSObjectProtocol] = []

    @MainActor
    init() {
        let center = NotificationCenter.default
        tokens.append(
            center.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) { _ in
                MainActor.assumeIsolated { ConnectButtonController.synchronizer.applicationDidBecomeActive() }
            })
        tokens.append(
            center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { _ in
                MainActor.assumeIsolated { ConnectButtonController.synchronizer.applicationDidEnterBackground() }
            })
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}

extension SynchronizationResult {
    /// The matching `UIBackgroundFetchResult`.
    var backgroundFetchResult: UIBackgroundFetchResult {
        switch self {
        case .newData: return .newData
        case .noData: return .noData
        case .failed: return .failed
        }
    }
}

extension ConnectButtonController {
    /// Runs a synchronization for a silent push notification; pass the `fetchCompletionHandler` of
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`. It is called exactly once, on the
    /// main thread. Callable from any thread.
    ///
    /// - Parameter backgroundFetchCompletion: the system's completion handler.
    public nonisolated static func didReceiveSilentRemoteNotification(
        backgroundFetchCompletion: ((UIBackgroundFetchResult) -> Void)?
    ) {
        let callback = backgroundFetchCompletion.map { HostCallback($0, on: .main) }
        synchronizer.engine.enqueue {
            $0.synchronize(source: .silentPushNotification) { callback?($0.backgroundFetchResult) }
        }
    }

    /// Runs a synchronization for a background fetch; pass the completion handler of
    /// `application(_:performFetchWithCompletionHandler:)`. It is called exactly once, on the main thread.
    /// Callable from any thread.
    ///
    /// - Parameter backgroundFetchCompletion: the system's completion handler.
    public nonisolated static func performFetchWithCompletionHandler(
        backgroundFetchCompletion: ((UIBackgroundFetchResult) -> Void)?
    ) {
        let callback = backgroundFetchCompletion.map { HostCallback($0, on: .main) }
        synchronizer.engine.enqueue { $0.synchronize(source: .backgroundFetch) { callback?($0.backgroundFetchResult) } }
    }
}
#endif

#if canImport(BackgroundTasks) && (os(iOS) || IFTTT_APPLE_STUB_CHECK)
/// The ``TaskScheduler`` adapter for `BGTaskScheduler.shared` and `BGProcessingTaskRequest`.
///
/// Follows Apple's documentation: the launch handler is registered once, before the app finishes launching,
/// for an identifier listed in `BGTaskSchedulerPermittedIdentifiers`; the app needs the `processing`
/// background mode.
@_spi(Sandbox) public struct BackgroundTasksScheduler: TaskScheduler {
    /// Creates the adapter.
    public init() {}

    /// `BGTaskScheduler.shared.register(forTaskWithIdentifier:using:launchHandler:)`.
    public func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundTask) -> Void) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            launchHandler(SystemBackgroundTask(task))
        }
    }

    /// `BGTaskScheduler.shared.submit(_:)` with a `BGProcessingTaskRequest`.
    public func submit(_ request: BackgroundTaskRequest) throws {
        let processing = BGProcessingTaskRequest(identifier: request.identifier)
        processing.earliestBeginDate = request.earliestBeginDate
        processing.requiresNetworkConnectivity = request.requiresNetworkConnectivity
        processing.requiresExternalPower = request.requiresExternalPower
        try BGTaskScheduler.shared.submit(processing)
    }

    /// `BGTaskScheduler.shared.cancel(taskRequestWithIdentifier:)`.
    public func cancel(identifier: String) {
        BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: identifier)
    }
}

/// A launched `BGTask`.
// @unchecked: it wraps a `BGTask` (an Apple object, not Sendable), which may be used from any thread.
final class SystemBackgroundTask: BackgroundTask, @unchecked Sendable {
    private let task: BGTask

    init(_ task: BGTask) { self.task = task }

    func setExpirationHandler(_ handler: (@Sendable () -> Void)?) {
        task.expirationHandler = handler
    }

    func setTaskCompleted(success: Bool) {
        task.setTaskCompleted(success: success)
    }
}
#endif

#if canImport(CoreLocation)
/// Asks for "Always" location authorization once, without blocking any thread.
@MainActor
final class CoreLocationPermissionRequester {
    /// The one requester: process-wide because authorization is per app, and the `CLLocationManager` that asks
    /// must stay alive until the user answers (a requester created per call would be released mid-prompt).
    static let shared = CoreLocationPermissionRequester()
    private let manager = CLLocationManager()

    func requestAlways() {
        #if !os(tvOS)
        // Does nothing once the user has answered; never blocks (spec W-7).
        manager.requestAlwaysAuthorization()
        #endif
    }
}
#endif
