import Foundation

/// The effect interpreter: the shell that feeds events to the pure ``ActivationFlow`` and performs the effects
/// it returns, on the main actor.
extension ConnectButtonController {
    /// Feeds an event to the flow, shows the step it leads to and performs its effects.
    func send(_ event: ActivationFlow.Event) {
        let effects = flow.handle(event, now: now)
        connection = flow.connection
        if case .connectionLoaded(_, .success(let loaded)) = event {
            reportOutcome(.connectionShown(loaded, credentials: outcomeCredentials))
        }
        if effects.isEmpty && lastShown != nil { return }
        log("\(event.logName) -> \(flow.visibleStep)")
        if lastShown != flow.visibleStep {
            lastShown = flow.visibleStep
            presenter.show(
                flow.visibleStep, connection: connection, suggestedEmail: connectionConfiguration.suggestedUserEmail)
        }
        switch flow.step {
        case .loading, .waitingToRetry: break
        default:
            let waiters = loadWaiters
            loadWaiters = []
            for waiter in waiters { waiter.resume() }
        }
        for effect in effects { perform(effect) }
    }

    /// Performs one effect of the flow: requests, timers, URL opening, redirect registration, reports.
    func perform(_ effect: ActivationFlow.Effect) {
        let network = configuration.networkController
        let config = connectionConfiguration
        // The provider may be a class with a mutable token: read it here, on the main actor, and send a copy.
        let credentials = ConnectionCredentials(snapshotOf: config.credentialProvider)
        switch effect {
        case .fetchConnection(let retry):
            Task { [weak self] in
                let result: Result<Connection, ConnectAPIError>
                do throws(ConnectAPIError) {
                    result = .success(
                        try await network.fetchConnection(for: config.connectionId, credentialProvider: credentials))
                } catch {
                    result = .failure(error)
                }
                self?.send(.connectionLoaded(retry: retry, result))
            }
        case .scheduleTick(let at):
            let clock = configuration.clock
            let deadline = origin + at
            Task { [weak self] in
                try? await clock.sleep(untilMilliseconds: deadline)
                self?.send(.tick)
            }
        case .lookUpUser(let session, let method):
            Task { [weak self] in
                let result = await Self.lookUp(method, network: network, credentials: credentials)
                self?.send(.userLookupFinished(session, result))
            }
        case .awaitRedirect(let nonce):
            awaitRedirect(nonce)
        case .stopAwaitingRedirect(let nonce):
            configuration.registry.cancel(nonce)
        case .openAppHandoff(let session, let url):
            let opener = self.opener
            Task { [weak self] in
                if await !opener.open(url) { self?.send(.appHandoffOpenFailed(session)) }
            }
        case .startWebSession(let session, let url):
            startWebSession(session, url: url)
        case .dismissWebSession:
            webSession?.dismiss()
        case .disconnect(let session):
            Task { [weak self] in
                let result: Result<Connection, ConnectAPIError>
                do throws(ConnectAPIError) {
                    result = .success(
                        try await network.disconnectConnection(
                            with: config.connectionId, credentialProvider: credentials))
                } catch {
                    result = .failure(error)
                }
                self?.send(.disconnectFinished(session, result))
            }
        case .reportActivation(let result):
            log("activation finished: \(result.logText)")
            delegate?.connectButtonController(self, didFinishActivationWithResult: result)
            if case .success(let activation) = result {
                reportOutcome(.activated(activation, credentials: outcomeCredentials))
            }
            let waiters = activationWaiters
            activationWaiters = []
            for waiter in waiters { waiter.resume(returning: result) }
        case .reportDeactivation(let result):
            log("deactivation finished: \(result.logText)")
            delegate?.connectButtonController(self, didFinishDeactivationWithResult: result)
            if case .success(let connection) = result {
                reportOutcome(.deactivated(connection, credentials: outcomeCredentials))
            }
            let waiters = deactivationWaiters
            deactivationWaiters = []
            for waiter in waiters { waiter.resume(returning: result) }
        case .funnel(let kind):
            let event = ActivationFunnelEvent(
                sessionId: flow.sessionId, kind: kind, step: flow.visibleStep, elapsedMilliseconds: now)
            log("funnel \(event)")
            for continuation in subscribers.values { continuation.yield(event) }
            trackAnalytics(kind, connection: connection)
        }
    }

    static func lookUp(
        _ method: ActivationFlow.LookupMethod, network: ConnectionNetworkController,
        credentials: ConnectionCredentials
    ) async -> Result<ActivationUser, ConnectButtonControllerError> {
        do throws(ConnectAPIError) {
            switch method {
            case .token:
                guard let login = try await network.fetchUser(credentialProvider: credentials).login, !login.isEmpty
                else {
                    return .failure(.unknownResponse)
                }
                return .success(.username(login))
            case .email(let email):
                // A failed lookup is an error, never a new user (spec §9 W-15).
                let lookup = try await network.lookUpAccount(email: email)
                return .success(.email(email, isNew: lookup == .newUser))
            }
        } catch {
            return .failure(.networkError(error))
        }
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
