import Foundation

/// Runs the Connect Button's activation flow: loads the Connection, identifies the user, opens the IFTTT app
/// or the activation web page, and finishes when IFTTT redirects back with the `state` this flow sent.
///
/// The controller works with any ``ConnectButtonPresenting`` button, including ``HeadlessConnectButton``
/// for programs without UI. Results reach the ``delegate`` exactly once per flow, and also the async API:
///
/// ```swift
/// let controller = ConnectButtonController(connectButton: HeadlessConnectButton(),
///                                          connectionConfiguration: configuration,
///                                          delegate: nil)
/// let activation = try await controller.connect(email: "user@example.com")
/// save(activation.userToken)
/// ```
///
/// The flow logic lives in a pure state machine; this class performs its effects (requests, timers, URL
/// opening, redirect registration) on the main actor.
@MainActor
public final class ConnectButtonController {
    /// The button the controller drives, whatever its kind.
    public let presenter: any ConnectButtonPresenting
    #if canImport(UIKit) && !os(watchOS)
    /// The UIKit Connect Button the controller drives (2.8's `button`). A controller created with another
    /// ``ConnectButtonPresenting`` (such as ``HeadlessConnectButton``) returns a button that nothing drives; use
    /// ``presenter`` for it.
    public let button: ConnectButton
    #else
    /// The button the controller drives (the UIKit `ConnectButton` on iOS).
    public var button: any ConnectButtonPresenting { presenter }
    #endif
    /// The configuration given at creation.
    public let connectionConfiguration: ConnectionConfiguration
    /// The locale sent to IFTTT (`locale=`).
    public let locale: Locale
    /// The dependencies and options.
    public let configuration: Configuration
    /// Receives activation and deactivation results.
    public weak var delegate: (any ConnectButtonControllerDelegate)?

    /// The Connection once loaded, with its status kept current by the flow.
    public private(set) var connection: Connection?
    /// What the button shows now.
    public var step: ConnectButtonStep { flow.visibleStep }

    private var flow: ActivationFlow
    private let origin: UInt64
    private let matcher: RedirectURLMatcher?
    private let opener: any URLOpener
    private var webSession: (any WebAuthenticationSession)?
    private var subscribers: [UUID: AsyncStream<ActivationFunnelEvent>.Continuation] = [:]
    private var activationWaiters:
        [CheckedContinuation<Result<ConnectionActivation, ConnectButtonControllerError>, Never>] = []
    private var deactivationWaiters: [CheckedContinuation<Result<Connection, ConnectButtonControllerError>, Never>] = []
    private var loadWaiters: [CheckedContinuation<Void, Never>] = []
    private var lastShown: ConnectButtonStep?
    private var backgroundObservation: AnyObject?
    /// The Connection's status when the current activation started (for the analytics `statechange`).
    var analyticsPriorStatus: Connection.Status?
    /// The last hand-over of analytics events to the uploader; each waits for the one before, keeping order.
    var analyticsTail: Task<Void, Never>?

    /// The locale the controller uses by default: the first preferred language, else the current locale.
    ///
    /// - Returns: The locale.
    public nonisolated static func determineLocale() -> Locale {
        Locale.preferredLanguages.first.map(Locale.init(identifier:)) ?? .current
    }

    /// Creates a controller with the platform's defaults and starts loading the Connection if needed.
    ///
    /// - Parameters:
    ///   - connectButton: The button to drive; ``HeadlessConnectButton`` when there is no UI.
    ///   - connectionConfiguration: The Connection, the user and the redirect URL.
    ///   - locale: The locale sent to IFTTT; default ``determineLocale()``.
    ///   - delegate: Receives the results; held weakly.
    public convenience init(
        connectButton: any ConnectButtonPresenting, connectionConfiguration: ConnectionConfiguration,
        locale: Locale = ConnectButtonController.determineLocale(),
        delegate: (any ConnectButtonControllerDelegate)?
    ) {
        self.init(
            connectButton: connectButton, connectionConfiguration: connectionConfiguration, locale: locale,
            delegate: delegate, configuration: Configuration())
    }

