import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The redirect authority is compared as written: variants `URL` normalises to the same port are refused.
@Suite("Redirect authority as written")
struct RedirectAuthorityTests {
    static let state = "0123456789abcdef0123456789abcdef"
    static let ok = "next_step=complete&user_token=tok123&state=\(state)"

    /// Registers a flow waiting on `configured` and hands it `redirect` (as text with `asText`); returns whether it
    /// was taken.
    static func taken(configured: String, redirect: String, asText: Bool = false) throws -> Bool {
        let registry = RedirectRegistry()
        let matcher = try #require(RedirectURLMatcher(redirectURL: URL(string: configured)!))
        registry.register(matcher, nonce: RedirectNonce(value: state), verifier: .vouchingForTests()) { _ in }
        let handler = ConnectionRedirectHandler(redirectURL: URL(string: configured)!, registry: registry)
        if asText { return handler.handleApplicationRedirect(urlString: redirect) }
        guard let url = URL(string: redirect) else { return false }
        return handler.handleApplicationRedirect(url: url)
    }

    @Test func theGenuineURLsAreTaken() throws {
        #expect(
            try Self.taken(
                configured: "groceryexpress://ifttt/callback", redirect: "groceryexpress://ifttt/callback?\(Self.ok)"))
        #expect(try Self.taken(configured: "http://127.0.0.1:8080/cb", redirect: "http://127.0.0.1:8080/cb?\(Self.ok)"))
        #expect(try Self.taken(configured: "http://127.0.0.1/cb", redirect: "http://127.0.0.1/cb?\(Self.ok)"))
    }

    @Test func anEmptyPortOnACustomSchemeIsRefused() throws {
        #expect(
            try !Self.taken(
                configured: "groceryexpress://ifttt/callback", redirect: "groceryexpress://ifttt:/callback?\(Self.ok)"))
    }

    @Test func anEmptyPortOnALoopbackURLWithoutPortIsRefused() throws {
        #expect(try !Self.taken(configured: "http://127.0.0.1/cb", redirect: "http://127.0.0.1:/cb?\(Self.ok)"))
    }

    @Test func aLeadingZeroPortIsRefused() throws {
        #expect(
            try !Self.taken(configured: "http://127.0.0.1:8080/cb", redirect: "http://127.0.0.1:08080/cb?\(Self.ok)"))
    }

    @Test func aNonASCIIHostAsWrittenIsRefused() throws {
        // Foundation maps a full-width host to ASCII inside `URL(string:)` (UTS #46, as browsers do), so the `URL`
        // value is the genuine one; written as text, it is refused.
        let fullWidth = "http://１２７.０.０.１:8123/cb?\(Self.ok)"
        #expect(URL(string: fullWidth) == URL(string: "http://127.0.0.1:8123/cb?\(Self.ok)"))
        #expect(try !Self.taken(configured: "http://127.0.0.1:8123/cb", redirect: fullWidth, asText: true))
        #expect(
            try !Self.taken(
                configured: "groceryexpress://ifttt/cb", redirect: "groceryexpress://ｉfttt/cb?\(Self.ok)", asText: true)
        )
        #expect(
            try !Self.taken(
                configured: "http://127.0.0.1:8123/cb", redirect: "http://127.0.0.1:8123/cb?\(Self.ok)&x=é",
                asText: true))
        // The same redirect written in ASCII is taken as text too.
        #expect(
            try Self.taken(
                configured: "http://127.0.0.1:8123/cb", redirect: "http://127.0.0.1:8123/cb?\(Self.ok)", asText: true))
        // Percent-encoded, the host no longer equals the configured one as written.
        #expect(
            try !Self.taken(
                configured: "http://127.0.0.1:8123/cb",
                redirect: "http://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1:8123/cb?\(Self.ok)"))
    }

    @Test func manyLeadingZerosAreRefused() throws {
        #expect(
            try !Self.taken(
                configured: "http://127.0.0.1:8080/cb", redirect: "http://127.0.0.1:0000008080/cb?\(Self.ok)"))
    }
}

/// A controller released while its flow waits is freed, and its registration goes with it.
@Suite("Released controllers", .timeLimit(.minutes(1)))
@MainActor
struct ReleasedControllerTests {
    typealias F = ActivationFixtures

    @Test func aControllerReleasedWhileItsFlowWaitsIsFreedAndItsRedirectIsNotSwallowed() async throws {
        let transport = ScriptedTransport(["GET /v2/account/find": HTTPResponse(statusCode: 204)])
        let registry = RedirectRegistry()
        let web = RecordingWebSession()
        let opener = RecordingURLOpener()
        let network = ConnectionNetworkController(
            configuration: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
                callbackQueue: nil))
        var configuration = ConnectButtonController.Configuration(
            networkController: network, urlOpener: opener, webAuthenticationSession: web, clock: ManualClock(),
            timing: .immediate,
            webActivationBaseURL: URL(string: "https://sandbox.test/access/api")!)
        configuration.registry = registry
        configuration.analyticsUploaders = AnalyticsUploaderRegistry()
        let connectionConfiguration = ConnectionConfiguration(
            connection: F.connection(), suggestedUserEmail: "user@example.com",
            credentialProvider: ConnectionCredentials(oauthCode: "o", partnerBackend: PartnerBackend { nil }),
            redirectURL: F.redirectURL)
        weak var weakController: ConnectButtonController?
        let opened = AsyncStream<URL>.makeStream()
        web.onStart = { opened.continuation.yield($0) }
        do {
            let controller = ConnectButtonController(
                connectButton: HeadlessConnectButton(), connectionConfiguration: connectionConfiguration,
                locale: Locale(identifier: "en_US"), delegate: nil, configuration: configuration)
            weakController = controller
            controller.toggle()
            controller.confirmEmail("user@example.com")
            var iterator = opened.stream.makeAsyncIterator()
            _ = await iterator.next()
            #expect(controller.step == .waitingForRedirect)
            #expect(registry.count == 1)
        }
        // Tasks the controller started hold it only weakly; let them finish.
        for _ in 0..<100 where weakController != nil { await Task.yield() }
        #expect(weakController == nil)
        #expect(registry.count == 0)
        let state = try #require(web.started.first.flatMap { F.value("state", in: $0) })
        let redirect = URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=t&state=\(state)")!
        // Not swallowed: the app's own handling gets the URL.
        #expect(
            !ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry).handleApplicationRedirect(
                url: redirect))
    }
}
