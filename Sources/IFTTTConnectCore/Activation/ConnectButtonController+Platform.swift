import Foundation
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

extension ConnectButtonController {
    /// `UIApplication` on iOS, ``SystemBrowserURLOpener`` elsewhere.
    static func platformURLOpener() -> any URLOpener {
        #if canImport(UIKit) && !os(watchOS)
        return UIApplicationURLOpener()
        #else
        return SystemBrowserURLOpener()
        #endif
    }

    /// `ASWebAuthenticationSession` on iOS and macOS, the system browser elsewhere.
    func makePlatformWebSession() -> any WebAuthenticationSession {
        #if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || IFTTT_APPLE_STUB_CHECK)
        return SystemWebAuthenticationSession { [weak self] in self?.delegate?.webAuthenticationPresentationAnchor() }
        #else
        return BrowserWebAuthenticationSession(opener: SystemBrowserURLOpener())
        #endif
    }

    /// Calls `action` when the app enters the background (iOS); the returned object stops observing when released.
    static func observeBackground(_ action: @escaping @MainActor () -> Void) -> AnyObject? {
        #if canImport(UIKit) && !os(watchOS)
        return NotificationObservation(name: UIApplication.didEnterBackgroundNotification, action: action)
        #else
        return nil
        #endif
    }
}

/// Observes one notification on the main queue until released. Not `Sendable`: the controller that owns it
/// keeps it on the main actor.
final class NotificationObservation {
    private let token: any NSObjectProtocol

    init(name: Notification.Name, action: @escaping @MainActor () -> Void) {
        token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { action() }
        }
    }

    deinit {
        NotificationCenter.default.removeObserver(token)
    }
}
