import Foundation

/// What a `ConnectFlowButton` tells the app when a flow ends: each outcome its own case, so turning the
/// Connection off and a failure are never mistaken for each other, and a cancel is not a failure.
public enum ConnectFlowEvent: Sendable, Hashable, CustomStringConvertible {
    /// The user turned the Connection on; keep ``ConnectionActivation/userToken``.
    case activated(ConnectionActivation)
    /// The user turned the Connection off.
    case deactivated(Connection)
    /// The user (or the app) stopped the activation before it finished: the web page was closed, or IFTTT's
    /// configuration screen was cancelled. Nothing changed.
    case cancelled
    /// Turning the Connection on failed.
    case activationFailed(ConnectButtonControllerError)
    /// Turning the Connection off failed; it is still on.
    case deactivationFailed(ConnectButtonControllerError)

    /// The event for an activation's result.
    init(activation result: Result<ConnectionActivation, ConnectButtonControllerError>) {
        switch result {
        case .success(let activation): self = .activated(activation)
        case .failure(.canceled), .failure(.userCancelledConfiguration): self = .cancelled
        case .failure(let error): self = .activationFailed(error)
        }
    }

    /// The event for a deactivation's result.
    init(deactivation result: Result<Connection, ConnectButtonControllerError>) {
        switch result {
        case .success(let connection): self = .deactivated(connection)
        case .failure(let error): self = .deactivationFailed(error)
        }
    }

    /// The case and its value, e.g. `activated(gx-arrive-store)`.
    public var description: String {
        switch self {
        case .activated(let activation): return "activated(\(activation.connection.id))"
        case .deactivated(let connection): return "deactivated(\(connection.id))"
        case .cancelled: return "cancelled"
        case .activationFailed(let error): return "activationFailed(\(error))"
        case .deactivationFailed(let error): return "deactivationFailed(\(error))"
        }
    }
}

/// What a `ConnectFlowButton` shows, as an app observes it: whether the Connection is on for this user and
/// whether a flow is under way (loading, waiting for the user or for IFTTT).
public struct ConnectFlowStatus: Sendable, Hashable {
    /// The Connection is on for the user.
    public var isConnected: Bool
    /// The button is working: loading the Connection, running an activation or a deactivation.
    public var isBusy: Bool

    /// The status of a controller's step.
    init(step: ConnectButtonStep) {
        switch step {
        case .connected, .activationComplete:
            self.init(isConnected: true, isBusy: false)
        case .disconnecting:
            self.init(isConnected: true, isBusy: true)
        case .initial, .disconnected, .loadingFailed:
            self.init(isConnected: false, isBusy: false)
        case .loading, .enterEmail, .verifyingUser, .creatingAccount, .continueToService, .appHandoff,
            .waitingForRedirect:
            self.init(isConnected: false, isBusy: true)
        }
    }

    init(isConnected: Bool, isBusy: Bool) {
        self.isConnected = isConnected
        self.isBusy = isBusy
    }
}

/// The part of a `ConnectFlowButton`'s inputs that decides its flow: when it changes between two updates of the
/// view, the button starts over with the new values (a flow under way finishes first).
struct ConnectFlowSettings: Equatable {
    var connectionId: String
    var suggestedUserEmail: String
    var redirectURL: URL
    var skipConnectionConfiguration: Bool
    var userTokenTrust: UserTokenTrust
    var localeIdentifier: String
    var connectBaseURL: URL
    var webActivationBaseURL: URL

    init(
        configuration: ConnectionConfiguration, controllerConfiguration: ConnectButtonController.Configuration,
        locale: Locale
    ) {
        connectionId = configuration.connectionId
        suggestedUserEmail = configuration.suggestedUserEmail
        redirectURL = configuration.redirectURL
        skipConnectionConfiguration = configuration.skipConnectionConfiguration
        userTokenTrust = configuration.userTokenTrust
        localeIdentifier = locale.identifier
        connectBaseURL = controllerConfiguration.networkController.configuration.connectBaseURL
        webActivationBaseURL = controllerConfiguration.webActivationBaseURL
    }
}

/// When a `ConnectFlowButton` takes new settings: at once while no flow is under way, else when it ends, so a
/// view update in the middle of an activation never drops the user's flow.
struct ConnectFlowRestartPolicy: Equatable {
    private(set) var current: ConnectFlowSettings
    private(set) var pending: ConnectFlowSettings?

    init(_ settings: ConnectFlowSettings) { current = settings }

    /// New inputs from a view update; `true` when the controller is to be created again now.
    mutating func update(_ settings: ConnectFlowSettings, busy: Bool) -> Bool {
        if settings == current {
            pending = nil
            return false
        }
        if busy {
            pending = settings
            return false
        }
        current = settings
        pending = nil
        return true
    }

    /// The flow's status changed; `true` when settings that waited are to be taken now.
    mutating func statusChanged(busy: Bool) -> Bool {
        guard !busy, let waiting = pending else { return false }
        current = waiting
        pending = nil
        return true
    }
}
