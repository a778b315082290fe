@testable import ConnectCLI
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectDesktop
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK's activation through the sandbox's web pages in headless Chromium, driven over WebDriver; the redirect
/// reaches the SDK's loopback receiver. Every flow runs against both `--redirect-state` modes.
@Suite(
    "Web activation in a real browser", .serialized,
    .enabled(if: ChromeDriver.isAvailable, "needs chromedriver and Chromium (scripts/bootstrap.sh installs them)"))
struct WebActivationBrowserTests {
    /// Whether the SDK completes a flow whose redirect carries no `state` (after verifying it with IFTTT): true since
    /// the SDK side of issue 10 (`RedirectStatePolicy`) is in. With `false`, the `ignore`-mode tests would check only
    /// the sandbox's side: the redirect the browser followed has `next_step` and no `state`.
    static let sdkCompletesWithoutState = true

    /// What an activation reported.
    struct Outcome: Sendable {
        var result: Result<ConnectionActivation, ConnectButtonControllerError>
        var delegateResults: [Result<ConnectionActivation, ConnectButtonControllerError>]
        var activationURL: URL
        /// The redirect the browser followed to the loopback receiver.
        var redirect: URLComponents

        /// The redirect's query item `name`.
        func item(_ name: String) -> String? { redirect.queryItems?.first { $0.name == name }?.value }

        /// Whether the SDK's outcome is meaningful for `mode` (see ``sdkCompletesWithoutState``).
        static func sdkChecked(_ mode: RedirectStateMode) -> Bool { mode == .echo || sdkCompletesWithoutState }
    }

    /// Starts an activation of `connectionId` for `email`, opens the URL the SDK built in the browser, lets `drive`
    /// go through the pages, and returns what the delegate and `connect` reported.
    @MainActor
    static func activate(
        _ url: URL, _ connectionId: String, email: String, oauthCode: String, skipConfiguration: Bool = false,
        mode: RedirectStateMode, drive: @escaping @Sendable (WebDriverSession) async throws -> Void
    ) async throws -> Outcome {
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
        defer { receiver.stop() }
        let opener = RecordingURLOpener()
        var configuration = ConnectButtonController.Configuration.sandbox(url)
        configuration.urlOpener = opener
        configuration.webAuthenticationSession = BrowserWebAuthenticationSession(opener: opener)
        configuration.timing = .immediate
        let delegate = RecordingConnectButtonDelegate()
        var connection = ConnectionConfiguration(
            connectionId: connectionId, suggestedUserEmail: email,
            credentialProvider: ConnectionCredentials(oauthCode: oauthCode), redirectURL: receiver.redirectURL,
            skipConnectionConfiguration: skipConfiguration)
        // These tests check the pages and the redirect's token; the trust checks have their own tests
        // (ActivationTrustEndToEndTests).
        connection.userTokenTrust = .unvouchedRedirectToken
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(), connectionConfiguration: connection, delegate: delegate,
            configuration: configuration)
        let flow = Task { @MainActor in
            do throws(ConnectButtonControllerError) {
                return Result<ConnectionActivation, ConnectButtonControllerError>.success(
                    try await controller.connect(email: email))
            } catch {
                return .failure(error)
            }
        }
        let activationURL = try await opener.next()
        let redirect = try await browse(
            activationURL, receiver: receiver, waitsForTheSDK: Outcome.sdkChecked(mode), drive: drive,
            onFailure: { controller.cancelActivation() })
        // An SDK that cannot complete without a state may keep waiting: end the flow after a grace period.
        let watchdog = Task { @MainActor in
            try await Task.sleep(for: .seconds(10))
            controller.cancelActivation()
        }
        let result = await flow.value
        watchdog.cancel()
        if Outcome.sdkChecked(mode) { #expect(receiver.isFinished) }
        return Outcome(
            result: result, delegateResults: delegate.activations, activationURL: activationURL, redirect: redirect)
    }

