import Foundation

/// Runs the Connect Button's activation flow: loads the Connection, identifies the user, opens the IFTTT app
/// or the activation web page, and finishes when IFTTT redirects back and the token to keep is vouched for
/// (your credential provider's ``ConnectionCredentialProvider/partnerBackend``; see <doc:Activation>).
///
/// The controller drives the UIKit `ConnectButton` on iOS, or ``HeadlessConnectButton`` in programs without UI. Results reach the ``delegate`` exactly once per flow, and also the async API:
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
/// opening, redirect registration) on the main actor. Its mutable state is private to this file.
@MainActor
public final class ConnectButtonController {
    /// The button the controller drives, whatever its kind.
    @_spi(Sandbox) public let presenter: any ConnectButtonPresenting
    #if canImport(UIKit) && !os(watchOS)
    /// The UIKit Connect Button the controller drives (2.8's `button`). A controller created with another
    /// button (such as ``HeadlessConnectButton``) returns a button that nothing drives.
    public let button: ConnectButton
    #else
    /// The button the controller drives (the UIKit `ConnectButton` on iOS).
    @_spi(Sandbox) public var button: any ConnectButtonPresenting { presenter }
    #endif
    /// The configuration given at creation.
    let connectionConfiguration: ConnectionConfiguration
    /// The locale sent to IFTTT (`locale=`); it also decides the language of the button, the email step, the
    /// footer and the About page.
    let locale: Locale
    /// The dependencies and options.
    @_spi(Sandbox) public let configuration: Configuration
    /// Receives activation and deactivation results.
    public weak var delegate: (any ConnectButtonControllerDelegate)?

    /// The Connection once loaded, with its status kept current by the flow.
    public private(set) var connection: Connection?
    /// What the button shows now.
    @_spi(Sandbox) public var step: ConnectButtonStep { flow.visibleStep }

    // The controller's mutable state: private to this file, which holds everything that reads or changes it.
    // Its extensions in other files (+Analytics, +Outcomes, +Platform, +Configuration) hold no state of it.

    /// The pure state machine this controller drives.
    var flow: ActivationFlow
    /// The clock reading at creation; the flow's times count from it.
    private let origin: UInt64
    /// Recognizes the configured redirect URL; `nil` when no redirect can match it.
    private let matcher: RedirectURLMatcher?
    /// Opens the IFTTT app hand-off URL and checks which apps exist.
    private let opener: any URLOpener
    /// The web session of the current or last attempt.
    private var webSession: (any WebAuthenticationSession)?
    /// The streams of ``events()``.
    var subscribers: [UUID: AsyncStream<ActivationFunnelEvent>.Continuation] = [:]
    /// Callers of ``nextActivationResult()`` and ``connect(email:)`` waiting for the next result.
    var activationWaiters: [CheckedContinuation<Result<ConnectionActivation, ConnectButtonControllerError>, Never>] = []
    /// Callers of ``nextDeactivationResult()`` and ``disconnect()`` waiting for the next result.
    var deactivationWaiters: [CheckedContinuation<Result<Connection, ConnectButtonControllerError>, Never>] =
        []
    /// Callers waiting for the Connection to load.
    var loadWaiters: [CheckedContinuation<Void, Never>] = []
    /// The step last shown on the button.
    private var lastShown: ConnectButtonStep?
    private var backgroundObservation: AnyObject?
    /// The Connection's status when the current activation started (for the analytics `statechange`).
    private var analyticsPriorStatus: Connection.Status?
    /// The last hand-over of analytics events to the uploader; each waits for the one before, keeping order.
    private var analyticsTail: Task<Void, Never>?
    /// Whether the redirect now awaited may finish with a token nothing vouched for (the app chose
    /// ``UserTokenTrust/unvouchedRedirectToken``): the finished activation is then reported with a warning.
    private var awaitsUnvouchedToken = false
    /// The icon URL whose loading started, so that it starts once per URL.
    private var requestedIconURL: URL?
    /// The connecting service's icon, once loaded.
    private var loadedIcon: ConnectButtonIconImage?
    /// The icon load in flight or finished last (tests await it).
    private(set) var iconTask: Task<Void, Never>?
    /// The email last confirmed in the email step (shown in the "creating account" footer).
    var confirmedEmail: String?
    /// Loads the service icon (the configuration's, or one on the network controller's transport).
    private let iconLoader: ServiceIconLoader

