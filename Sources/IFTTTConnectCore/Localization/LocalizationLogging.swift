import Foundation

/// Where the SDK reports text it could not find in the requested language (ConnectSDK-iOS 2.8's
/// `localizationLoggingEnabled` / `localizationLoggingHandler`).
///
/// Process-wide on purpose: it backs 2.8's static ``ConnectButtonController/localizationLoggingEnabled`` and
/// ``ConnectButtonController/localizationLoggingHandler``, and ``ConnectLocalization`` is a plain value that
/// looks strings up without any controller, so there is no instance to inject a logger into.
final class LocalizationLogger: Sendable {
    static let shared = LocalizationLogger()

    private struct State {
        var enabled = false
        var handler: (@Sendable (String) -> Void)?
    }

    private let state = Locked(State())

    var isEnabled: Bool {
        get { state.withLock { $0.enabled } }
        set { state.withLock { $0.enabled = newValue } }
    }

    var customHandler: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// Logs `message()` when logging is on: to the custom handler when there is one, else with `NSLog`.
    func log(_ message: @autoclosure () -> String) {
        let (on, custom) = state.withLock { ($0.enabled, $0.handler) }
        guard on else { return }
        let text = message()
        if let custom {
            custom(text)
        } else {
            NSLog("%@", "[IFTTTConnectSDK] " + text)
        }
    }
}

extension ConnectButtonController {
    /// Whether the SDK logs the Connect Button's text it could not find in the requested language (and the
    /// language it used instead). `false` by default. The logs go to ``localizationLoggingHandler``, or to
    /// `NSLog` when no handler is set; they name string keys and locales only.
    ///
    /// ```swift
    /// ConnectButtonController.localizationLoggingEnabled = true
    /// ConnectButtonController.localizationLoggingHandler = { message in print(message) }
    /// ```
    public nonisolated static var localizationLoggingEnabled: Bool {
        get { LocalizationLogger.shared.isEnabled }
        set { LocalizationLogger.shared.isEnabled = newValue }
    }

    /// Receives the localization logs instead of `NSLog` while ``localizationLoggingEnabled`` is `true`.
    /// It may be called on any thread.
    public nonisolated static var localizationLoggingHandler: (@Sendable (String) -> Void)? {
        get { LocalizationLogger.shared.customHandler }
        set { LocalizationLogger.shared.customHandler = newValue }
    }
}
