import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The live playground's state: one real ``ConnectButtonController`` per Connection, running in the sandbox
/// process against the sandbox itself, driven by the forms of `/playground/live`.
@MainActor
final class PlaygroundSessions {
    /// One Connection's controller and what it showed.
    @MainActor
    final class Session {
        let connectionId: String
        let controller: ConnectButtonController
        let button: HeadlessConnectButton
        let web: PlaygroundWebSession
        var email: String
        /// The browser that last tapped the button or entered the email (a random secret in a cookie): only it is
        /// shown the activation URL, which carries the partner's OAuth code and the flow's `state`.
        var owner: String?
        var log: [String] = []
        var listener: Task<Void, Never>?

        init(
            connectionId: String, controller: ConnectButtonController, button: HeadlessConnectButton,
            web: PlaygroundWebSession, email: String
        ) {
            self.connectionId = connectionId
            self.controller = controller
            self.button = button
            self.web = web
            self.email = email
        }
    }

    private var sessions: [String: Session] = [:]

    nonisolated init() {}

    /// The redirect URL every playground controller uses; `/playground/live/redirect` hands it to the SDK.
    /// The playground plays the partner app, signed in as the demo partner user `gx-user-1003`: the activation
    /// authorizes Grocery Express with that account's OAuth code, as a real app passes its user's code.
    nonisolated static let partnerCredentials = ConnectionCredentials(oauthCode: "gx-oauth-code-dave")

    nonisolated static func redirectURL(base: URL) -> URL {
        base.appendingPathComponent("playground").appendingPathComponent("live").appendingPathComponent("redirect")
    }

    /// The session of `connectionId`, created (and its Connection loading started) on first use.
    func session(_ connectionId: String, base: URL) -> Session {
        if let existing = sessions[connectionId] { return existing }
        let button = HeadlessConnectButton()
        let web = PlaygroundWebSession()
        var configuration = ConnectButtonController.Configuration.sandbox(base)
        configuration.urlOpener = PlaygroundURLOpener()
        configuration.webAuthenticationSession = web
        let email = "playground@example.com"
        var credentials = Self.partnerCredentials
        // The partner app's backend vouches for the token: the sandbox's own Grocery Express backend, asked with the
        // signed-in partner user's session.
        credentials.partnerBackend = try? PartnerBackend.userTokenEndpoint(
            base.appendingPathComponent("partner/grocery_express/api/user_token"), session: "gx-access-token-dave")
        let controller = ConnectButtonController(
            connectButton: button,
            connectionConfiguration: ConnectionConfiguration(
                connectionId: connectionId, suggestedUserEmail: email, credentialProvider: credentials,
                redirectURL: Self.redirectURL(base: base)),
            locale: Locale(identifier: "en"), delegate: nil, configuration: configuration)
        let session = Session(
            connectionId: connectionId, controller: controller, button: button, web: web, email: email)
        let events = controller.events()
        session.listener = Task { [weak session] in
            for await event in events {
                guard let session else { return }
                session.log.append("+\(event.elapsedMilliseconds)ms \(event.kind) → \(event.step)")
            }
        }
        sessions[connectionId] = session
        return session
    }

    /// Forgets the session of `connectionId`; the next visit starts afresh.
    func reset(_ connectionId: String) {
        if let session = sessions.removeValue(forKey: connectionId) {
            session.controller.cancelActivation()
            session.listener?.cancel()
        }
    }

    /// The sessions waiting for a redirect (the web activation page is open).
    var awaitingRedirect: [Session] {
        sessions.values.filter { $0.controller.step == .waitingForRedirect }
    }
}

/// A web session that does not open anything: it keeps the activation URL for the live page to link to.
@MainActor
final class PlaygroundWebSession: WebAuthenticationSession {
    /// The activation URL the controller asked to open, until it is dismissed.
    private(set) var url: URL?

    func start(
        url: URL, callbackURLScheme: String?, completion: @escaping @MainActor (WebAuthenticationSessionResult) -> Void
    ) {
        self.url = url
    }

    func dismiss() {
        url = nil
    }
}

/// No IFTTT app is installed in the playground, and nothing is opened.
@MainActor
final class PlaygroundURLOpener: URLOpener {
    func canOpen(_ url: URL) -> Bool { false }
    func open(_ url: URL) async -> Bool { false }
}
