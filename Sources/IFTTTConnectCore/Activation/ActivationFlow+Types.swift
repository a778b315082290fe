import Foundation

/// The values the flow works with: its attempts, steps, events and effects.
extension ActivationFlow {
    /// One activation attempt: started by a toggle, ended by a redirect, a failure or a cancel.
    struct Attempt: Sendable, Hashable {
        /// The funnel session id.
        var sessionId: UUID
        /// The `state` sent to IFTTT for this attempt.
        var nonce: RedirectNonce
        /// Whether the IFTTT app can be opened.
        var appInstalled: Bool
        /// Whether the credential provider had a user token when the attempt started.
        var hasUserToken: Bool
        /// The OAuth and invite codes, for the URLs.
        var credentials: ActivationURLBuilder.Credentials
        /// The mail-app schemes that can be opened, offered to existing users on the web page.
        var installedMailApps: [String] = []
        /// Whether something can vouch for the token this attempt would hand over (see ``UserTokenTrust``): a
        /// partner backend, a user token, an app verifier, or the app's explicit choice of unvouched tokens.
        /// An attempt that cannot fails at once with ``ConnectButtonControllerError/noPartnerBackend``.
        var canVouch = true
    }

    /// How the user is identified.
    enum LookupMethod: Sendable, Hashable {
        /// `GET /me` with the credential provider's user token.
        case token
        /// `GET /account/find?email=`.
        case email(String)
    }

    /// Where an activation that goes through the web page is.
    enum WebPhase: Sendable, Hashable {
        /// "Creating account" is shown until the deadline.
        case creatingAccount(until: UInt64)
        /// "Going to the service" is shown until the deadline.
        case continueToService(until: UInt64)
        /// The web page is open; the flow waits for the redirect.
        case open
    }

    /// The flow's states.
    enum Step: Sendable, Hashable {
        case loading(retry: Int)
        case waitingToRetry(retry: Int, until: UInt64)
        case loadingFailed
        case initial
        case enterEmail(Attempt, invalidUntil: UInt64?)
        case identifyUser(Attempt, LookupMethod)
        /// `opensAt` is the time the hand-off URL will be opened, `nil` once it was.
        case appHandoff(Attempt, URL, opensAt: UInt64?)
        case activateConnection(Attempt, ActivationUser, WebPhase)
        case activationComplete(until: UInt64)
        case connected
        case processDisconnect(UUID)
        case disconnected(until: UInt64)
    }

    /// How a web session ended without a redirect.
    enum WebSessionEnd: Sendable, Hashable {
        /// The user closed it.
        case cancelled
        /// It failed, or returned a URL that was not an expected redirect.
        case failed(ConnectButtonControllerError)
    }

    /// What the shell tells the flow.
    enum Event: Sendable, Hashable {
        case start
        case connectionLoaded(retry: Int, Result<Connection, ConnectAPIError>)
        case retryLoading
        /// A scheduled time was reached.
        case tick
        /// Tap or drag of the button's knob, with what the shell knows at that moment.
        case toggle(Attempt)
        case emailConfirmed(String)
        case userLookupFinished(UUID, Result<ActivationUser, ConnectButtonControllerError>)
        case appHandoffOpenFailed(UUID)
        case appDidEnterBackground
        case webSessionEnded(UUID, WebSessionEnd)
        case redirectReceived(RedirectNonce, RedirectOutcome)
        case disconnectFinished(UUID, Result<Connection, ConnectAPIError>)
        case cancel
    }

    /// What the shell must do.
    enum Effect: Sendable, Hashable {
        case fetchConnection(retry: Int)
        case scheduleTick(at: UInt64)
        case lookUpUser(UUID, LookupMethod)
        case awaitRedirect(RedirectNonce)
        case stopAwaitingRedirect(RedirectNonce)
        case openAppHandoff(UUID, URL)
        case startWebSession(UUID, URL)
        case dismissWebSession
        case disconnect(UUID)
        case reportActivation(Result<ConnectionActivation, ConnectButtonControllerError>)
        case reportDeactivation(Result<Connection, ConnectButtonControllerError>)
        case funnel(ActivationFunnelEvent.Kind)
    }
}

extension ActivationFlow.Event {
    /// The event's name for logs, without its payload.
    var logName: String {
        switch self {
        case .start: return "start"
        case .connectionLoaded(let retry, let result):
            return "connectionLoaded(retry: \(retry), \(result.isSuccess ? "ok" : "failed"))"
        case .retryLoading: return "retryLoading"
        case .tick: return "tick"
        case .toggle: return "toggle"
        case .emailConfirmed: return "emailConfirmed"
        case .userLookupFinished(_, let result): return "userLookupFinished(\(result.isSuccess ? "ok" : "failed"))"
        case .appHandoffOpenFailed: return "appHandoffOpenFailed"
        case .appDidEnterBackground: return "appDidEnterBackground"
        case .webSessionEnded: return "webSessionEnded"
        case .redirectReceived: return "redirectReceived"
        case .disconnectFinished(_, let result): return "disconnectFinished(\(result.isSuccess ? "ok" : "failed"))"
        case .cancel: return "cancel"
        }
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// `success` or the error's description (errors of this SDK never contain secrets).
    var logText: String {
        switch self {
        case .success: return "success"
        case .failure(let error): return "failure: \(error)"
        }
    }
}