    /// The attempt now waiting for its redirect and how it decides; the web session's own callback is checked
    /// against it (see ``startWebSession(_:url:)``).
    private var awaiting: (nonce: RedirectNonce, verifier: RedirectVerifier)?
    /// The proof binding the latest attempt's URL `code` to it (``PartnerLinkProof``), with that attempt's `state`.
    private var attemptLinkProof: (nonce: RedirectNonce, proof: PartnerLinkProof)?

    /// Where the migration article explains a first activation without a partner backend (named in the log).
    nonisolated static let migrationAnchor = "MigratingFrom28#A-first-activation-without-a-partner-backend"

    /// The locale the controller uses by default: the first preferred language, else the current locale.
    ///
    /// - Returns: The locale.
    public nonisolated static func determineLocale() -> Locale {
        Locale.preferredLanguages.first.map(Locale.init(identifier:)) ?? .current
    }

    /// Creates a controller for `presenter` and starts loading the Connection if needed.
    ///
    /// - Parameters:
    ///   - presenter: The button to drive.
    ///   - connectionConfiguration: The Connection, the user and the redirect URL.
    ///   - locale: The locale sent to IFTTT.
    ///   - delegate: Receives the results; held weakly.
    ///   - configuration: The network, system adapters, clock, timing and logging.
    @_spi(Sandbox) public init(
        presenter connectButton: any ConnectButtonPresenting, connectionConfiguration: ConnectionConfiguration,
        locale: Locale, delegate: (any ConnectButtonControllerDelegate)?, configuration: Configuration
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
        self.iconLoader =
            configuration.iconLoader
            ?? ServiceIconLoader(transport: configuration.networkController.configuration.transport)
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
        logMissingVoucher()
        connectButton.actionHandler = { [weak self] action in self?.buttonAction(action) }
        backgroundObservation = Self.observeBackground { [weak self] in self?.applicationDidEnterBackground() }
        send(.start)
    }

    // MARK: - Actions

    /// Starts an activation from the initial step, or a deactivation when connected, as a tap would.
    @_spi(Sandbox) public func toggle() {
        send(.toggle(makeAttempt()))
    }

    /// Confirms the email step with `email`, as the return key would.
    ///
    /// - Parameter email: The text in the email field.
    @_spi(Sandbox) public func confirmEmail(_ email: String) {
        confirmedEmail = email
        send(.emailConfirmed(email))
    }

    /// Cancels the activation in progress; it reports ``ConnectButtonControllerError/canceled`` once.
    public func cancelActivation() {
        send(.cancel)
    }

    /// Loads the Connection again after loading failed.
    @_spi(Sandbox) public func retryLoading() {
        send(.retryLoading)
    }

    /// Tells the controller the app went to the background. During an IFTTT app hand-off the button returns
    /// to its initial step while the redirect is still awaited. On iOS the controller observes this itself.
    @_spi(Sandbox) public func applicationDidEnterBackground() {
        flushAnalytics()
        send(.appDidEnterBackground)
    }

    // MARK: - Shell

    /// Milliseconds since the controller was created, on its clock.
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

    func makeAttempt() -> ActivationFlow.Attempt {
        let credentials = self.credentials
        let handoffScheme = configuration.appHandoffBaseURL.scheme.flatMap { URL(string: $0 + "://") }
        let hasUserToken = credentials.userToken?.isEmpty == false
        let vouched = Self.somethingVouches(credentials, connectionConfiguration)
        // Without a voucher, only the app's own web session may bring the token (its callback is bound to the
        // flow): no IFTTT app hand-off and no mail-app links, whose redirects any app or page could write.
        let sessionOnly = !vouched && Self.webSessionBindsCallback(connectionConfiguration.redirectURL)
        if !vouched {
            log(
                sessionOnly
                    ? "no partner backend: this first activation uses the app's own web session, whose callback only "
                        + "it can deliver (no IFTTT app hand-off, no email link); see \(Self.migrationAnchor)"
                    : "no partner backend and an http(s) redirect URL that other programs can open: the activation "
                        + "cannot start (noPartnerBackend, reported as unknownRedirect); give the credential provider "
                        + "a partnerBackend, see \(Self.migrationAnchor)")
        }
        let nonce = RedirectNonce.random()
        let linkProof = credentials.oauthCode.isEmpty ? nil : PartnerLinkProof.random()
        attemptLinkProof = linkProof.map { (nonce, $0) }
        return ActivationFlow.Attempt(
            sessionId: UUID(), nonce: nonce,
            appInstalled: sessionOnly ? false : handoffScheme.map(opener.canOpen) ?? false,
            hasUserToken: hasUserToken,
            credentials: .init(
                oauthCode: credentials.oauthCode, inviteCode: credentials.inviteCode, linkProof: linkProof),
            installedMailApps: sessionOnly
                ? []
                : ActivationURLBuilder.mailAppSchemes.filter { URL(string: $0).map(opener.canOpen) ?? false },
            canVouch: vouched || sessionOnly)
    }

