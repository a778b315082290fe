import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// A background processing task request, as the platform's scheduler takes it (`BGProcessingTaskRequest`).
@_spi(Sandbox) public struct BackgroundTaskRequest: Sendable, Hashable {
    /// The task identifier; it must be listed in `BGTaskSchedulerPermittedIdentifiers`.
    public var identifier: String
    /// The task runs no earlier than this.
    public var earliestBeginDate: Date
    /// Whether the task needs network connectivity.
    public var requiresNetworkConnectivity: Bool
    /// Whether the task needs external power.
    public var requiresExternalPower: Bool

    /// Creates a request.
    public init(
        identifier: String, earliestBeginDate: Date, requiresNetworkConnectivity: Bool, requiresExternalPower: Bool
    ) {
        self.identifier = identifier
        self.earliestBeginDate = earliestBeginDate
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.requiresExternalPower = requiresExternalPower
    }
}

/// A background task the system launched (a `BGTask`).
@_spi(Sandbox) public protocol BackgroundTask: AnyObject, Sendable {
    /// Sets the closure the system calls when the task's time runs out.
    func setExpirationHandler(_ handler: (@Sendable () -> Void)?)
    /// Tells the system the task finished. The synchronizer calls it exactly once per task.
    func setTaskCompleted(success: Bool)
}

/// The background-task port: the platform's `BGTaskScheduler`, as the synchronizer needs it.
///
/// The adapter on iOS is `BackgroundTasksScheduler`; elsewhere there is none and the host app runs
/// synchronizations itself (`ConnectButtonController.startBackgroundProcess(success:)`).
@_spi(Sandbox) public protocol TaskScheduler: Sendable {
    /// Registers the launch handler for `identifier`. Must be called before the app finishes launching, once.
    ///
    /// - Returns: Whether the platform accepted the registration.
    func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundTask) -> Void) -> Bool
    /// Submits a request, replacing an earlier one with the same identifier.
    ///
    /// - Throws: The platform's error when the request is refused.
    func submit(_ request: BackgroundTaskRequest) throws
    /// Cancels the pending request with `identifier`.
    func cancel(identifier: String)
}

/// Calls a closure at most once, from any thread.
final class OnceFlag: Sendable {
    private let done = Locked(false)

    /// Whether this call is the first; later calls return `false`.
    func claim() -> Bool {
        done.withLock { done in
            if done { return false }
            done = true
            return true
        }
    }
}
