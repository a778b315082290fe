import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// A closure that receives a `Bool`, as ConnectSDK-iOS 2.8 names it
/// (`ConnectButtonController.startBackgroundProcess(success:)`).
public typealias BoolClosure = (Bool) -> Void

/// A closure with no argument and no result, as ConnectSDK-iOS 2.8 names it.
public typealias VoidClosure = () -> Void

/// How `ConnectButtonController.initialize(options:)` sets up synchronization.
public struct InitializerOptions: Sendable, Hashable {
    /// Whether the SDK registers and schedules its own background processing task
    /// (`com.ifttt.ifttt.synchronization_scheduler`). Default `false`.
    public var enableSDKBackgroundProcess: Bool
    /// Whether the SDK asks for "Always" location authorization when a Connection has geofences. Default `false`.
    public var showPermissionsPrompts: Bool

    /// Creates options; both default to `false`.
    public init(enableSDKBackgroundProcess: Bool = false, showPermissionsPrompts: Bool = false) {
        self.enableSDKBackgroundProcess = enableSDKBackgroundProcess
        self.showPermissionsPrompts = showPermissionsPrompts
    }

    /// The options `ConnectButtonController.initialize(options:)` uses when it is called without any: at first no
    /// SDK background process and no permission prompts. Assignable, as in 2.8
    /// (`InitializerOptions.standard = InitializerOptions(enableSDKBackgroundProcess: true)`), from any thread.
    public static var standard: InitializerOptions {
        get { standardOptions.withLock { $0 } }
        set { standardOptions.withLock { $0 = newValue } }
    }

    private static let standardOptions = Locked(InitializerOptions())
}

/// The application lifecycle events that run a synchronization.
public struct ApplicationLifecycleSynchronizationOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Synchronize when the app enters the background.
    public static let applicationDidEnterBackground = ApplicationLifecycleSynchronizationOptions(rawValue: 1 << 0)
    /// Synchronize when the app becomes active.
    public static let applicationDidBecomeActive = ApplicationLifecycleSynchronizationOptions(rawValue: 1 << 1)
    /// Both lifecycle events.
    public static let all: ApplicationLifecycleSynchronizationOptions = [
        .applicationDidEnterBackground, .applicationDidBecomeActive,
    ]
    /// No lifecycle event.
    public static let none: ApplicationLifecycleSynchronizationOptions = []

    /// The events, as 2.8 wrote them in its logs: `ApplicationDidBecomeActive, ApplicationDidEnterBackground`,
    /// one of them, or an empty string for ``none``.
    public var description: String {
        var names: [String] = []
        if contains(.applicationDidBecomeActive) { names.append("ApplicationDidBecomeActive") }
        if contains(.applicationDidEnterBackground) { names.append("ApplicationDidEnterBackground") }
        return names.joined(separator: ", ")
    }
}

/// How a synchronization ended; maps one to one to `UIBackgroundFetchResult` on iOS.
public enum SynchronizationResult: String, Sendable, Hashable, CaseIterable {
    /// Something changed: a Connection was refreshed with new data or events were uploaded.
    case newData
    /// Nothing needed doing, or synchronization is not active.
    case noData
    /// A request failed, the credentials were rejected, or the synchronization was stopped.
    case failed
}

/// Why a synchronization was requested.
@_spi(Sandbox) public enum SynchronizationSource: String, Sendable, Hashable, CaseIterable {
    /// The device entered or left a geofence.
    case regionEvent
    /// The user turned a Connection on with the Connect Button.
    case connectionEnabled
    /// The user turned a Connection off with the Connect Button.
    case connectionDisabled
    /// The Connect Button showed a Connection it loaded.
    case connectionShown
    /// `ConnectButtonController.activate(connections:lifecycleSynchronizationOptions:)`.
    case activation
    /// `ConnectButtonController.update(with:)`.
    case forceUpdate
    /// The app became active (with ``ApplicationLifecycleSynchronizationOptions/applicationDidBecomeActive``).
    case appDidBecomeActive
    /// The app entered the background (with ``ApplicationLifecycleSynchronizationOptions/applicationDidEnterBackground``).
    case appDidEnterBackground
    /// A background fetch.
    case backgroundFetch
    /// A silent push notification.
    case silentPushNotification
    /// The SDK's own background processing task.
    case internalBackgroundProcess
    /// The host app's background task (`ConnectButtonController.startBackgroundProcess(success:)`).
    case externalBackgroundProcess

    /// Whether the source already carries fresh Connection data from the Connect Button, so the stored
    /// Connections need not be fetched again.
    public var carriesFreshConnection: Bool {
        self == .connectionEnabled || self == .connectionDisabled || self == .connectionShown
    }
}
