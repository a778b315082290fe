import Foundation

/// The Connect Button's activation flow as a pure state machine (spec §2.3, without its dead states, plus
/// loading, cancellation and the redirect checks).
///
/// `handle(_:now:)` takes one event and the current time (milliseconds on the controller's clock) and returns
/// the effects for the shell (``ConnectButtonController``) to perform. It performs no I/O, reads no clock and
/// holds no user token except inside a completed redirect, where it is redacted from every description.
struct ActivationFlow: Sendable, Equatable {
    private(set) var step: Step
    private(set) var connection: Connection?
    /// The attempt whose redirect is awaited, if any. It can outlive its step: after the app goes to the
    /// background during a hand-off the button shows `initial` while the redirect is still expected.
    private(set) var pending: Attempt?
    /// The current funnel session.
    private(set) var sessionId: UUID
    let urls: ActivationURLBuilder
    let timing: ActivationTiming

    init(urls: ActivationURLBuilder, timing: ActivationTiming, connection: Connection?, sessionId: UUID) {
        self.urls = urls
        self.timing = timing
        self.connection = connection
        self.sessionId = sessionId
        self.step = .loading(retry: 0)
    }

    /// What the button shows.
    var visibleStep: ConnectButtonStep {
        switch step {
        case .loading, .waitingToRetry: return .loading
        case .loadingFailed: return .loadingFailed
        case .initial: return .initial
        case .enterEmail(_, let invalidUntil): return .enterEmail(invalid: invalidUntil != nil)
        case .identifyUser: return .verifyingUser
        case .appHandoff: return .appHandoff
        case .activateConnection(_, _, .creatingAccount): return .creatingAccount
        case .activateConnection(_, _, .continueToService): return .continueToService
        case .activateConnection(_, _, .open): return .waitingForRedirect
        case .activationComplete: return .activationComplete
        case .connected: return .connected
        case .processDisconnect: return .disconnecting
        case .disconnected: return .disconnected
        }
    }

    /// The time of the next scheduled change, if any.
    var deadline: UInt64? {
        switch step {
        case .waitingToRetry(_, let until), .activationComplete(let until), .disconnected(let until): return until
        case .enterEmail(_, let until): return until
        case .appHandoff(_, _, let opensAt): return opensAt
        case .activateConnection(_, _, .creatingAccount(let until)),
            .activateConnection(_, _, .continueToService(let until)):
            return until
        default: return nil
        }
    }

    // MARK: - Transitions

