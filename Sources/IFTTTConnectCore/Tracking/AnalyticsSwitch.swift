import Foundation

/// The app-wide analytics opt-out. `AnalyticsSwitch.shared.isEnabled = false` stops collection at once:
/// new events are ignored, events waiting in every ``AnalyticsUploader`` are dropped, and requests in flight
/// are cancelled. The choice lasts while the process runs; store the user's preference yourself and set it at
/// every launch.
///
/// ```swift
/// AnalyticsSwitch.shared.isEnabled = userAllowsAnalytics
/// ```
@_spi(Sandbox) public final class AnalyticsSwitch: Sendable {
    /// The switch every uploader uses unless told otherwise.
    ///
    /// Process-wide on purpose: it backs ConnectSDK-iOS 2.8's static
    /// ``ConnectButtonController/analyticsEnabled``, which has no instance to hang a switch on, and the user's
    /// opt-out must reach every uploader of the app at once. Code that wants its own switch (tests, a second
    /// account) passes one to ``AnalyticsUploader/init(network:queue:analyticsSwitch:clock:)``.
    public static let shared = AnalyticsSwitch()

    private struct State {
        var enabled: Bool
        var observers: [UUID: @Sendable (Bool) -> Void] = [:]
    }

    private let state: Locked<State>

    /// Creates a switch (tests use their own so they do not affect each other).
    public init(isEnabled: Bool = true) {
        state = Locked(State(enabled: isEnabled))
    }

    /// Whether analytics is collected and sent. Setting it notifies every uploader.
    public var isEnabled: Bool {
        get { state.withLock { $0.enabled } }
        set {
            let handlers: [@Sendable (Bool) -> Void] = state.withLock { state in
                guard state.enabled != newValue else { return [] }
                state.enabled = newValue
                return Array(state.observers.values)
            }
            for handler in handlers { handler(newValue) }
        }
    }

    func addObserver(_ handler: @escaping @Sendable (Bool) -> Void) -> UUID {
        let id = UUID()
        state.withLock { $0.observers[id] = handler }
        return id
    }

    func removeObserver(_ id: UUID) {
        _ = state.withLock { $0.observers.removeValue(forKey: id) }
    }
}
