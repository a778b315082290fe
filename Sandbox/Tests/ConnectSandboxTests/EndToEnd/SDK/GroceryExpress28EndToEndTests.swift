import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 27: an app written the way IFTTT's own 2.8 example uses the API completes a first activation against the
/// sandbox over loopback, through the same controller code an iPhone runs.
///
/// The call sequence follows ConnectSDK-iOS's `Examples/GroceryExpress` (`ConnectionCredentials.swift`,
/// `ConnectionViewController.swift`, `AppDelegate.swift`), re-stated here in our own words: a credential provider
/// whose OAuth code is the user's email and whose user token starts `nil` (no partner backend: 2.8 had none), a
/// `ConnectionConfiguration(connectionId:suggestedUserEmail:credentialProvider:redirectURL:)` with the redirect URL
/// `groceryexpress://connect_callback`, a `ConnectButtonController(connectButton:connectionConfiguration:delegate:)`
/// whose delegate stores `activation.userToken` in the provider and maps errors with an exhaustive `switch`, and a
/// `ConnectionRedirectHandler(redirectURL:)` fed from `application(_:open:options:)`.
///
/// What stands in for UIKit: ``HeadlessConnectButton`` for the `ConnectButton` outlet, and a test web session for
/// `ASWebAuthenticationSession` that walks the sandbox's pages as a user would and hands back the callback it
/// caught. The only line that differs from the app is the controller's `configuration:` (the sandbox and that
/// session); the app's own code does not change.
@Suite("A 2.8 app's first activation against the sandbox", .timeLimit(.minutes(2)))
@MainActor
struct GroceryExpress28EndToEndTests {
    /// The example's credentials, as 2.8 wrote them: the email doubles as the OAuth code, the token arrives with the
    /// activation and is stored by the delegate.
    final class ExampleCredentials: ConnectionCredentialProvider {
        let email: String
        var oauthCode: String { email }
        private(set) var userToken: String?
        var inviteCode: String? { nil }

        init(email: String) { self.email = email }

        func loginUser(with token: String) { userToken = token }
    }

    /// The example's view controller, reduced to what it does with the SDK.
    final class ExampleScreen: ConnectButtonControllerDelegate {
        let credentials: ExampleCredentials
        var controller: ConnectButtonController?
        /// The alert text the example would show, or `nil` when it shows none.
        private(set) var alerts: [String] = []
        private(set) var finished = 0

        init(credentials: ExampleCredentials) { self.credentials = credentials }

        func connectButtonController(
            _ connectButtonController: ConnectButtonController,
            didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>
        ) {
            finished += 1
            switch result {
            case .success(let activation):
                if let token = activation.userToken { credentials.loginUser(with: token) }
            case .failure(let error):
                if let text = Self.alertText(for: error) { alerts.append(text) }
            }
        }

        func connectButtonController(
            _ connectButtonController: ConnectButtonController,
            didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
        ) {}

        /// The example's exhaustive switch over 2.8's eight cases.
        static func alertText(for error: ConnectButtonControllerError) -> String? {
            switch error {
            case .iftttAccountCreationFailed: return "Failed to create IFTTT account"
            case .networkError(let network): return network.localizedDescription
            case .unknownRedirect, .unknownResponse: return "Unknown error"
            case .userCancelledConfiguration: return "User cancelled configuration of the connection"
            case .canceled: return nil
            case .unableToGetConnection: return "The connection being used is nil"
            case .iftttAppRedirectFailed: return "Could not open the IFTTT app for handoff flow"
            }
        }
    }

    static let redirectURL = URL(string: "groceryexpress://connect_callback")!