    /// Creates a controller and starts loading the Connection if needed.
    ///
    /// - Parameters:
    ///   - connectButton: The button to drive; ``HeadlessConnectButton`` when there is no UI.
    ///   - connectionConfiguration: The Connection, the user and the redirect URL.
    ///   - locale: The locale sent to IFTTT.
    ///   - delegate: Receives the results; held weakly.
    ///   - configuration: The network, system adapters, clock, timing and logging.
    public init(
        connectButton: any ConnectButtonPresenting, connectionConfiguration: ConnectionConfiguration,
        locale: Locale = ConnectButtonController.determineLocale(),
        delegate: (any ConnectButtonControllerDelegate)?, configuration: Configuration
    ) {
        self.presenter = connectButton
        #if canImport(UIKit) && !os(watchOS)
        self.button = connectButton as? ConnectButton ?? ConnectButton()
        #endif
        self.connectionConfiguration = connectionConfiguration
        self.locale = locale
        self.delegate = delegate
        self.configuration = configuration
        self.origin = configuration.clock.nowMilliseconds
        self.matcher = RedirectURLMatcher(redirectURL: connectionConfiguration.redirectURL)
        self.opener = configuration.urlOpener ?? Self.platformURLOpener()
        let urls = ActivationURLBuilder(
            connectionId: connectionConfiguration.connectionId, redirectURL: connectionConfiguration.redirectURL,
            skipConfiguration: connectionConfiguration.skipConnectionConfiguration,
            localeIdentifier: locale.identifier.replacingOccurrences(of: "_", with: "-"),
            anonymousId: configuration.networkController.configuration.anonymousId,
            appHandoffBaseURL: configuration.appHandoffBaseURL, webActivationBaseURL: configuration.webActivationBaseURL
        )
        self.flow = ActivationFlow(
            urls: urls, timing: configuration.timing, connection: connectionConfiguration.connection,
            sessionId: UUID())
        self.connection = connectionConfiguration.connection
        if matcher == nil { log("the redirect URL has a query or fragment, or no scheme: no redirect can match it") }
        connectButton.actionHandler = { [weak self] action in self?.buttonAction(action) }
        backgroundObservation = Self.observeBackground { [weak self] in self?.applicationDidEnterBackground() }
        send(.start)
    }

    // MARK: - Actions

    /// Starts an activation from the initial step, or a deactivation when connected, as a tap would.
    public func toggle() {
        send(.toggle(makeAttempt()))
    }

    /// Confirms the email step with `email`, as the return key would.
    ///
    /// - Parameter email: The text in the email field.
    public func confirmEmail(_ email: String) {
        send(.emailConfirmed(email))
    }

    /// Cancels the activation in progress; it reports ``ConnectButtonControllerError/canceled`` once.
    public func cancelActivation() {
        send(.cancel)
    }

    /// Loads the Connection again after loading failed.
    public func retryLoading() {
        send(.retryLoading)
    }

    /// Tells the controller the app went to the background. During an IFTTT app hand-off the button returns
    /// to its initial step while the redirect is still awaited. On iOS the controller observes this itself.
    public func applicationDidEnterBackground() {
        flushAnalytics()
        send(.appDidEnterBackground)
    }

    // MARK: - Async API