    /// Applies `event` at time `now` and returns the effects to perform, in order.
    mutating func handle(_ event: Event, now: UInt64) -> [Effect] {
        switch (event, step) {
        case (.start, .loading(retry: 0)):
            if let connection { return show(connection) }
            return [.fetchConnection(retry: 0)]

        case (.connectionLoaded(let retry, .success(let loaded)), .loading(let current)) where retry == current:
            return show(loaded)

        case (.connectionLoaded(let retry, .failure), .loading(let current)) where retry == current:
            guard retry < timing.loadRetryDelays.count else {
                step = .loadingFailed
                return [.funnel(.connectionLoadFailed(willRetry: false))]
            }
            let until = now + ActivationTiming.milliseconds(timing.loadRetryDelays[retry])
            step = .waitingToRetry(retry: retry + 1, until: until)
            return [.funnel(.connectionLoadFailed(willRetry: true)), .scheduleTick(at: until)]

        case (.retryLoading, .loadingFailed):
            step = .loading(retry: 0)
            return [.fetchConnection(retry: 0)]

        case (.tick, _):
            return tick(now: now)

        case (.toggle(let attempt), .initial):
            return startActivation(attempt, now: now)

        case (.toggle(let attempt), .connected):
            sessionId = attempt.sessionId
            step = .processDisconnect(attempt.sessionId)
            return [.funnel(.deactivationStarted), .disconnect(attempt.sessionId)]

        case (.emailConfirmed(let text), .enterEmail(let attempt, _)):
            guard let email = EmailValidator.normalized(text) else {
                let until = now + ActivationTiming.milliseconds(timing.invalidEmailDuration)
                step = .enterEmail(attempt, invalidUntil: until)
                return [.funnel(.emailRejected), .scheduleTick(at: until)]
            }
            step = .identifyUser(attempt, .email(email))
            return [.funnel(.userLookupStarted(byToken: false)), .lookUpUser(attempt.sessionId, .email(email))]

        case (.userLookupFinished(let id, let result), .identifyUser(let attempt, _)) where id == attempt.sessionId:
            switch result {
            case .failure(let error):
                return fail(error)
            case .success(let user):
                return userIdentified(user, attempt: attempt, now: now)
            }

        case (.appHandoffOpenFailed(let id), .appHandoff(let attempt, _, nil)) where id == attempt.sessionId:
            return fail(.iftttAppRedirectFailed)

        case (.appDidEnterBackground, .appHandoff(_, _, nil)):
            step = .initial
            return [.funnel(.appHandoffBackgrounded)]

        case (.webSessionEnded(let id, let end), .activateConnection(let attempt, _, .open))
        where id == attempt.sessionId:
            switch end {
            case .cancelled: return fail(.canceled)
            case .failed(let error): return fail(error)
            }

        case (.redirectReceived(let nonce, let outcome), _) where pending?.nonce == nonce:
            return redirect(outcome, now: now)

        case (.disconnectFinished(let id, let result), .processDisconnect(let current)) where id == current:
            switch result {
            case .success(let updated):
                let disabled = updated.withStatus(.disabled)
                connection = disabled
                let until = now + ActivationTiming.milliseconds(timing.disconnectedDuration)
                step = .disconnected(until: until)
                return [.funnel(.deactivated), .reportDeactivation(.success(disabled)), .scheduleTick(at: until)]
            case .failure(let error):
                step = .connected
                return [
                    .funnel(.deactivationFailed(.networkError(error))),
                    .reportDeactivation(.failure(.networkError(error))),
                ]
            }

        case (.cancel, .enterEmail), (.cancel, .identifyUser), (.cancel, .appHandoff), (.cancel, .activateConnection):
            return fail(.canceled)

        case (.cancel, .initial) where pending != nil:
            return fail(.canceled)

        default:
            // Every other pair is not a transition: stale results, taps while busy, unexpected redirects.
            return []
        }
    }

    // MARK: - Helpers

    private mutating func show(_ loaded: Connection) -> [Effect] {
        connection = loaded
        step = loaded.status == .enabled ? .connected : .initial
        return [.funnel(.impression)]
    }

    private mutating func tick(now: UInt64) -> [Effect] {
        guard let deadline, deadline <= now else { return [] }
        switch step {
        case .waitingToRetry(let retry, _):
            step = .loading(retry: retry)
            return [.fetchConnection(retry: retry)]
        case .enterEmail(let attempt, _):
            step = .enterEmail(attempt, invalidUntil: nil)
            return [.funnel(.stepTimedOut)]
        case .appHandoff(let attempt, let url, _):
            return openAppHandoff(attempt, url: url)
        case .activateConnection(let attempt, let user, .creatingAccount):
            let until = now + ActivationTiming.milliseconds(timing.continueToServiceDuration)
            step = .activateConnection(attempt, user, .continueToService(until: until))
            return [.funnel(.stepTimedOut), .scheduleTick(at: until)]
        case .activateConnection(let attempt, let user, .continueToService):
            return openWebSession(attempt, user: user)
        case .activationComplete:
            step = .connected
            return [.funnel(.stepTimedOut)]
        case .disconnected:
            step = .initial
            return [.funnel(.stepTimedOut)]
        default:
            return []
        }
    }

