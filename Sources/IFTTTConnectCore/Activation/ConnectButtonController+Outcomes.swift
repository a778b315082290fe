import Foundation

/// What a Connect Button's flow produced, for other modules of this package (the location synchronizer)
/// that act on it. Not public: apps use the delegate or the async API.
package enum ConnectButtonOutcome: Sendable {
    /// The button showed a Connection it loaded (the user's current configuration when a token was sent).
    case connectionShown(Connection, credentials: ConnectionCredentials)
    /// An activation finished; ``ConnectionActivation/userToken`` is the token the redirect carried, if any.
    case activated(ConnectionActivation, credentials: ConnectionCredentials)
    /// A deactivation finished; the Connection is now disabled.
    case deactivated(Connection, credentials: ConnectionCredentials)
}

extension ConnectButtonController {
    /// Receives every controller's outcomes, after the delegate. Set by the location synchronizer when it is
    /// initialized; `nil` (the default) costs nothing.
    ///
    /// It is one process-wide hook, not a dependency injected into each controller, on purpose: the 2.8 API that
    /// installs it, the static `ConnectButtonController.initialize(options:)` / `activate(connections:)` of
    /// IFTTTConnectLocation, has no controller instance to inject into, and apps create their buttons'
    /// controllers themselves, without the location module's knowledge. It is read and written on the main actor
    /// only (where controllers report outcomes), so it needs no lock.
    package static var outcomeObserver: (@MainActor (ConnectButtonOutcome) -> Void)?

    /// Forwards an outcome to ``outcomeObserver``.
    static func reportOutcome(_ outcome: ConnectButtonOutcome) {
        outcomeObserver?(outcome)
    }
}
