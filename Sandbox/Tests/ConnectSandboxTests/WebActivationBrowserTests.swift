import ConnectSandbox
import Foundation
import IFTTTConnectSDK
import IFTTTConnectTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif



/// The SDK's activation through the sandbox's web pages in headless Chromium, driven over WebDriver; the redirect
/// reaches the SDK's loopback receiver.
@Suite("Web activation in a real browser", .serialized,
       .enabled(if: ChromeDriver.isAvailable, "needs chromedriver and Chromium (scripts/bootstrap.sh installs them)"))
struct WebActivationBrowserTests {
    /// What an activation reported.
    struct Outcome: Sendable {
        var result: Result<ConnectionActivation, ConnectButtonControllerError>
        var delegateResults: [Result<ConnectionActivation, ConnectButtonControllerError>]
        var activationURL: URL
    }

    /// Starts an activation of `connectionId` for `email`, opens the URL the SDK built in the browser, lets `drive`
    /// go through the pages, and returns what the delegate and `connect` reported.
    @MainActor
    static func activate(_ url: URL, _ connectionId: String, email: String, oauthCode: String, skipConfiguration: Bool = false,
                         drive: @escaping @Sendable (WebDriverSession) async throws -> Void) async throws -> Outcome
    {
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
        defer { receiver.stop() }
        let opener = RecordingURLOpener()
        var configuration = ConnectButtonController.Configuration.sandbox(url)
        configuration.urlOpener = opener
        configuration.webAuthenticationSession = BrowserWebAuthenticationSession(opener: opener)
        configuration.timing = .immediate
        let delegate = RecordingConnectButtonDelegate()
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(),
            connectionConfiguration: ConnectionConfiguration(
                connectionId: connectionId, suggestedUserEmail: email,
                credentialProvider: ConnectionCredentials(oauthCode: oauthCode), redirectURL: receiver.redirectURL,
                skipConnectionConfiguration: skipConfiguration),
            delegate: delegate, configuration: configuration)
        let flow = Task { @MainActor in
            do throws(ConnectButtonControllerError) {
                return Result<ConnectionActivation, ConnectButtonControllerError>.success(try await controller.connect(email: email))
            } catch {
                return .failure(error)
            }
        }
        let activationURL = try await opener.next()
        do {
            try await WebDriverSession.with { browser in
                try await browser.navigate(to: activationURL)
                try await drive(browser)
                // The last click can return before the browser followed the 303 to the loopback receiver: keep the
                // browser open until the receiver took the redirect.
                let deadline = Date().addingTimeInterval(10)
                while !receiver.isFinished {
                    guard Date() < deadline else {
                        throw ChromeDriver.Failure(description: "the redirect did not reach the loopback receiver; the browser is on \(await browser.pagePath)")
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        } catch {
            controller.cancelActivation()
            _ = await flow.value
            throw error
        }
        let result = await flow.value
        #expect(receiver.isFinished)
        return Outcome(result: result, delegateResults: delegate.activations, activationURL: activationURL)
    }

    @Sendable static func signIn(_ browser: WebDriverSession, password: String) async throws {
        #expect(try await browser.title == "Sign in to IFTTT")
        try await browser.fill("#password", password)
        try await browser.click("#submit")
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
                credentialProvider: ConnectionCredentials(userToken: token), redirectURL: URL(string: "http://127.0.0.1:1/ifttt/callback")!),
            delegate: delegate, configuration: configuration)
        let connection = try await controller.disconnect()
        return (connection, delegate.deactivations.count)
    }

    @Test func existingUserSignsInAuthorizesConfiguresAndDisconnectsLater() async throws {
        try await withSandbox(redirectState: .echo) { url, network in
            let outcome = try await Self.activate(url, "gx-store-visits", email: "alice@example.com",
                                                                        oauthCode: "gx-oauth-code-alice") { browser in
                #expect(try await browser.value("#email") == "alice@example.com")
                try await Self.signIn(browser, password: "alice-password")
                #expect(try await browser.title == "Authorize Grocery Express")
                try await browser.click("#submit")
                #expect(try await browser.title.hasPrefix("Configure "))
                try await browser.fill("input[name='field:store-visit-log:ft-store-visit:location:radius']", "250")
                try await browser.click("#save")
            }
            #expect(outcome.activationURL.absoluteString.hasPrefix(url.appendingPathComponent("access/api/gx-store-visits").absoluteString + "?"))
            let activation = try outcome.result.get()
            #expect(outcome.delegateResults.count == 1)
            #expect((try? outcome.delegateResults.first?.get())?.userToken == activation.userToken)
            #expect(activation.connection.status == .enabled)
            let token = try #require(activation.userToken)
            let me = try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: token))
            #expect(me.login == "alice")
            let fetched = try await network.fetchConnection(for: "gx-store-visits", credentialProvider: ConnectionCredentials(userToken: token))
            #expect(fetched.status == .enabled)
            #expect(fetched.locationRegions.first?.radius == 250)

