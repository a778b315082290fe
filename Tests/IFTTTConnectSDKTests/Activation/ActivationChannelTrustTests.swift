import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTConnectCore

/// Issue 27: a 2.8 app (no partner backend, no user token yet) works unchanged where the channel binds the token to
/// the flow, and says exactly why where it cannot. One test per row of the Activation article's channel table:
/// channel (the app's own web session callback, the IFTTT app hand-off, an email link, an `http(s)`/loopback
/// redirect) × voucher (none, partner backend).
@Suite("Activation trust per channel: what a 2.8 app without a backend gets", .timeLimit(.minutes(1)))
@MainActor
struct ActivationChannelTrustTests {
    typealias F = ActivationFixtures
    nonisolated static let alice = "tok-alice-0123456789"
    static let bob = "tok-bob-0123456789"
    static let anchor = "MigratingFrom28#A-first-activation-without-a-partner-backend"

    let transport = TokenAwareTransport([
        alice: .init(login: "alice", status: "never_enabled"),
        bob: .init(login: "bob", status: "enabled"),
    ])
    let registry = RedirectRegistry()
    let web = RecordingWebSession()
    let logs = LogCapture()
    let results = ResultRecorder()

    func aliceTurnsItOn() {
        transport.set(Self.alice, .init(login: "alice", status: "enabled"))
    }