    /// Whether something the app trusts vouches for the token a first activation keeps: a partner backend, the
    /// provider's user token, an app verifier, or the app's explicit choice of unvouched tokens.
    private static func somethingVouches(
        _ credentials: ConnectionCredentials, _ configuration: ConnectionConfiguration
    ) -> Bool {
        credentials.partnerBackend != nil || credentials.userToken?.isEmpty == false
            || configuration.redirectUserVerifier != nil || configuration.userTokenTrust == .unvouchedRedirectToken
    }

    /// Whether the web session can catch the redirect itself: a custom scheme (not `http` or `https`), which
    /// `ASWebAuthenticationSession` intercepts inside its own browser before any other app or page sees it.
    nonisolated static func webSessionBindsCallback(_ redirectURL: URL) -> Bool {
        guard let scheme = redirectURL.scheme?.lowercased(), !scheme.isEmpty else { return false }
        return scheme != "http" && scheme != "https"
    }

    /// Says once, when the controller is created, that nothing vouches for a first activation's token and what
    /// follows, with the migration article's anchor: to the log handler, or standard error when there is none.
    private func logMissingVoucher() {
        guard !Self.somethingVouches(credentials, connectionConfiguration) else { return }
        if Self.webSessionBindsCallback(connectionConfiguration.redirectURL) {
            warn(
                "no partnerBackend vouches for a first activation's user token: it finishes only through the app's "
                    + "own web session (its callback is bound to the flow); the IFTTT app hand-off and email links "
                    + "are not used. Give the credential provider a partnerBackend to use them; see "
                    + Self.migrationAnchor)
        } else {
            warn(
                "no partnerBackend vouches for a first activation's user token and the redirect URL is http(s), "
                    + "which other programs can open: a first activation fails at once with noPartnerBackend "
                    + "(unknownRedirect). Give the credential provider a partnerBackend; see " + Self.migrationAnchor)
        }
    }

    /// The credential provider's values now: the one way this controller reads the provider. The provider may be
    /// a class with a mutable token, so it is read here, on the main actor, and only the copy travels.
    private var credentials: ConnectionCredentials {
        ConnectionCredentials(snapshotOf: connectionConfiguration.credentialProvider)
    }

    private func log(_ message: String) {
        configuration.logHandler?("ConnectButtonController: \(message)")
    }

