// A ConnectSDK-iOS 2.8 app's use of the location synchronization API (the seed's Location.md), written as
// such an app writes it: `import IFTTTConnectSDK` alone, as 2.8 needed, brings the location API. It must
// type-check unchanged in Swift 5 and Swift 6 language modes:
//   swiftc -typecheck -I .build/debug/Modules -swift-version 5 Tests/ClientCompat/Location28.swift
//   swiftc -typecheck -I .build/debug/Modules -swift-version 6 Tests/ClientCompat/Location28.swift
import Foundation
import IFTTTConnectSDK
#if canImport(UIKit)
import UIKit
#endif

/// The app's own credentials, as 2.8 apps provide them.
struct GroceryCredentials: ConnectionCredentialProvider {
    var oauthCode: String { "oauth-code" }
    var userToken: String? { "user-token" }
    var inviteCode: String? { nil }
}

/// Mutable app state captured by the SDK's closures (not `Sendable`, as in most 2.8 apps).
final class SyncStatus {
    var lastBackgroundSuccess: Bool?
    var authenticationFailures = 0
    var logLines: [String] = []
    var eventCount = 0
}

@MainActor
enum LocationSetup {
    static let status = SyncStatus()

    /// Location.md "Initialization", "Opting in to the SDK schedule background processes", "Logging" and
    /// "Handling authentication failures".
    static func applicationWillFinishLaunching() {
        let options = InitializerOptions(enableSDKBackgroundProcess: true, showPermissionsPrompts: false)
        ConnectButtonController.initialize(options: options)
        ConnectButtonController.initialize(options: .standard)
        ConnectButtonController.initialize()
        ConnectButtonController.setupSDKBackgroundProcess()
        let background: Bool = options.enableSDKBackgroundProcess
        let prompts: Bool = InitializerOptions.standard.showPermissionsPrompts
        _ = (background, prompts)

        ConnectButtonController.synchronizationLoggingEnabled = true
        let enabled: Bool = ConnectButtonController.synchronizationLoggingEnabled
        _ = enabled
        ConnectButtonController.synchnronizationLoggingHandler = { line in
            status.logLines.append(line)
        }
        let logHandler: ((String) -> Void)? = ConnectButtonController.synchnronizationLoggingHandler
        ConnectButtonController.synchnronizationLoggingHandler = logHandler
        ConnectButtonController.authenticationFailureHandler = {
            status.authenticationFailures += 1
            setUpAndActivate(connectionIds: ["gx-arrive-store"])
        }
        let failureHandler: VoidClosure? = ConnectButtonController.authenticationFailureHandler
        ConnectButtonController.authenticationFailureHandler = failureHandler

        let launch: VoidClosure = { status.logLines.append("launched") }
        let expiration: VoidClosure = { ConnectButtonController.stopCurrentSynchronization() }
        ConnectButtonController.setBackgroundProcessClosures(launchHandler: launch, expirationHandler: expiration)
        ConnectButtonController.setBackgroundProcessClosures(launchHandler: nil, expirationHandler: nil)
        ConnectButtonController.setLocationEventReportedClosure { events in
            status.eventCount += events.count
        }
        ConnectButtonController.setLocationEventReportedClosure(nil)
    }

    /// Location.md "Setup" and "Activation".
    static func setUpAndActivate(connectionIds: [String]) {
        ConnectButtonController.setup(with: GroceryCredentials())
        ConnectButtonController.setup(with: nil)
        ConnectButtonController.activate(connections: connectionIds)
        ConnectButtonController.activate(connections: nil)
        ConnectButtonController.activate()
        ConnectButtonController.activate(connections: connectionIds, lifecycleSynchronizationOptions: .all)
        ConnectButtonController.activate(connections: connectionIds, lifecycleSynchronizationOptions: .none)
        let options: ApplicationLifecycleSynchronizationOptions = [
            .applicationDidEnterBackground, .applicationDidBecomeActive,
        ]
        ConnectButtonController.activate(connections: connectionIds, lifecycleSynchronizationOptions: options)
        let raw: Int = ApplicationLifecycleSynchronizationOptions.applicationDidBecomeActive.rawValue
        _ = raw
    }

    /// Location.md "Deactivation" and "Manual updates".
    static func signOut() {
        ConnectButtonController.deactivate()
    }

    static func refresh() {
        ConnectButtonController.update(with: GroceryCredentials())
        ConnectButtonController.update(with: nil)
        ConnectButtonController.update()
    }

    /// The settings screen's geofence toggle.
    static func toggleGeofences(for connectionId: String) {
        let current: Bool = ConnectButtonController.geofencesEnabled(for: connectionId)
        ConnectButtonController.setGeofencesEnabled(enabled: !current, for: connectionId)
    }

    /// "Alternatively, if you'd like to create your own background process/task": with a stored
    /// `BoolClosure` that touches the app's state, from a background queue, and an expiration that stops the
    /// synchronization from whatever thread the system uses.
    static func runOwnBackgroundTask(finished: @escaping BoolClosure) {
        let success: BoolClosure = { succeeded in
            status.lastBackgroundSuccess = succeeded
            finished(succeeded)
        }
        ConnectButtonController.startBackgroundProcess(success: success)
        ConnectButtonController.startBackgroundProcess { succeeded in
            status.lastBackgroundSuccess = succeeded
        }
        DispatchQueue.global(qos: .background).async {
            ConnectButtonController.startBackgroundProcess { succeeded in
                print("background synchronization succeeded: \(succeeded)")
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 25) {
            ConnectButtonController.stopCurrentSynchronization()
        }
        Thread.detachNewThread {
            ConnectButtonController.stopCurrentSynchronization()
            ConnectButtonController.activate(connections: ["gx-arrive-store"])
            _ = ConnectButtonController.geofencesEnabled(for: "gx-arrive-store")
        }
    }
}

#if canImport(UIKit)
/// Location.md "Advanced": silent pushes and background fetch, from the app delegate.
final class LocationAppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        LocationSetup.applicationWillFinishLaunching()
        return true
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        ConnectButtonController.didReceiveSilentRemoteNotification(backgroundFetchCompletion: completionHandler)
    }

    func application(
        _ application: UIApplication,
        performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        ConnectButtonController.performFetchWithCompletionHandler(backgroundFetchCompletion: completionHandler)
        ConnectButtonController.performFetchWithCompletionHandler(backgroundFetchCompletion: nil)
    }
}
#else
/// Without UIKit the same calls take the SDK's `SynchronizationResult`.
enum PortableFetch {
    static func fetch(completion: @escaping (SynchronizationResult) -> Void) {
        ConnectButtonController.performFetchWithCompletionHandler(backgroundFetchCompletion: completion)
        ConnectButtonController.didReceiveSilentRemoteNotification(backgroundFetchCompletion: completion)
        ConnectButtonController.performFetchWithCompletionHandler(backgroundFetchCompletion: nil)
    }
}
#endif
