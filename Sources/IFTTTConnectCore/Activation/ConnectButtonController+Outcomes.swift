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

/// Where Connect Button controllers report their outcomes, and who listens: the owner of the observers.
///
/// A controller is given one in its ``ConnectButtonController/Configuration`` (`outcomes`, by default
/// ``shared``), and the location module's static API subscribes to the same one, so the two modules share an
/// object passed to each, not a static variable one of them writes. Tests pass their own. The process-wide
/// ``shared`` exists because the 2.8 API that subscribes, the static `ConnectButtonController.initialize(options:)`
/// of IFTTTConnectLocation, has no controller instance to inject into, and apps create their buttons'
/// controllers themselves (as ``RedirectRegistry/shared`` does for redirects).
package final class ConnectButtonOutcomes: Sendable {
    /// The channel controllers use unless their configuration names another.
    package static let shared = ConnectButtonOutcomes()

    private let observers = Locked<[UUID: @MainActor @Sendable (ConnectButtonOutcome) -> Void]>([:])

    /// Creates a channel without observers.
    package init() {}

    /// Adds `observer`; it receives every outcome reported from now on, on the main actor. Returns the token
    /// that ``removeObserver(_:)`` takes.
    @discardableResult
    package func addObserver(_ observer: @escaping @MainActor @Sendable (ConnectButtonOutcome) -> Void) -> UUID {
        let token = UUID()
        observers.withLock { $0[token] = observer }
        return token
    }

    /// Removes the observer added with `token`.
    package func removeObserver(_ token: UUID) {
        observers.withLock { $0[token] = nil }
    }

    /// How many observers listen.
    package var observerCount: Int { observers.withLock { $0.count } }

    /// Hands `outcome` to every observer.
    @MainActor
    func report(_ outcome: ConnectButtonOutcome) {
        for observer in observers.withLock({ Array($0.values) }) { observer(outcome) }
    }
}

extension ConnectButtonController {
    /// Forwards an outcome to the observers of the configuration's ``ConnectButtonOutcomes``, after the delegate.
    func reportOutcome(_ outcome: ConnectButtonOutcome) {
        configuration.outcomes.report(outcome)
    }
}