    /// Alice, new to this app, taps Connect: the email step (no IFTTT app on Linux), the web page in the app's own
    /// session, IFTTT sign-in, Grocery Express's own sign-in (the example's OAuth code is her email, which the
    /// partner does not know), configuration; the session catches `groceryexpress://connect_callback?...` and the
    /// activation completes with alice's token, stored by the delegate. Before issue 27 the tap failed at once
    /// with `noPartnerBackend` as a network error ("A Connect API request failed").
    @Test(arguments: RedirectStateMode.allCases)
    func anUnchanged28AppCompletesAFirstActivationThroughItsWebSession(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, network in
            try await Self.firstActivation(url, network: network, mode: mode)
        }
    }

    static func firstActivation(_ url: URL, network: ConnectionNetworkController, mode: RedirectStateMode)
        async throws
    {
        let credentials = ExampleCredentials(email: "alice@example.com")
        let screen = ExampleScreen(credentials: credentials)
        let redirectHandler = ConnectionRedirectHandler(redirectURL: redirectURL)
        let web = RecordingWebSession()
        let logs = LogCapture()
        var setup = ConnectButtonController.Configuration.sandbox(url)
        setup.webAuthenticationSession = web
        setup.urlOpener = RecordingURLOpener()
        setup.timing = .immediate
        setup.logHandler = logs.handler

        let configuration = ConnectionConfiguration(
            connectionId: "gx-store-visits", suggestedUserEmail: credentials.email, credentialProvider: credentials,
            redirectURL: redirectURL)
        let button = WatchedButton()
        screen.controller = ConnectButtonController(
            connectButton: button, connectionConfiguration: configuration, delegate: screen, configuration: setup)
        let controller = try #require(screen.controller)
        // Said once, when the controller was created, not first at the tap.
        #expect(
            logs.lines.filter { $0.contains("MigratingFrom28#A-first-activation-without-a-partner-backend") }.count == 1
        )

        let outcome = Task { @MainActor in await controller.nextActivationResult() }
        await button.wait(for: .initial)
        button.tap(.toggle)
        #expect(controller.step == .enterEmail(invalid: false))
        button.tap(.confirmEmail(credentials.email))
        let page = try await web.next()
        #expect(controller.step == .waitingForRedirect)

        // Another app opens the redirect URL with bob's real user token while alice's page is open:
        // the example's app delegate hands it to the SDK, which refuses it.
        #expect(
            redirectHandler.handleApplicationRedirect(
                url: URL(string: redirectURL.absoluteString + "?next_step=complete&user_token=sandbox-user-token-bob")!,
                options: [String: Any]()))
        #expect(controller.step == .waitingForRedirect)

        let callback = try await Harness.walkPages(
            from: page, to: redirectURL, email: "alice@example.com", password: "alice-password",
            partner: ("alice", "gx-alice-password"))
        #expect(Harness.hasState(callback) == (mode == .echo))
        web.end(.callback(callback))

        let result = await outcome.value
        #expect(screen.alerts.isEmpty, "\(screen.alerts)")
        #expect(screen.finished == 1)
        let activation = try result.get()
        let token = try #require(credentials.userToken)
        #expect(activation.userToken == token)
        #expect(
            try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: token)).login == "alice")
        // Logged in as the example does it, the provider now sees the Connection on.
        let fetched = try await network.fetchConnection(
            for: "gx-store-visits", credentialProvider: ConnectionCredentials(snapshotOf: credentials))
        #expect(fetched.status == .enabled)
        #expect(!logs.text.contains(token))
    }

    /// A headless presenter standing in for the UIKit `ConnectButton` outlet: it records what the controller shows
    /// and lets the test wait for a step and tap, as a user would.
    final class WatchedButton: ConnectButtonPresenting {
        var actionHandler: (@MainActor (ConnectButtonAction) -> Void)?
        private(set) var step: ConnectButtonStep = .loading
        private var waiters: [(ConnectButtonStep, CheckedContinuation<Void, Never>)] = []
        let appearanceEnvironment = ConnectButtonEnvironment()

        func show(_ appearance: ConnectButtonAppearance) {}

        func show(_ step: ConnectButtonStep, connection: Connection?, suggestedEmail: String) {
            self.step = step
            let ready = waiters.filter { $0.0 == step }
            waiters.removeAll { $0.0 == step }
            for (_, waiter) in ready { waiter.resume() }
        }

        /// Returns once the button shows `step` (at once if it does).
        func wait(for step: ConnectButtonStep) async {
            if self.step == step { return }
            await withCheckedContinuation { waiters.append((step, $0)) }
        }

        /// What a tap or the return key sends.
        func tap(_ action: ConnectButtonAction) { actionHandler?(action) }
    }
}
