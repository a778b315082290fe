import Foundation

/// The app-wide analytics opt-out. `AnalyticsSwitch.shared.isEnabled = false` stops collection at once:
/// new events are ignored, events waiting in every ``AnalyticsUploader`` are dropped, and requests in flight
/// are cancelled. The choice lasts while the process runs; store the user's preference yourself and set it at
/// every launch.
///
/// ```swift
/// AnalyticsSwitch.shared.isEnabled = userAllowsAnalytics
/// ```
public final class AnalyticsSwitch: @unchecked Sendable {
    /// The switch every uploader uses unless told otherwise.
    public static let shared = AnalyticsSwitch()

    private let lock = NSLock()
    private var enabled: Bool
    private var observers: [UUID: @Sendable (Bool) -> Void] = [:]

    /// Creates a switch (tests use their own so they do not affect each other).
    public init(isEnabled: Bool = true) {
        enabled = isEnabled
    }

    /// Whether analytics is collected and sent. Setting it notifies every uploader.
    public var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set {
            let handlers: [@Sendable (Bool) -> Void] = lock.withLock {
                guard enabled != newValue else { return [] }
                enabled = newValue
                return Array(observers.values)
            }
            for handler in handlers { handler(newValue) }
        }
    }

    func addObserver(_ handler: @escaping @Sendable (Bool) -> Void) -> UUID {
        let id = UUID()
        lock.withLock { observers[id] = handler }
        return id
    }

    func removeObserver(_ id: UUID) {
        _ = lock.withLock { observers.removeValue(forKey: id) }
    }
}
