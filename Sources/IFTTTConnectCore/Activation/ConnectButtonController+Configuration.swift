import Foundation

extension ConnectButtonController {
    /// How the controller reaches the network, the system and the clock. Every property has a default
    /// suited to the platform; tests and command-line programs replace some of them.
    public struct Configuration {
        // MARK: - Dependencies

        /// Sends the Connect API requests (Connection, `/me`, account lookup, disconnect).
        /// Default: production.
        @_spi(Sandbox) public var networkController: ConnectionNetworkController
        /// Opens the IFTTT app hand-off URL and checks which apps exist. `nil` (the default) means
        /// `UIApplication` on iOS and ``SystemBrowserURLOpener`` elsewhere.
        @_spi(Sandbox) public var urlOpener: (any URLOpener)?
        /// Shows the activation web page. `nil` (the default) means `ASWebAuthenticationSession` on iOS and
        /// macOS and ``BrowserWebAuthenticationSession`` elsewhere.
        @_spi(Sandbox) public var webAuthenticationSession: (any WebAuthenticationSession)?
        /// The clock for the flow's pauses and the analytics events' timestamps. Default: ``SystemConnectClock``.
        @_spi(Sandbox) public var clock: any ConnectClock

        // MARK: - Options

        /// The flow's pauses. Default: ``ActivationTiming/standard``.
        @_spi(Sandbox) public var timing: ActivationTiming
        /// The IFTTT app hand-off base, `ifttt-handoff-v1://connections` by default.
        @_spi(Sandbox) public var appHandoffBaseURL: URL
        /// The web activation base, `https://ifttt.com/access/api` by default; the sandbox serves
        /// `<sandbox>/access/api`.
        @_spi(Sandbox) public var webActivationBaseURL: URL
        /// Receives one line per step, event and effect: names and statuses only, never a token, a `state`,
        /// an OAuth code or an email. Default `nil`.
        @_spi(Sandbox) public var logHandler: (@Sendable (String) -> Void)?

        /// Receives the button's analytics events. `nil` (the default) means one uploader per Connect API
        /// base URL shared by the process, sending to `<connect base>/sdk/events`. Either way
        /// ``ConnectButtonController/analyticsEnabled`` (``AnalyticsSwitch/shared``) governs collection unless
        /// the uploader was made with its own ``AnalyticsSwitch``.
        @_spi(Sandbox) public var analyticsUploader: AnalyticsUploader?

        /// Loads and caches the connecting service's icon for the knob. `nil` (the default) means a loader that
        /// sends through ``networkController``'s transport and caches in memory and in the user's caches folder.
        @_spi(Sandbox) public var iconLoader: ServiceIconLoader?

        /// Where the controller waits for its redirect; ``RedirectRegistry/shared`` (process-wide, see there)
        /// unless a test injects its own.
        var registry: RedirectRegistry = .shared
        /// The per-endpoint analytics uploaders used when ``analyticsUploader`` is `nil`;
        /// ``AnalyticsUploaderRegistry/shared`` (process-wide, see there) unless a test injects its own.
        var analyticsUploaders: AnalyticsUploaderRegistry = .shared
        /// Where the controller reports its outcomes (for the location synchronizer);
        /// ``ConnectButtonOutcomes/shared`` unless a test injects its own.
        package var outcomes: ConnectButtonOutcomes = .shared

        /// Creates a configuration; every parameter has a default.
        ///
        /// - Parameters:
        ///   - networkController: The Connect API client.
        ///   - urlOpener: The URL opener, or `nil` for the platform's.
        ///   - webAuthenticationSession: The web session, or `nil` for the platform's.
        ///   - clock: The clock.
        ///   - timing: The flow's pauses.
        ///   - appHandoffBaseURL: The IFTTT app hand-off base.
        ///   - webActivationBaseURL: The web activation base.
        ///   - logHandler: Receives log lines without secrets.
        @_spi(Sandbox) public init(
            networkController: ConnectionNetworkController = ConnectionNetworkController(),
            urlOpener: (any URLOpener)? = nil,
            webAuthenticationSession: (any WebAuthenticationSession)? = nil,
            clock: any ConnectClock = SystemConnectClock(),
            timing: ActivationTiming = .standard,
            appHandoffBaseURL: URL = URL(string: "ifttt-handoff-v1://connections")!,
            webActivationBaseURL: URL = URL(string: "https://ifttt.com/access/api")!,
            logHandler: (@Sendable (String) -> Void)? = nil
        ) {
            self.networkController = networkController
            self.urlOpener = urlOpener
            self.webAuthenticationSession = webAuthenticationSession
            self.clock = clock
            self.timing = timing
            self.appHandoffBaseURL = appHandoffBaseURL
            self.webActivationBaseURL = webActivationBaseURL
            self.logHandler = logHandler
        }

        /// The production configuration: IFTTT's Connect API, the platform's URL opener and web session, the
        /// system clock.
        public init() {
            self.init(networkController: ConnectionNetworkController())
        }

        /// A configuration for a sandbox at `baseURL` (its root): the Connect API under `/v2`, web activation
        /// under `/access/api`, no IFTTT app hand-off.
        ///
        /// - Parameter baseURL: The sandbox's root URL, such as `http://127.0.0.1:8080`.
        /// - Returns: The configuration.
        public static func sandbox(_ baseURL: URL) -> Configuration {
            sandbox(baseURL, transport: URLSessionTransport())
        }

        /// ``sandbox(_:)`` sending through `transport`.
        @_spi(Sandbox) public static func sandbox(_ baseURL: URL, transport: any HTTPTransport) -> Configuration {
            Configuration(
                networkController: ConnectionNetworkController(configuration: .sandbox(baseURL, transport: transport)),
                webActivationBaseURL: baseURL.appendingPathComponent("access").appendingPathComponent("api"))
        }
    }
}
