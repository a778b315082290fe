import Foundation

/// Where the SDK reports text it could not find in the requested language (ConnectSDK-iOS 2.8's
/// `localizationLoggingEnabled` / `localizationLoggingHandler`).
final class LocalizationLogger: @unchecked Sendable {
    static let shared = LocalizationLogger()

    private let lock = NSLock()
    private var enabled = false
    private var handler: (@Sendable (String) -> Void)?

    var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set { lock.withLock { enabled = newValue } }
    }

    var customHandler: (@Sendable (String) -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    /// Logs `message()` when logging is on: to the custom handler when there is one, else with `NSLog`.
    func log(_ message: @autoclosure () -> String) {
        let (on, custom) = lock.withLock { (enabled, handler) }
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