    /// A stream of funnel events, from now until the controller is released. Each call makes a new stream.
    ///
    /// - Returns: The stream.
    public func events() -> AsyncStream<ActivationFunnelEvent> {
        let id = UUID()
        return AsyncStream(bufferingPolicy: .bufferingNewest(256)) { continuation in
            subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in
                Task { @MainActor in self?.subscribers[id] = nil }
            }
        }
    }

    /// Waits for the next activation result, however the flow is started.
    ///
    /// - Returns: The activation, or why it failed.
    public func nextActivationResult() async -> Result<ConnectionActivation, ConnectButtonControllerError> {
        await withCheckedContinuation { activationWaiters.append($0) }
    }

    /// Waits for the next deactivation result.
    ///
    /// - Returns: The disabled Connection, or why turning it off failed.
    public func nextDeactivationResult() async -> Result<Connection, ConnectButtonControllerError> {
        await withCheckedContinuation { deactivationWaiters.append($0) }
    }

    /// Runs a whole activation without UI: waits for the Connection to load, starts the flow, confirms the
    /// email step with `email` when one is needed, and returns when the redirect arrives. Cancelling the
    /// calling task cancels the flow.
    ///
    /// - Parameter email: The user's email; `nil` uses ``ConnectionConfiguration/suggestedUserEmail``.
    /// - Returns: The activation.
    /// - Throws: ``ConnectButtonControllerError``: ``ConnectButtonControllerError/unableToGetConnection`` when
    ///   the Connection cannot be loaded, ``ConnectButtonControllerError/notReady`` when a flow is running or
    ///   the Connection is already on, ``ConnectButtonControllerError/invalidEmail``, or the flow's error.
    public func connect(email: String? = nil) async throws(ConnectButtonControllerError) -> ConnectionActivation {
        try await waitUntilLoaded()
        guard case .initial = flow.step else { throw .notReady }
        let attempt = makeAttempt()
        let address = email ?? connectionConfiguration.suggestedUserEmail
        if !attempt.hasUserToken && !attempt.appInstalled && !EmailValidator.isValid(address) { throw .invalidEmail }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                activationWaiters.append(continuation)
                send(.toggle(attempt))
                if case .enterEmail = flow.step { send(.emailConfirmed(address)) }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.cancelActivation() }
        }
        return try result.get()
    }

    /// Turns the Connection off without UI and returns it.
    ///
    /// - Returns: The disabled Connection.
    /// - Throws: ``ConnectButtonControllerError/notReady`` unless connected, or the network error.
    public func disconnect() async throws(ConnectButtonControllerError) -> Connection {
        try await waitUntilLoaded()
        guard case .connected = flow.step else { throw .notReady }
        let result = await withCheckedContinuation { continuation in
            deactivationWaiters.append(continuation)
            send(.toggle(makeAttempt()))
        }
        return try result.get()
    }

    private func waitUntilLoaded() async throws(ConnectButtonControllerError) {
        while true {
            switch flow.step {
            case .loading, .waitingToRetry:
                await withCheckedContinuation { loadWaiters.append($0) }
            case .loadingFailed:
                throw .unableToGetConnection
            default:
                return
            }
        }
    }

    // MARK: - Shell

    private var now: UInt64 {
        let current = configuration.clock.nowMilliseconds
        return current > origin ? current - origin : 0
    }

    private func buttonAction(_ action: ConnectButtonAction) {
        switch action {
        case .toggle: toggle()
        case .confirmEmail(let text): confirmEmail(text)
        case .footerTapped: retryLoading()
        }
    }

    private func makeAttempt() -> ActivationFlow.Attempt {
        let provider = connectionConfiguration.credentialProvider
        let handoffScheme = configuration.appHandoffBaseURL.scheme.flatMap { URL(string: $0 + "://") }
        return ActivationFlow.Attempt(
            sessionId: UUID(), nonce: .random(),
            appInstalled: handoffScheme.map(opener.canOpen) ?? false,
            hasUserToken: provider.userToken?.isEmpty == false,
            credentials: .init(oauthCode: provider.oauthCode, inviteCode: provider.inviteCode),
            installedMailApps: ActivationURLBuilder.mailAppSchemes.filter {
                URL(string: $0).map(opener.canOpen) ?? false
            })
    }

    private func send(_ event: ActivationFlow.Event) {
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

    private func perform(_ effect: ActivationFlow.Effect) {
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
            guard let matcher else {
                Task { [weak self] in self?.send(.cancel) }
                return
            }
            // Weakly held: a controller released while it waits is freed, and its entry goes with it.
            configuration.registry.register(matcher, nonce: nonce, owner: self, verifier: redirectVerifier()) {
                [weak self] outcome in
                Task { @MainActor [weak self] in self?.send(.redirectReceived(nonce, outcome)) }
            }
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

    private func startWebSession(_ session: UUID, url: URL) {
        let web = webSession ?? configuration.webAuthenticationSession ?? makePlatformWebSession()
        webSession = web
        let scheme = connectionConfiguration.redirectURL.scheme?.lowercased()
        let callbackScheme = (scheme == "http" || scheme == "https") ? nil : scheme
        let handler = ConnectionRedirectHandler(
            redirectURL: connectionConfiguration.redirectURL, registry: configuration.registry)
        web.start(url: url, callbackURLScheme: callbackScheme) { [weak self] result in
            switch result {
            case .callback(let callback):
                // A URL the session caught goes through the same checks as any other redirect; the page is
                // gone, so one that is refused (at once, or after verification) ends the flow.
                handler.submit(callback) { [weak self] accepted in
                    guard !accepted else { return }
                    Task { @MainActor [weak self] in self?.send(.webSessionEnded(session, .failed(.unknownRedirect))) }
                }
            case .cancelled:
                self?.send(.webSessionEnded(session, .cancelled))
            case .failed:
                self?.send(.webSessionEnded(session, .failed(.unknownResponse)))
            case .presentationAnchorUnavailable:
                // 2.8 reports session failures as unknownResponse; the log says why.
                self?.log("no presentation anchor: the activation page cannot be shown")
                self?.send(.webSessionEnded(session, .failed(.unknownResponse)))
            }
        }
    }

    /// The checks a redirect without `state` must pass for the attempt now waiting; `nil` when the
    /// configuration requires `state`.
    private func redirectVerifier() -> RedirectVerifier? {
        guard connectionConfiguration.redirectStatePolicy == .verifyWhenMissing else { return nil }
        let provider = connectionConfiguration.credentialProvider
        return RedirectVerifier(
            network: configuration.networkController, connectionId: connectionConfiguration.connectionId,
            inviteCode: provider.inviteCode, startingToken: provider.userToken.flatMap { $0.isEmpty ? nil : $0 },
            knownLogin: flow.pending?.knownLogin, userVerifier: connectionConfiguration.redirectUserVerifier,
            logHandler: configuration.logHandler)
    }

    private static func lookUp(
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

    private func log(_ message: String) {
        configuration.logHandler?("ConnectButtonController: \(message)")
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