    /// Opens `url` in a new browser session, runs `drive`, waits until the browser followed the redirect to the
    /// loopback receiver (and, with `waitsForTheSDK`, the receiver took it), and returns that redirect URL.
    static func browse(
        _ url: URL, receiver: LoopbackRedirectReceiver, waitsForTheSDK: Bool,
        drive: @escaping @Sendable (WebDriverSession) async throws -> Void,
        onFailure: @MainActor () -> Void
    ) async throws -> URLComponents {
        let receiverPath = receiver.redirectURL.path
        do {
            return try await WebDriverSession.with { browser in
                try await browser.navigate(to: url)
                try await drive(browser)
                // The last click can return before the browser followed the 303 to the loopback receiver: keep the
                // browser open until the receiver took the redirect.
                let deadline = Date().addingTimeInterval(10)
                while true {
                    let atReceiver =
                        (try? await browser.currentURL).flatMap { URL(string: $0) }.map {
                            $0.host == "127.0.0.1" && $0.path == receiverPath
                        } ?? false
                    if atReceiver, !waitsForTheSDK || receiver.isFinished { break }
                    guard Date() < deadline else {
                        throw ChromeDriver.Failure(
                            description:
                                "the redirect did not reach the loopback receiver; the browser is on \(await browser.pagePath)"
                        )
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                let current = try await browser.currentURL
                guard let components = URLComponents(string: current) else {
                    throw ChromeDriver.Failure(description: "the browser's URL does not parse")
                }
                return components
            }
        } catch {
            await onFailure()
            throw error
        }
    }

    @Sendable static func signIn(_ browser: WebDriverSession, password: String) async throws {
        #expect(try await browser.title == "Sign in to IFTTT")
        try await browser.fill("#password", password)
        try await browser.click("#submit")
    }

    /// Grocery Express's own sign-in page (the flow had no valid code).
    @Sendable static func partnerSignIn(_ browser: WebDriverSession, login: String, password: String) async throws {
        #expect(try await browser.waitForTitle("Sign in to Grocery Express") == "Sign in to Grocery Express")
        try await browser.fill("#login", login)
        try await browser.fill("#password", password)
        try await browser.click("#submit")
    }

    /// Fills the required fields of gx-weekly-deals' configuration page and saves.
    @Sendable static func configureWeeklyDeals(_ browser: WebDriverSession) async throws {
        #expect(try await browser.waitForTitle("Configure ").hasPrefix("Configure "))
        try await browser.fill("input[name='field:weekly-deals-email:fa-email-deals:subject']", "Deals <this> week")
        try await browser.click(
            "select[name='field:weekly-deals-email:ft-weekly-deals:store'] option[value='store-2001-mission']")
        try await browser.click("#save")
    }

    /// The checks every completed flow shares: the redirect's `state` follows the mode, and (where the SDK can) the
    /// SDK reported exactly one activation with the redirect's token.
    static func expectCompleted(_ outcome: Outcome, mode: RedirectStateMode) throws -> String {
        #expect(outcome.item("next_step") == "complete")
        switch mode {
        case .echo: #expect(outcome.item("state")?.isEmpty == false)
        case .ignore: #expect(outcome.item("state") == nil)
        }
        let token = try #require(outcome.item("user_token"))
        if Outcome.sdkChecked(mode) {
            let activation = try outcome.result.get()
            #expect(activation.userToken == token)
            #expect(outcome.delegateResults.count == 1)
            #expect(activation.connection.status == .enabled)
        }
        return token
    }

    /// Turns the Connection off with a new controller that has the user token; returns it and the number of
    /// deactivations the delegate saw.
    @MainActor
    static func disconnect(_ url: URL, _ connectionId: String, token: String) async throws -> (Connection, Int) {
        var configuration = ConnectButtonController.Configuration.sandbox(url)
        configuration.urlOpener = RecordingURLOpener()
        let delegate = RecordingConnectButtonDelegate()
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(),
            connectionConfiguration: ConnectionConfiguration(
                connectionId: connectionId, suggestedUserEmail: "",
                credentialProvider: ConnectionCredentials(userToken: token),
                redirectURL: URL(string: "http://127.0.0.1:1/ifttt/callback")!),
            delegate: delegate, configuration: configuration)
        let connection = try await controller.disconnect()
        return (connection, delegate.deactivations.count)
    }

    @Test(arguments: RedirectStateMode.allCases)
    func existingUserSignsInAuthorizesConfiguresAndDisconnectsLater(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, network in
            let outcome = try await Self.activate(
                url, "gx-store-visits", email: "alice@example.com",
                oauthCode: "gx-oauth-code-alice", mode: mode
            ) { browser in
                #expect(try await browser.value("#email") == "alice@example.com")
                try await Self.signIn(browser, password: "alice-password")
                #expect(try await browser.waitForTitle("Authorize Grocery Express") == "Authorize Grocery Express")
                try await browser.click("#submit")
                #expect(try await browser.waitForTitle("Configure ").hasPrefix("Configure "))
                try await browser.fill("input[name='field:store-visit-log:ft-store-visit:location:radius']", "250")
                try await browser.click("#save")
            }
            #expect(
                outcome.activationURL.absoluteString.hasPrefix(
                    url.appendingPathComponent("access/api/gx-store-visits").absoluteString + "?"))
            let token = try Self.expectCompleted(outcome, mode: mode)
            let me = try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: token))
            #expect(me.login == "alice")
            let fetched = try await network.fetchConnection(
                for: "gx-store-visits", credentialProvider: ConnectionCredentials(userToken: token))
            #expect(fetched.status == .enabled)
            #expect(fetched.locationRegions.first?.radius == 250)

            // Disconnect afterwards, through a controller that now has the token.
            let (disconnected, deactivations) = try await Self.disconnect(url, "gx-store-visits", token: token)
            #expect(disconnected.status == .disabled)
            #expect(deactivations == 1)
            #expect(
                try await network.fetchConnection(
                    for: "gx-store-visits", credentialProvider: ConnectionCredentials(userToken: token)
                ).status == .disabled)
        }
    }

    @Test(arguments: RedirectStateMode.allCases)
    func newUserWithoutACodeGoesThroughThePartnerSignIn(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, network in
            let outcome = try await Self.activate(
                url, "gx-weekly-deals", email: "new.person@example.com", oauthCode: "", mode: mode
            ) { browser in
                #expect(try await browser.title == "Create your IFTTT account")
                #expect(try await browser.value("#email") == "new.person@example.com")
                try await browser.fill("#password", "a new password")
                try await browser.click("#submit")
                #expect(try await browser.waitForTitle("Authorize Grocery Express") == "Authorize Grocery Express")
                try await browser.click("#submit")
                try await Self.partnerSignIn(browser, login: "dave", password: "wrong")
                #expect(try await browser.source.contains("not correct"))
                try await Self.partnerSignIn(browser, login: "dave", password: "gx-dave-password")
                try await browser.click("#save")  // required fields missing: the page says so
                #expect(try await browser.source.contains("is missing"))
                try await Self.configureWeeklyDeals(browser)
            }
            #expect(outcome.activationURL.query?.contains("sdk_create_account=true") == true)
            #expect(outcome.activationURL.query?.contains("code=") == false)
            let token = try Self.expectCompleted(outcome, mode: mode)
            #expect(
                try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: token)).login
                    == "newperson")
            let connection = try await network.fetchConnection(
                for: "gx-weekly-deals", credentialProvider: ConnectionCredentials(userToken: token))
            #expect(connection.status == .enabled)
            // dave's Grocery Express account is now linked to the new user.
            let exchange = try await Client(base: url).post(
                "/v2/user_token", query: ["user_id": "gx-user-1003", "access_token": "gx-access-token-dave"],
                serviceKey: Demo.serviceKey)
            let exchanged = try #require(try exchange.json["user_token"]?.stringValue)
            #expect(
                try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: exchanged)).login
                    == "newperson")
        }
    }

    @Test(arguments: RedirectStateMode.allCases)
    func newUserWithACodeCreatesAnAccountAndFillsTheFields(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, network in
            let outcome = try await Self.activate(
                url, "gx-weekly-deals", email: "new.person@example.com",
                oauthCode: "gx-oauth-code-dave", mode: mode
            ) { browser in
                #expect(try await browser.title == "Create your IFTTT account")
                try await browser.fill("#password", "a new password")
                try await browser.click("#submit")
                try await browser.click("#submit")  // authorize with the code: no partner sign-in
                try await Self.configureWeeklyDeals(browser)
            }
            let token = try Self.expectCompleted(outcome, mode: mode)
            #expect(
                try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: token)).login
                    == "newperson")
        }
    }

    @Test(arguments: RedirectStateMode.allCases)
    func skipConfigLeavesItPendingUntilUpdatedThroughTheAPI(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, _ in
            let outcome = try await Self.activate(
                url, "gx-arrive-store", email: "bob@example.com",
                oauthCode: "gx-oauth-code-bob", skipConfiguration: true, mode: mode
            ) { browser in
                try await Self.signIn(browser, password: "bob-password")
                try await browser.click("#submit")  // authorize; no configuration page
            }
            #expect(outcome.activationURL.query?.contains("skip_config=true") == true)
            let token = try Self.expectCompleted(outcome, mode: mode)
            let client = Client(base: url)
            let pending = try await client.get("/v2/connections/gx-arrive-store", token: token)
            #expect(try pending.json["user_status"]?.stringValue == "enabled")
            // Pending: its actions do not run until Grocery Express's backend configures it (docs, "Connect URL").
            let run = "/v2/connections/gx-arrive-store/actions/grocery_express.show_shopping_list/run"
            let bob = Data(#"{"user_id": "gx-user-1002"}"#.utf8)
            #expect(try await client.post(run, serviceKey: SandboxTest.serviceKey, body: bob).status == 403)
            // The trigger's location is a required, visible field: the update has to give it.
            let update: JSONValue = [
                "user_features": [
                    [
                        "feature_id": "arrive-show-list", "enabled": true,
                        "user_feature_triggers": [
                            [
                                "feature_trigger_id": "ft-arrive-store",
                                "user_fields": [
                                    [
                                        "field_id": "location",
                                        "value": [
                                            "latitude": 37.784, "longitude": -122.4075, "radius": 200,
                                            "address": "923 Market St, San Francisco",
                                        ],
                                    ]
                                ],
                            ]
                        ],
                    ]
                ]
            ]
            let updated = try await client.put(
                "/v2/connections/gx-arrive-store/user_connection", query: ["user_id": "gx-user-1002"],
                serviceKey: SandboxTest.serviceKey, json: update)
            #expect(updated.status == 200)
            #expect(try updated.json["user_connection"]?["pending"] == nil)
            #expect(try await client.post(run, serviceKey: SandboxTest.serviceKey, body: bob).status == 204)
        }
    }

    @Test(arguments: RedirectStateMode.allCases)
    func cancellingTheConfigurationReportsIt(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, _ in
            let outcome = try await Self.activate(
                url, "gx-arrive-store", email: "carol@example.com",
                oauthCode: "gx-oauth-code-dave", mode: mode
            ) { browser in
                try await Self.signIn(browser, password: "carol-password")
                try await browser.click("#submit")
                try await browser.click("#cancel")
            }
            #expect(outcome.item("next_step") == "user_cancelled_configuration")
            #expect((outcome.item("state") != nil) == (mode == .echo))
            if Outcome.sdkChecked(mode) {
                #expect(throws: ConnectButtonControllerError.userCancelledConfiguration) { try outcome.result.get() }
                #expect(outcome.delegateResults.count == 1)
            }
        }
    }

    @Test(arguments: RedirectStateMode.allCases)
    func accountCreationFailureIsReported(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, _ in
            let outcome = try await Self.activate(
                url, "gx-arrive-store", email: "someone@fail.example",
                oauthCode: "gx-oauth-code-dave", mode: mode
            ) { browser in
                try await browser.fill("#password", "whatever")
                try await browser.click("#submit")
            }
            #expect(outcome.item("next_step") == "error" && outcome.item("error_type") == "account_creation")
            #expect((outcome.item("state") != nil) == (mode == .echo))
            if Outcome.sdkChecked(mode) {
                #expect(throws: ConnectButtonControllerError.iftttAccountCreationFailed) { try outcome.result.get() }
                #expect(outcome.delegateResults.count == 1)
            }
        }
    }

    /// `ifttt-connect connect gx-weekly-deals --email new@example.com` (no `--code`) completes through Grocery
    /// Express's sign-in, with the browser walking the pages.
    @Test(arguments: RedirectStateMode.allCases)
    func theConnectCommandWithoutACodeCompletesThroughThePartnerSignIn(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, network in
            // Dave's partner session vouches: the new account links dave's Grocery Express account on the way.
            let parsed = try IFTTTConnectCommand.parseAsRoot([
                "connect", "gx-weekly-deals", "--email", "new@example.com", "--partner-session-file",
                try CLISecretInputTests.secretFile("gx-access-token-dave"), "--no-browser", "--api", url.absoluteString,
            ])
            let command = try #require(parsed as? ConnectCommand)
            let request = try command.resolvedRequest(environment: [:])
            #expect(request.oauthCode.isEmpty)
            let opener = await RecordingURLOpener()
            let activation = Task { @MainActor in
                await ConnectCommand.activate(request, root: url, opener: opener)
            }
            let activationURL = try await opener.next()
            let redirect = try await WebDriverSession.with { browser in
                try await browser.navigate(to: activationURL)
                #expect(try await browser.title == "Create your IFTTT account")
                try await browser.fill("#password", "new password")
                try await browser.click("#submit")
                try await browser.click("#submit")  // authorize: no code, so Grocery Express's sign-in follows
                try await Self.partnerSignIn(browser, login: "dave", password: "gx-dave-password")
                try await Self.configureWeeklyDeals(browser)
                let deadline = Date().addingTimeInterval(10)
                while true {
                    let current = try await browser.currentURL
                    if current.contains("/ifttt/callback"), let parts = URLComponents(string: current) { return parts }
                    guard Date() < deadline else {
                        throw ChromeDriver.Failure(description: "no redirect to the CLI's receiver")
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(redirect.queryItems?.first { $0.name == "next_step" }?.value == "complete")
            #expect((redirect.queryItems?.contains { $0.name == "state" } ?? false) == (mode == .echo))
            let watchdog = Task {
                try await Task.sleep(for: .seconds(10))
                activation.cancel()
            }
            let result = await activation.value
            watchdog.cancel()
            if Outcome.sdkChecked(mode) {
                let token = try #require(try result.get().userToken)
                #expect(
                    try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: token)).login
                        == "new")
            }
        }
    }
}