    /// Says what an explicit, weakening choice costs, every time it applies: to the log handler, or to standard
    /// error when there is none, so that it never passes silently.
    private func warn(_ message: String) {
        let line = "ConnectButtonController: WARNING: \(message)"
        if let handler = configuration.logHandler {
            handler(line)
        } else {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    // MARK: - Effects

    /// Feeds an event to the flow, shows the step it leads to and performs its effects.
    func send(_ event: ActivationFlow.Event) {
        let effects = flow.handle(event, now: now)
        connection = flow.connection
        if case .connectionLoaded(_, .success(let loaded)) = event {
            reportOutcome(.connectionShown(loaded, credentials: credentials))
        }
        if effects.isEmpty && lastShown != nil { return }
        log("\(event.logName) -> \(flow.visibleStep)")
        if lastShown != flow.visibleStep {
            lastShown = flow.visibleStep
            presenter.show(
                flow.visibleStep, connection: connection, suggestedEmail: connectionConfiguration.suggestedUserEmail)
            presentAppearance()
        }
        loadIconIfNeeded()
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
    private func perform(_ effect: ActivationFlow.Effect) {
        let network = configuration.networkController
        let config = connectionConfiguration
        let credentials = self.credentials
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
                if awaitsUnvouchedToken {
                    warn("this activation finished with a user token no partner backend vouched for")
                }
                reportOutcome(.activated(activation, credentials: credentials))
            }
            awaitsUnvouchedToken = false
            let waiters = activationWaiters
            activationWaiters = []
            for waiter in waiters { waiter.resume(returning: result) }
        case .reportDeactivation(let result):
            log("deactivation finished: \(result.logText)")
            delegate?.connectButtonController(self, didFinishDeactivationWithResult: result)
            if case .success(let connection) = result {
                reportOutcome(.deactivated(connection, credentials: credentials))
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

    // MARK: - Appearance

    /// The language of everything the button shows: the controller's locale.
    @_spi(Sandbox) public var localization: ConnectLocalization { ConnectLocalization(locale: locale) }

    /// The appearance of the step shown now, for the presenter's environment.
    @_spi(Sandbox) public var appearance: ConnectButtonAppearance {
        ConnectButtonAppearance(
            state: ConnectButtonVisualState(
                step: flow.visibleStep, email: confirmedEmail ?? connectionConfiguration.suggestedUserEmail),
            connection: connection, localization: localization, environment: presenter.appearanceEnvironment,
            icon: loadedIcon)
    }

    private func presentAppearance() {
        presenter.show(appearance)
    }

    /// Starts loading the connecting service's icon once per URL; the knob shows the monogram meanwhile and
    /// keeps it when loading fails.
    private func loadIconIfNeeded() {
        guard let url = connection?.connectingService.monochromeIconURL, url.isWebURL, url != requestedIconURL
        else { return }
        requestedIconURL = url
        let loader = iconLoader
        if let cached = loader.cachedIcon(for: url) {
            loadedIcon = cached
            presentAppearance()
            return
        }
        iconTask = Task { [weak self] in
            let result = await loader.icon(for: url)
            self?.iconLoaded(result, for: url)
        }
    }

    private func iconLoaded(_ result: Result<ConnectButtonIconImage, ServiceIconError>, for url: URL) {
        guard url == requestedIconURL else { return }
        switch result {
        case .success(let icon):
            loadedIcon = icon
            presentAppearance()
        case .failure(let error):
            log("the service icon did not load (\(error)); the knob keeps the monogram")
        }
    }

    // MARK: - Redirects

    /// Waits for the redirect carrying `nonce`, or cancels the attempt when no redirect can match.
    private func awaitRedirect(_ nonce: RedirectNonce) {
        guard let matcher else {
            Task { [weak self] in self?.send(.cancel) }
            return
        }
        var verifier = redirectVerifier()
        if let attemptLinkProof, attemptLinkProof.nonce == nonce {
            verifier.partnerLink = .init(
                url: Self.partnerLinkURL(
                    base: configuration.webActivationBaseURL, connectionId: connectionConfiguration.connectionId),
                proof: attemptLinkProof.proof)
        }
        awaiting = (nonce, verifier)
        awaitsUnvouchedToken = verifier.acceptsUnvouchedToken
        if awaitsUnvouchedToken {
            warn(
                "userTokenTrust is .unvouchedRedirectToken and nothing vouches for the user token: a redirect carrying "
                    + "another IFTTT account's real token can finish this activation (see the Activation article)")
        }
        // Weakly held: a controller released while it waits is freed, and its entry goes with it.
        configuration.registry.register(
            matcher, nonce: nonce, owner: self, verifier: verifier,
            acceptsWithoutState: connectionConfiguration.redirectStatePolicy == .verifyWhenMissing
        ) { [weak self] outcome in
            Task { @MainActor [weak self] in self?.send(.redirectReceived(nonce, outcome)) }
        }
    }

    /// Shows the activation web page; a URL the session catches goes through the redirect checks.
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
                if let callbackScheme, let self, let awaiting = self.awaiting, awaiting.verifier.vouchesForNothing {
                    self.finishFromWebSession(
                        callback, scheme: callbackScheme, session: session, nonce: awaiting.nonce,
                        verifier: awaiting.verifier.boundToWebSession())
                    return
                }
                // A URL the session caught goes through the same checks as any other redirect. The page is gone
                // and nothing else can arrive through it, so one that is refused (at once, or by its check) ends
                // the flow; an attacker cannot reach this path, only the page the session showed can.
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

    /// Finishes the attempt with the callback its own web session caught, when nothing else vouches: the session
    /// intercepts its custom-scheme callback inside its own browser, so no other app or page can write it (see
    /// "Whose token" in <doc:Activation>). It must be the redirect URL (as written), carry the flow's `state` when it
    /// carries one, and its token must be confirmed by IFTTT (it works on `/v2/me`, the Connection is on for its
    /// user). Anything else ends the flow as ``ConnectButtonControllerError/unknownRedirect``.
    private func finishFromWebSession(
        _ callback: URL, scheme: String, session: UUID, nonce: RedirectNonce, verifier: RedirectVerifier
    ) {
        // `RedirectStatePolicy.required` holds here as on every other channel: a callback without `state` is refused
        // before any check.
        let acceptsWithoutState = connectionConfiguration.redirectStatePolicy == .verifyWhenMissing
        guard callback.scheme?.lowercased() == scheme, let matcher, let candidate = matcher.candidate(for: callback),
            candidate.state.map(nonce.matches) ?? acceptsWithoutState
        else {
            log("the web session's callback is not this flow's redirect")
            send(.webSessionEnded(session, .failed(.unknownRedirect)))
            return
        }
        // The session's page is gone: the registry entry (for open-URL redirects) is no longer needed.
        configuration.registry.cancel(nonce)
        Task { [weak self] in
            switch await verifier.check(candidate.outcome) {
            case .success(let outcome):
                self?.log("kept the user token the app's own web session caught (bound to this flow)")
                self?.send(.redirectReceived(nonce, outcome))
            case .failure(let refusal):
                self?.log("the web session's callback was refused: \(refusal.rawValue)")
                self?.send(.webSessionEnded(session, .failed(.unknownRedirect)))
            }
        }
    }

    /// Where the attempt completes the partner link its URL `code` claimed: `{web activation base}/{id}/partner_link`.
    static func partnerLinkURL(base: URL, connectionId: String) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/" + APIRequest.percentEncode(connectionId) + "/partner_link") ?? base
    }

    /// How the attempt now waiting decides whether a `complete` redirect finishes it, and with which token.
    private func redirectVerifier() -> RedirectVerifier {
        let credentials = self.credentials
        let voucher: RedirectVerifier.Voucher
        if let backend = credentials.partnerBackend {
            voucher = .partnerBackend(backend)
        } else if let token = credentials.userToken, !token.isEmpty {
            voucher = .startingToken(RedactedToken(value: token))
        } else {
            voucher = .none
        }
        return RedirectVerifier(
            voucher: voucher, network: configuration.networkController,
            connectionId: connectionConfiguration.connectionId, inviteCode: credentials.inviteCode,
            userVerifier: connectionConfiguration.redirectUserVerifier,
            allowsUnvouchedToken: connectionConfiguration.userTokenTrust == .unvouchedRedirectToken,
            logHandler: configuration.logHandler)
    }

    // MARK: - Analytics

    /// Turns a funnel event into the analytics events of spec §5.3 and queues them.
    private func trackAnalytics(_ kind: ActivationFunnelEvent.Kind, connection: Connection?) {
        if case .activationStarted = kind { analyticsPriorStatus = connection?.status }
        let events = Self.analyticsEvents(
            for: kind, connection: connection, connectionId: connectionConfiguration.connectionId,
            priorStatus: analyticsPriorStatus, hostName: Self.hostName, at: configuration.clock.now)
        guard !events.isEmpty, AnalyticsSwitch.shared.isEnabled || configuration.analyticsUploader != nil else {
            return
        }
        let uploader = analyticsUploader
        let previous = analyticsTail
        analyticsTail = Task {
            await previous?.value
            for event in events { await uploader.track(event) }
        }
    }

    /// Waits until every analytics event this controller produced so far was handed to its uploader (queued or
    /// dropped by the opt-out). Sending them is the uploader's business: see ``AnalyticsUploader/flush()``.
    @_spi(Sandbox) public func waitForAnalytics() async {
        await analyticsTail?.value
    }

    /// Sends what waits when the app goes to the background.
    private func flushAnalytics() {
        guard configuration.analyticsUploader != nil || AnalyticsSwitch.shared.isEnabled else { return }
        let uploader = analyticsUploader
        Task { await uploader.flush() }
    }
}