            // Disconnect afterwards, through a controller that now has the token.
            let (disconnected, deactivations) = try await Self.disconnect(url, "gx-store-visits", token: token)
            #expect(disconnected.status == .disabled)
            #expect(deactivations == 1)
            #expect(try await network.fetchConnection(for: "gx-store-visits", credentialProvider: ConnectionCredentials(userToken: token)).status == .disabled)
        }
    }

    @Test func newUserCreatesAnAccountAndFillsTheFields() async throws {
        try await withSandbox(redirectState: .echo) { url, network in
            let outcome = try await Self.activate(url, "gx-weekly-deals", email: "new.person@example.com",
                                                                 oauthCode: "gx-oauth-code-dave") { browser in
                #expect(try await browser.title == "Create your IFTTT account")
                #expect(try await browser.value("#email") == "new.person@example.com")
                try await browser.fill("#password", "a new password")
                try await browser.click("#submit")
                try await browser.click("#submit")   // authorize
                try await browser.click("#save")     // required fields missing: the page says so
                #expect(try await browser.source.contains("is missing"))
                try await browser.fill("input[name='field:weekly-deals-email:fa-email-deals:subject']", "Deals <this> week")
                try await browser.click("select[name='field:weekly-deals-email:ft-weekly-deals:store'] option[value='store-2001-mission']")
                try await browser.click("#save")
            }
            #expect(outcome.activationURL.query?.contains("sdk_create_account=true") == true)
            let token = try #require(try outcome.result.get().userToken)
            #expect(try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: token)).login == "newperson")
            let connection = try await network.fetchConnection(for: "gx-weekly-deals", credentialProvider: ConnectionCredentials(userToken: token))
            #expect(connection.status == .enabled)
        }
    }

    @Test func skipConfigLeavesItPendingUntilUpdatedThroughTheAPI() async throws {
        try await withSandbox(redirectState: .echo) { url, _ in
            let outcome = try await Self.activate(url, "gx-arrive-store", email: "bob@example.com",
                                                                 oauthCode: "gx-oauth-code-bob", skipConfiguration: true) { browser in
                try await Self.signIn(browser, password: "bob-password")
                try await browser.click("#submit")   // authorize; no configuration page
            }
            #expect(outcome.activationURL.query?.contains("skip_config=true") == true)
            let token = try #require(try outcome.result.get().userToken)
            let client = Client(base: url)
            let pending = try await client.get("/v2/connections/gx-arrive-store", token: token)
            #expect(try pending.json["user_status"]?.stringValue == "enabled")
            #expect(try pending.json["user_connection"]?["pending"] == .bool(true))
            // The trigger's location is a required, visible field: the update has to give it.
            let update: SandboxJSON = ["user_features": [[
                "feature_id": "arrive-show-list", "enabled": true,
                "user_feature_triggers": [["feature_trigger_id": "ft-arrive-store",
                                           "user_fields": [["field_id": "location",
                                                            "value": ["latitude": 37.784, "longitude": -122.4075, "radius": 200,
                                                                      "address": "923 Market St, San Francisco"]]]]],
            ]]]
            let updated = try await client.put("/v2/connections/gx-arrive-store/user_connection", token: token, json: update)
            #expect(updated.status == 200)
            #expect(try updated.json["user_connection"]?["pending"] == nil)
            let after = try await client.get("/v2/connections/gx-arrive-store", token: token)
            #expect(try after.json["user_connection"]?["pending"] == nil)
        }
    }

    @Test func cancellingTheConfigurationReportsIt() async throws {
        try await withSandbox(redirectState: .echo) { url, _ in
            let outcome = try await Self.activate(url, "gx-arrive-store", email: "carol@example.com",
                                                           oauthCode: "gx-oauth-code-dave") { browser in
                try await Self.signIn(browser, password: "carol-password")
                try await browser.click("#submit")
                try await browser.click("#cancel")
            }
            #expect(throws: ConnectButtonControllerError.userCancelledConfiguration) { try outcome.result.get() }
            #expect(outcome.delegateResults.count == 1)
        }
    }

    @Test func accountCreationFailureIsReported() async throws {
        try await withSandbox(redirectState: .echo) { url, _ in
            let outcome = try await Self.activate(url, "gx-arrive-store", email: "someone@fail.example",
                                                           oauthCode: "gx-oauth-code-dave") { browser in
                try await browser.fill("#password", "whatever")
                try await browser.click("#submit")
            }
            #expect(throws: ConnectButtonControllerError.iftttAccountCreationFailed) { try outcome.result.get() }
            #expect(outcome.delegateResults.count == 1)
        }
    }
}
