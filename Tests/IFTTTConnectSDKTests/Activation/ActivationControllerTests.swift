import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The controller shell, headless, against a scripted transport; no real time.
@Suite("ConnectButtonController", .timeLimit(.minutes(1)))
@MainActor
struct ActivationControllerTests {
    typealias F = ActivationFixtures
    let transport = ScriptedTransport([
        "GET /v2/connections/c1": HTTPResponse(statusCode: 200, body: F.connectionJSON()),
        "GET /v2/account/find": HTTPResponse(statusCode: 204),
        "GET /v2/me": HTTPResponse(
            statusCode: 200, body: Data(#"{"type":"user","user_login":"jo","authentication_level":"user"}"#.utf8)),
        "POST /v2/connections/c1/disable": HTTPResponse(statusCode: 200, body: F.connectionJSON("disabled")),
    ])
    let registry = RedirectRegistry()
    let opener = RecordingURLOpener()
    let web = RecordingWebSession()
    let logs = LogCapture()
    let delegate = RecordingConnectButtonDelegate()
    let clock = ManualClock()

    /// The app's backend: it vouches for the user's token once asked (after the redirect).
    static let backend = PartnerBackend(name: "test backend") { F.token }

    func makeController(
        credentials: ConnectionCredentials = ConnectionCredentials(
            oauthCode: "oauth-1", inviteCode: "inv-1", partnerBackend: backend),
        redirect: URL = F.redirectURL, timing: ActivationTiming = .immediate,
        email: String = "user@example.com", connection: Connection? = nil,
        configure: (inout ConnectButtonController.Configuration) -> Void = { _ in }
    ) -> ConnectButtonController {
        let network = ConnectionNetworkController(
            configuration: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
                callbackQueue: nil, logHandler: logs.handler))
        var configuration = ConnectButtonController.Configuration(
            networkController: network, urlOpener: opener, webAuthenticationSession: web, clock: clock, timing: timing,
            webActivationBaseURL: URL(string: "https://sandbox.test/access/api")!, logHandler: logs.handler)
        configuration.registry = registry
        configuration.analyticsUploaders = AnalyticsUploaderRegistry()
        configure(&configuration)
        let config =
            connection.map {
                ConnectionConfiguration(
                    connection: $0, suggestedUserEmail: email, credentialProvider: credentials, redirectURL: redirect)
            }
            ?? ConnectionConfiguration(
                connectionId: "c1", suggestedUserEmail: email, credentialProvider: credentials,
                redirectURL: redirect)
        return ConnectButtonController(
            connectButton: HeadlessConnectButton(), connectionConfiguration: config,
            locale: Locale(identifier: "en_US"), delegate: delegate, configuration: configuration)
    }

    /// The user finished on the page: the Connection is now on for them.
    func connectionTurnedOn() {
        transport.set("GET /v2/connections/c1", HTTPResponse(statusCode: 200, body: F.connectionJSON("enabled")))
    }

    /// Completes the flow the way a browser would once the web page opens.
    func redirectOnStart(_ query: @escaping @MainActor (String) -> String, redirect: URL = F.redirectURL) {
        let registry = self.registry
        web.onStart = { [self] url in
            let state = F.value("state", in: url) ?? ""
            connectionTurnedOn()
            Task { @MainActor in
                let handler = ConnectionRedirectHandler(redirectURL: redirect, registry: registry)
                _ = handler.handleApplicationRedirect(url: URL(string: redirect.absoluteString + "?" + query(state))!)
            }
        }
    }

    @Test func aFullHeadlessFlowActivatesOnceAndLeaksNoToken() async throws {
        let controller = makeController()
        let events = controller.events()
        redirectOnStart { "next_step=complete&user_token=\(F.token)&state=\($0)" }
        let activation = try await controller.connect()
        #expect(activation.userToken == F.token)
        #expect(activation.connection.status == .enabled)
        #expect(controller.connection?.status == .enabled)
        #expect(delegate.activations.count == 1)
        // The web URL carries the state, the invite code and the email.
        let url = try #require(web.started.first)
        #expect(url.absoluteString.hasPrefix("https://sandbox.test/access/api/c1?"))
        #expect(F.value("state", in: url)?.count == 32)
        #expect(F.value("invite_code", in: url) == "inv-1")
        #expect(F.value("email", in: url) == "user@example.com")
        #expect(F.value("locale", in: url) == "en-US")
        #expect(web.dismissCount == 1)
        // A replay of the same redirect is refused and changes nothing.
        let replay = URL(
            string: F.redirectURL.absoluteString
                + "?next_step=complete&user_token=evil&state=\(F.value("state", in: url)!)")!
        #expect(
            !ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry).handleApplicationRedirect(
                url: replay))
        // Funnel events share one session id from the start of the flow.
        var seen: [ActivationFunnelEvent] = []
        for await event in events {
            seen.append(event)
            if event.kind == .activated { break }
        }
        let flowEvents = seen.drop { $0.kind != .activationStarted }
        #expect(Set(flowEvents.map(\.sessionId)).count == 1)
        #expect(flowEvents.map(\.kind).contains(.redirectAccepted))
        // No token in any log line, event or error description.
        let everything =
            logs.lines + seen.map(\.description) + [activation.description, String(describing: activation)]
        #expect(!logs.lines.isEmpty)
        #expect(
            everything.allSatisfy {
                !$0.contains(F.token) && !$0.contains("user@example.com") && !$0.contains("oauth-1")
            })
        var dumped = ""
        dump(activation, to: &dumped)
        #expect(!dumped.contains(F.token))
        #expect(delegate.activations.count == 1)
    }

    @Test func controllersShareTheUploaderOfTheirInjectedRegistryOnly() {
        let uploaders = AnalyticsUploaderRegistry()
        let first = makeController(connection: F.connection()) { $0.analyticsUploaders = uploaders }
        let second = makeController(connection: F.connection()) { $0.analyticsUploaders = uploaders }
        #expect(first.analyticsUploader === second.analyticsUploader)
        #expect(uploaders.count == 1)
    }

    @Test func analyticsEventsAreStampedWithTheControllersClock() async throws {
        let uploader = AnalyticsUploader(
            network: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
                callbackQueue: nil),
            analyticsSwitch: AnalyticsSwitch(), clock: clock)
        let controller = makeController(connection: F.connection()) { $0.analyticsUploader = uploader }
        controller.toggle()
        await controller.waitForAnalytics()
        let stamps = await uploader.pendingEvents.map(\.timestamp)
        #expect(!stamps.isEmpty)
        #expect(stamps.allSatisfy { $0 == clock.now })
        controller.cancelActivation()
    }

    @Test func errorsNeverContainTheToken() async throws {
        transport.set(
            "GET /v2/me",
            HTTPResponse(statusCode: 401, body: Data(#"{"errors":[{"message":"bad token \#(F.token)"}]}"#.utf8)))
        let controller = makeController(credentials: ConnectionCredentials(userToken: F.token))
        await #expect(throws: ConnectButtonControllerError.self) { try await controller.connect() }
        let error = try #require(
            delegate.activations.first.flatMap { if case .failure(let e) = $0 { return e } else { return nil } })
        #expect(!"\(error)".contains(F.token))
        #expect(!(error.errorDescription ?? "").contains(F.token))
        #expect(logs.lines.allSatisfy { !$0.contains(F.token) })
    }

    @Test func aServerErrorDuringLookupIsAnErrorNotANewUser() async {
        transport.set("GET /v2/account/find", HTTPResponse(statusCode: 503))
        let controller = makeController()
        let result = await { () async -> Result<ConnectionActivation, ConnectButtonControllerError> in
            do throws(ConnectButtonControllerError) { return .success(try await controller.connect()) } catch {
                return .failure(error)
            }
        }()
        #expect(result == .failure(.networkError(.apiError(statusCode: 503, payload: nil))))
        #expect(web.started.isEmpty)
        #expect(controller.step == .initial)
    }

    @Test func aNewUserIsSentWithCreateAccount() async throws {
        transport.set("GET /v2/account/find", HTTPResponse(statusCode: 404))
        let controller = makeController()
        redirectOnStart { "next_step=complete&state=\($0)" }
        let activation = try await controller.connect(email: " new@example.com ")
        #expect(activation.userToken == F.token)  // the backend's, though the redirect carried none
        #expect(F.value("sdk_create_account", in: web.started[0]) == "true")
        #expect(F.value("email", in: web.started[0]) == "new@example.com")
    }

    @Test func anInvalidEmailIsRejectedBeforeAnyRequest() async {
        let controller = makeController(email: "not-an-email")
        await #expect(throws: ConnectButtonControllerError.invalidEmail) { try await controller.connect() }
        #expect(!transport.requests.contains { $0.url.path.contains("account") })
    }

    @Test func aHostileRedirectDuringTheFlowChangesNothing() async throws {
        let controller = makeController()
        let handler = ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry)
        web.onStart = { [self] url in
            let state = F.value("state", in: url)!
            connectionTurnedOn()
            Task { @MainActor in
                let before = controller.step
                #expect(
                    !handler.handleApplicationRedirect(
                        url: URL(string: "groceryexpress://ifttt/callback?next_step=complete&user_token=x&state=bad")!))
                #expect(
                    !handler.handleApplicationRedirect(
                        url: URL(string: "groceryexpress://ifttt/callback?user_token=x&state=\(state)")!))
                #expect(
                    !handler.handleApplicationRedirect(
                        url: URL(string: "groceryexpress://other/callback?next_step=complete&state=\(state)")!))
                #expect(controller.step == before)
                #expect(
                    handler.handleApplicationRedirect(
                        url: URL(string: "groceryexpress://ifttt/callback?next_step=complete&state=\(state)")!))
            }
        }
        _ = try await controller.connect()
        #expect(delegate.activations.count == 1)
    }

    @Test func cancellingEndsTheFlowOnce() async {
        let controller = makeController()
        web.onStart = { _ in
            Task { @MainActor in
                controller.cancelActivation()
                controller.cancelActivation()
            }
        }
        await #expect(throws: ConnectButtonControllerError.canceled) { try await controller.connect() }
        #expect(delegate.activations == [.failure(.canceled)])
        #expect(registry.count == 0)
    }

    @Test func closingTheWebPageReportsCanceled() async {
        let controller = makeController()
        web.onStart = { [web] _ in Task { @MainActor in web.end(.cancelled) } }
        await #expect(throws: ConnectButtonControllerError.canceled) { try await controller.connect() }
    }

    @Test func aTokenUserIsLookedUpWithMe() async throws {
        let controller = makeController(credentials: ConnectionCredentials(userToken: F.token))
        redirectOnStart { "next_step=complete&state=\($0)" }
        _ = try await controller.connect()
        #expect(F.value("username", in: web.started[0]) == "jo")
        #expect(transport.requests.contains { $0.url.path == "/v2/me" })
    }

    @Test func theAppHandOffIsUsedWhenInstalled() async throws {
        opener.installed = ["ifttt-handoff-v1"]
        let controller = makeController(credentials: ConnectionCredentials(userToken: F.token))
        let registry = self.registry
        let task = Task { try await controller.connect() }
        while opener.opened.isEmpty { await Task.yield() }
        let url = opener.opened[0]
        #expect(url.absoluteString.hasPrefix("ifttt-handoff-v1://connections/c1?"))
        controller.applicationDidEnterBackground()
        #expect(controller.step == .initial)
        connectionTurnedOn()
        let handler = ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry)
        #expect(
            handler.handleApplicationRedirect(
                url: URL(
                    string: "groceryexpress://ifttt/callback?next_step=complete&state=\(F.value("state", in: url)!)")!))
        _ = try await task.value
        #expect(web.started.isEmpty)
    }

    @Test func disconnectReportsOnce() async throws {
        transport.set("GET /v2/connections/c1", HTTPResponse(statusCode: 200, body: F.connectionJSON("enabled")))
        let controller = makeController(credentials: ConnectionCredentials(userToken: F.token))
        let connection = try await controller.disconnect()
        #expect(connection.status == .disabled)
        #expect(delegate.deactivations.count == 1)
        #expect(transport.requests.last?.headers["Authorization"] == "Bearer \(F.token)")
    }

    @Test func theStandardPausesRunOnTheInjectedClock() async throws {
        transport.set("GET /v2/connections/c1", HTTPResponse(statusCode: 200, body: F.connectionJSON("enabled")))
        let controller = makeController(credentials: ConnectionCredentials(userToken: F.token), timing: .standard)
        _ = try await controller.disconnect()
        #expect(controller.step == .disconnected)
        let events = controller.events()
        clock.advance(by: 2000)
        for await event in events where event.step == .initial { break }
        #expect(controller.step == .initial)
    }

    @Test func loadingFailureIsReportedAfterTheRetries() async {
        transport.set("GET /v2/connections/c1", HTTPResponse(statusCode: 500))
        let controller = makeController()
        await #expect(throws: ConnectButtonControllerError.unableToGetConnection) { try await controller.connect() }
        #expect(transport.requests.filter { $0.url.path == "/v2/connections/c1" }.count == 4)
        #expect(controller.step == .loadingFailed)
    }
}

@Suite("Email validation")
struct ActivationEmailTests {
    @Test(arguments: [
        "hello@ifttt.com", "hello+mike.amu_dsen@ifttt.com", "  user@example.com\n", "a.b-c@sub.example.co.uk", "x@y.io",
    ])
    func valid(email: String) {
        #expect(EmailValidator.isValid(email))
    }

    @Test(arguments: [
        "", "   ", "hello@ifttt.com, other@ifttt.com", "Contact me at hello@ifttt.com please", "hello@ifttt",
        "hello@@ifttt.com", ".hello@ifttt.com", "hel..lo@ifttt.com", "hello@-ifttt.com", "hello@ifttt.c",
        "hello@ifttt.c0m", "hello world@ifttt.com", "mailto:hello@ifttt.com", "hello@ifttt..com",
    ])
    func invalid(email: String) {
        #expect(!EmailValidator.isValid(email))
    }
}