    private mutating func startActivation(_ attempt: Attempt, now: UInt64) -> [Effect] {
        // Nothing could vouch for the token this activation would hand over: say so before anything opens.
        guard attempt.canVouch else { return fail(.noPartnerBackend) }
        var effects: [Effect] = []
        if let old = pending {
            // A new attempt replaces one still waiting for its redirect (after a hand-off was backgrounded).
            effects.append(.stopAwaitingRedirect(old.nonce))
            pending = nil
        }
        sessionId = attempt.sessionId
        effects.append(.funnel(.activationStarted))
        if attempt.hasUserToken {
            step = .identifyUser(attempt, .token)
            return effects + [.funnel(.userLookupStarted(byToken: true)), .lookUpUser(attempt.sessionId, .token)]
        }
        if attempt.appInstalled {
            let url = urls.appHandoffURL(user: nil, credentials: attempt.credentials, state: attempt.nonce)
            let opensAt = now + ActivationTiming.milliseconds(timing.appHandoffDelay)
            step = .appHandoff(attempt, url, opensAt: opensAt)
            guard opensAt > now else { return effects + openAppHandoff(attempt, url: url) }
            return effects + [.scheduleTick(at: opensAt)]
        }
        step = .enterEmail(attempt, invalidUntil: nil)
        return effects + [.funnel(.emailRequested)]
    }

    private mutating func userIdentified(_ user: ActivationUser, attempt: Attempt, now: UInt64) -> [Effect] {
        let identified = Effect.funnel(.userIdentified(isNewUser: user.isNew))
        if !user.isNew && attempt.appInstalled {
            let url = urls.appHandoffURL(user: user, credentials: attempt.credentials, state: attempt.nonce)
            return [identified] + openAppHandoff(attempt, url: url)
        }
        if !user.isNew {
            return [identified] + openWebSession(attempt, user: user)
        }
        let until = now + ActivationTiming.milliseconds(timing.creatingAccountDuration)
        step = .activateConnection(attempt, user, .creatingAccount(until: until))
        return [identified, .scheduleTick(at: until)]
    }

    private mutating func openAppHandoff(_ attempt: Attempt, url: URL) -> [Effect] {
        pending = attempt
        step = .appHandoff(attempt, url, opensAt: nil)
        return [.awaitRedirect(attempt.nonce), .funnel(.appHandoffOpened), .openAppHandoff(attempt.sessionId, url)]
    }

    private mutating func openWebSession(_ attempt: Attempt, user: ActivationUser) -> [Effect] {
        let url = urls.webActivationURL(
            user: user, credentials: attempt.credentials, state: attempt.nonce,
            installedMailApps: attempt.installedMailApps)
        pending = attempt
        step = .activateConnection(attempt, user, .open)
        return [.awaitRedirect(attempt.nonce), .funnel(.webSessionStarted), .startWebSession(attempt.sessionId, url)]
    }

    private mutating func redirect(_ outcome: RedirectOutcome, now: UInt64) -> [Effect] {
        var effects: [Effect] = [.funnel(.redirectAccepted)]
        pending = nil
        switch outcome {
        case .complete(let token):
            guard let current = connection else { return effects + fail(.unknownResponse) }
            if case .activateConnection(_, _, .open) = step { effects.append(.dismissWebSession) }
            let enabled = current.withStatus(.enabled)
            connection = enabled
            let until = now + ActivationTiming.milliseconds(timing.activationCompleteDuration)
            step = .activationComplete(until: until)
            let activation = ConnectionActivation(userToken: token?.value, connection: enabled)
            return effects + [.funnel(.activated), .reportActivation(.success(activation)), .scheduleTick(at: until)]
        case .error(let accountCreation):
            return effects + fail(accountCreation ? .iftttAccountCreationFailed : .unknownRedirect)
        case .userCancelledConfiguration:
            return effects + fail(.userCancelledConfiguration)
        }
    }

    /// Ends the attempt: stops waiting for its redirect, closes the web page, reports the error once and
    /// goes back to `initial`.
    private mutating func fail(_ error: ConnectButtonControllerError) -> [Effect] {
        var effects: [Effect] = []
        if let pending { effects.append(.stopAwaitingRedirect(pending.nonce)) }
        if case .activateConnection(_, _, .open) = step { effects.append(.dismissWebSession) }
        pending = nil
        step = .initial
        return effects + [.funnel(.activationFailed(error)), .reportActivation(.failure(error))]
    }
}