    func makeController(
        backend: PartnerBackend? = nil, redirectURL: URL = F.redirectURL, opener: RecordingURLOpener = .init(),
        statePolicy: RedirectStatePolicy = .verifyWhenMissing
    ) -> ConnectButtonController {
        let network = ConnectionNetworkController(
            configuration: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
                callbackQueue: nil, logHandler: logs.handler))
        var configuration = ConnectButtonController.Configuration(
            networkController: network, urlOpener: opener, webAuthenticationSession: web, clock: ManualClock(),
            timing: .immediate, webActivationBaseURL: URL(string: "https://sandbox.test/access/api")!,
            logHandler: logs.handler)
        configuration.registry = registry
        configuration.analyticsUploaders = AnalyticsUploaderRegistry()
        var config = ConnectionConfiguration(
            connection: F.connection(), suggestedUserEmail: "user@example.com",
            credentialProvider: ConnectionCredentials(oauthCode: "o", partnerBackend: backend),
            redirectURL: redirectURL)
        config.redirectStatePolicy = statePolicy
        return ConnectButtonController(
            connectButton: HeadlessConnectButton(), connectionConfiguration: config,
            locale: Locale(identifier: "en_US"), delegate: results, configuration: configuration)
    }

    /// Starts the flow and returns the activation URL once the web page is open.
    func startAndWait(_ controller: ConnectButtonController) async throws -> URL {
        let opened = AsyncStream<URL>.makeStream()
        web.onStart = { opened.continuation.yield($0) }
        controller.toggle()
        if controller.step == .enterEmail(invalid: false) { controller.confirmEmail("user@example.com") }
        var iterator = opened.stream.makeAsyncIterator()
        let url = try #require(await iterator.next())
        #expect(controller.step == .waitingForRedirect)
        return url
    }

    /// The redirect URL with `query`.
    func redirect(_ query: String, to base: URL = F.redirectURL) -> URL {
        URL(string: base.absoluteString + "?" + query)!
    }

    /// Hands `query` to the app's redirect handler, as `application(_:open:options:)` would (the open-URL channel).
    func openURL(_ query: String) async -> (taken: Bool, accepted: Bool) {
        await ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry).verdict(for: redirect(query))
    }

    // MARK: - Creation

    @Test func withoutAVoucherTheControllerSaysSoOnceAtCreationWithTheMigrationAnchor() {
        _ = makeController()
        let lines = logs.lines.filter { $0.contains(Self.anchor) }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("WARNING") == true)
        #expect(lines.first?.contains("web session") == true)

        var seen = logs.count
        _ = makeController(redirectURL: URL(string: "http://127.0.0.1:9/cb")!)
        #expect(
            logs.lines.dropFirst(seen).filter { $0.contains(Self.anchor) && $0.contains("noPartnerBackend") }.count == 1
        )

        seen = logs.count
        _ = makeController(backend: BackendAnswer().backend)
        #expect(logs.lines.dropFirst(seen).filter { $0.contains(Self.anchor) }.isEmpty)
    }

    // MARK: - The app's own web session callback

    /// Row: session callback × none. The 2.8 path: the callback the app's own session caught keeps its token once
    /// IFTTT confirms it. Before: the activation failed at the tap with `noPartnerBackend` (a network error).
    @Test func withoutAVoucherTheSessionCallbackKeepsItsConfirmedToken() async throws {
        let controller = makeController()
        _ = try await startAndWait(controller)
        aliceTurnsItOn()
        web.end(.callback(redirect("next_step=complete&user_token=\(Self.alice)")))
        let activation = try await result().get()
        #expect(activation.userToken == Self.alice)
        #expect(registry.count == 0)
        #expect(logs.lines.contains { $0.contains("bound to this flow") })
        #expect(!logs.lines.joined().contains(Self.alice))
    }

    /// The session callback is still checked with IFTTT: a token that does not work, or whose user does not have the
    /// Connection on, ends the flow as `unknownRedirect`; so does a callback with another flow's `state`.
    @Test func theSessionCallbacksTokenIsStillConfirmedWithIFTTT() async throws {
        let controller = makeController()
        for query in [
            "next_step=complete&user_token=garbage-token-0000",
            "next_step=complete&user_token=\(Self.alice)",  // alice has not turned it on
            "next_step=complete",
            "next_step=complete&user_token=\(Self.bob)&state=ffffffffffffffffffffffffffffffff",
        ] {
            _ = try await startAndWait(controller)
            web.end(.callback(redirect(query)))
            #expect(await result() == .failure(.unknownRedirect), "\(query)")
            #expect(controller.step == .initial)
        }
    }

    /// `RedirectStatePolicy.required` holds for the web session's callback as for every other channel: one without
    /// `state` is refused before any check, even with a real token of a user who has the Connection on. Failed
    /// before the fix (the callback was checked and its token kept); one with the flow's `state` still finishes.
    @Test func requiredStateHoldsForTheSessionCallbackToo() async throws {
        let controller = makeController(statePolicy: .required)
        _ = try await startAndWait(controller)
        aliceTurnsItOn()
        let checks = transport.verificationRequests
        web.end(.callback(redirect("next_step=complete&user_token=\(Self.alice)")))
        #expect(await result() == .failure(.unknownRedirect))
        #expect(transport.verificationRequests == checks)
        let page = try await startAndWait(controller)
        let state = try #require(F.query(page).first { $0.0 == "state" }?.1)
        web.end(.callback(redirect("next_step=complete&user_token=\(Self.alice)&state=\(state)")))
        #expect(try await result().get().userToken == Self.alice)
    }

    /// The documented limit of the session channel without a voucher: a page shown *inside* the session (IFTTT's
    /// own pages, the partner's sign-in page) that navigates to the callback with another account's real token
    /// is kept. No other app and no page outside the session can do this (see the Activation article).
    @Test func aPageInsideTheSessionCanStillNameAnotherEnabledAccount() async throws {
        let controller = makeController()
        _ = try await startAndWait(controller)
        web.end(.callback(redirect("next_step=complete&user_token=\(Self.bob)")))
        #expect(try await result().get().userToken == Self.bob)
    }

    /// Row: session callback × partner backend. The backend decides; the callback's own token is never kept.
    @Test func withAPartnerBackendTheSessionCallbacksTokenIsNeverKept() async throws {
        let answer = BackendAnswer()
        answer.vouch(for: Self.alice)
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        aliceTurnsItOn()
        web.end(.callback(redirect("next_step=complete&user_token=\(Self.bob)")))
        #expect(try await result().get().userToken == Self.alice)
        #expect(answer.calls == 1)
    }

    // MARK: - Open-URL channels: the IFTTT app hand-off and email links

    /// Row: open-URL (another app, a page, the IFTTT app, an email link) × none. Bob's real token, opened at the
    /// redirect URL while alice's session is open, is refused and changes nothing; her session callback finishes.
    @Test func withoutAVoucherAnOpenURLRedirectIsRefusedAndTheSessionStillFinishes() async throws {
        let controller = makeController()
        _ = try await startAndWait(controller)
        #expect(await openURL("next_step=complete&user_token=\(Self.bob)") == (true, false))
        #expect(controller.step == .waitingForRedirect)
        #expect(logs.lines.contains { $0.contains("only the app's own web session") })
        aliceTurnsItOn()
        web.end(.callback(redirect("next_step=complete&user_token=\(Self.alice)")))
        #expect(try await result().get().userToken == Self.alice)
    }

    /// Rows: hand-off × none and email link × none. With the IFTTT app and mail apps installed, a flow without a
    /// voucher does not hand off to the IFTTT app and offers no mail app: their redirects would come back through
    /// open-URL, which any app or page can write. It opens the web page in the app's own session instead.
    @Test func withoutAVoucherTheFlowUsesNeitherTheIFTTTAppNorEmailLinks() async throws {
        let opener = RecordingURLOpener(installed: ["ifttt-handoff-v1", "message", "googlegmail"])
        let controller = makeController(opener: opener)
        let page = try await startAndWait(controller)
        #expect(opener.opened.isEmpty)
        #expect(!F.query(page).contains { $0.0 == "available_email_app_schemes[]" })
    }

    /// Rows: hand-off × partner backend and email link × partner backend. With a voucher the IFTTT app is used, mail
    /// apps are offered, and an open-URL redirect finishes with the backend's token, never the redirect's.
    @Test func withAPartnerBackendTheHandoffIsUsedAndItsRedirectIsVouched() async throws {
        let answer = BackendAnswer()
        answer.vouch(for: Self.alice)
        let opener = RecordingURLOpener(installed: ["ifttt-handoff-v1", "message"])
        let controller = makeController(backend: answer.backend, opener: opener)
        controller.toggle()
        let handoff = try await opener.next()
        #expect(handoff.scheme == "ifttt-handoff-v1")
        #expect(await openURL("next_step=complete&user_token=\(Self.bob)") == (true, false))
        aliceTurnsItOn()
        #expect(await openURL("next_step=complete&user_token=\(Self.bob)") == (true, true))
        #expect(try await result().get().userToken == Self.alice)

        // The web page of the same app offers its mail apps (the email-link path).
        let mail = makeController(backend: answer.backend, opener: RecordingURLOpener(installed: ["message"]))
        let page = try await startAndWait(mail)
        #expect(F.query(page).contains { $0 == ("available_email_app_schemes[]", "message://") })
    }

    // MARK: - http(s) and loopback redirect URLs

    /// Row: loopback / universal link × none. Other programs can open an `http(s)` redirect URL and no session
    /// catches it: the activation fails at the tap, before anything opens, with a reason a 2.8 `switch` shows as
    /// an unknown error (not a network error); the log names the fix. Before: `.networkError(.genericError(...))`.
    @Test func withoutAVoucherAnHTTPRedirectURLFailsAtOnceWithATypedReason() async throws {
        let controller = makeController(redirectURL: URL(string: "http://127.0.0.1:9/ifttt/callback")!)
        let seen = logs.count
        controller.toggle()
        let error = try #require(await result().failure)
        #expect(error == .unknownRedirect)
        #expect(error == .noPartnerBackend)
        #expect(error.apiError == nil)
        if case .networkError = error { Issue.record("reported as a network error") }
        #expect(web.started.isEmpty)
        #expect(registry.count == 0)
        #expect(logs.lines.dropFirst(seen).contains { $0.contains("partnerBackend") && $0.contains(Self.anchor) })
    }

    func result() async -> Result<ConnectionActivation, ConnectButtonControllerError> {
        await results.next()
    }
}

extension Result {
    /// The failure, if any.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
