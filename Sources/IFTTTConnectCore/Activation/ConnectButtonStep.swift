import Foundation

/// What the Connect Button shows: the visible step of the activation flow.
///
/// A ``ConnectButtonPresenting`` button draws it; a headless program can print it.
@_spi(Sandbox) public enum ConnectButtonStep: Sendable, Hashable, CustomStringConvertible {
    /// The Connection is loading.
    case loading
    /// The Connection could not be loaded; ``ConnectButtonController/retryLoading()`` tries again.
    case loadingFailed
    /// Ready to connect (or, for an enabled Connection after a failure, showing its status).
    case initial
    /// Asking for the user's email; `invalid` while the last confirmed text was rejected.
    case enterEmail(invalid: Bool)
    /// Checking who the user is (`/me` or the account lookup).
    case verifyingUser
    /// IFTTT has no account for this email; the web flow will create one.
    case creatingAccount
    /// Going to the connecting service's page.
    case continueToService
    /// Opening the IFTTT app, or waiting for it to send the user back.
    case appHandoff
    /// The activation page is open; waiting for the redirect.
    case waitingForRedirect
    /// The Connection was activated.
    case activationComplete
    /// The Connection is on.
    case connected
    /// Turning the Connection off.
    case disconnecting
    /// The Connection was turned off.
    case disconnected

    /// A short name, such as `enterEmail(invalid)`.
    public var description: String {
        switch self {
        case .loading: return "loading"
        case .loadingFailed: return "loadingFailed"
        case .initial: return "initial"
        case .enterEmail(let invalid): return invalid ? "enterEmail(invalid)" : "enterEmail"
        case .verifyingUser: return "verifyingUser"
        case .creatingAccount: return "creatingAccount"
        case .continueToService: return "continueToService"
        case .appHandoff: return "appHandoff"
        case .waitingForRedirect: return "waitingForRedirect"
        case .activationComplete: return "activationComplete"
        case .connected: return "connected"
        case .disconnecting: return "disconnecting"
        case .disconnected: return "disconnected"
        }
    }
}

/// One step of the activation funnel, as ``ConnectButtonController/events()`` reports it.
///
/// Every event names the flow session it belongs to: a new session starts each time the user (or
/// ``ConnectButtonController/connect(email:)``) starts an activation or a deactivation; events before that
/// carry the controller's first session id.
@_spi(Sandbox) public struct ActivationFunnelEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The button showed a loaded Connection.
        case impression
        /// Loading the Connection failed; `willRetry` when another attempt is scheduled.
        case connectionLoadFailed(willRetry: Bool)
        /// The user started an activation.
        case activationStarted
        /// The button asks for an email.
        case emailRequested
        /// The confirmed email was rejected by ``EmailValidator``.
        case emailRejected
        /// The user lookup started; `byToken` for `/me`, else the account lookup by email.
        case userLookupStarted(byToken: Bool)
        /// The user was identified; `isNewUser` when IFTTT has no account for the email.
        case userIdentified(isNewUser: Bool)
        /// The IFTTT app was opened with the hand-off URL.
        case appHandoffOpened
        /// The app went to the background during the hand-off; the button shows its initial step.
        case appHandoffBackgrounded
        /// The activation web page was opened.
        case webSessionStarted
        /// A redirect with this session's `state` was accepted.
        case redirectAccepted
        /// The activation finished successfully.
        case activated
        /// The activation failed.
        case activationFailed(ConnectButtonControllerError)
        /// The user started turning the Connection off.
        case deactivationStarted
        /// The Connection was turned off.
        case deactivated
        /// Turning the Connection off failed.
        case deactivationFailed(ConnectButtonControllerError)
        /// The step changed after a pause (a timer), with nothing else happening.
        case stepTimedOut
    }

    /// The flow session the event belongs to.
    public let sessionId: UUID
    /// What happened.
    public let kind: Kind
    /// The step the button shows after the event.
    public let step: ConnectButtonStep
    /// Milliseconds since the controller was created, on its clock.
    public let elapsedMilliseconds: UInt64

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - sessionId: The flow session.
    ///   - kind: What happened.
    ///   - step: The step after the event.
    ///   - elapsedMilliseconds: Milliseconds since the controller was created.
    public init(sessionId: UUID, kind: Kind, step: ConnectButtonStep, elapsedMilliseconds: UInt64) {
        self.sessionId = sessionId
        self.kind = kind
        self.step = step
        self.elapsedMilliseconds = elapsedMilliseconds
    }

    /// A one-line description, without secrets.
    public var description: String {
        "[\(sessionId.uuidString.prefix(8))] +\(elapsedMilliseconds)ms \(kind) -> \(step)"
    }
}
