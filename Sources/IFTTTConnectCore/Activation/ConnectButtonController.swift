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
    public internal(set) var connection: Connection?
    /// What the button shows now.
    public var step: ConnectButtonStep { flow.visibleStep }

    // The shell's state, read and changed by the extensions in ConnectButtonController+*.swift.

    /// The pure state machine this controller drives.
    var flow: ActivationFlow
    /// The clock reading at creation; the flow's times count from it.
    let origin: UInt64
    /// Recognizes the configured redirect URL; `nil` when no redirect can match it.
    let matcher: RedirectURLMatcher?
    /// Opens the IFTTT app hand-off URL and checks which apps exist.
    let opener: any URLOpener
    /// The web session of the current or last attempt.
    var webSession: (any WebAuthenticationSession)?
    /// The streams of ``events()``.
    var subscribers: [UUID: AsyncStream<ActivationFunnelEvent>.Continuation] = [:]
    /// Callers of ``nextActivationResult()`` and ``connect(email:)`` waiting for the next result.
    var activationWaiters: [CheckedContinuation<Result<ConnectionActivation, ConnectButtonControllerError>, Never>] = []
    /// Callers of ``nextDeactivationResult()`` and ``disconnect()`` waiting for the next result.
    var deactivationWaiters: [CheckedContinuation<Result<Connection, ConnectButtonControllerError>, Never>] = []
    /// Callers waiting for the Connection to load.
    var loadWaiters: [CheckedContinuation<Void, Never>] = []
    /// The step last shown on the button.
    var lastShown: ConnectButtonStep?
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

    // MARK: - Shell

    /// Milliseconds since the controller was created, on its clock.
    var now: UInt64 {
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

    func log(_ message: String) {
        configuration.logHandler?("ConnectButtonController: \(message)")
    }
}
