@testable import ConnectCLI
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectDesktop
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectService
@_spi(Sandbox) import IFTTTConnectTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK's redirect checks against the real sandbox over loopback HTTP, in both `--redirect-state` modes: the
/// SDK's controller starts the flow and opens a web session; the test walks the sandbox's pages by posting their
/// forms, then hands the sandbox's redirect (as sent, or with `state` stripped, or forged) to the SDK's
/// ``LoopbackRedirectReceiver`` over HTTP and reads its answer (200 accepted, 400 refused). The app's partner
/// backend is the sandbox's Grocery Express backend, asked with the signed-in partner user's session.
@Suite("Redirect verification against the sandbox, end to end", .timeLimit(.minutes(2)))
@MainActor
struct RedirectVerificationEndToEndTests {
    /// What the app gives the SDK for one run, built once the sandbox's URL is known.
    typealias Credentials = @Sendable (URL) throws -> ConnectionCredentials

    /// Alice signed in to Grocery Express, without her IFTTT token (the flow identifies her by email): the backend
    /// vouches for her token.
    nonisolated static let aliceByEmail: Credentials = { sandbox in
        ConnectionCredentials(
            oauthCode: "gx-oauth-code-alice",
            partnerBackend: try Demo.partnerBackend(sandbox, session: "gx-access-token-alice"))
    }

    /// Runs one activation against a fresh sandbox in `mode` and gives `body` the harness while the flow waits.
    func withFlow(
        _ mode: RedirectStateMode, connectionId: String, credentials: @escaping Credentials,
        skipConfiguration: Bool = false, policy: RedirectStatePolicy = .verifyWhenMissing,
        prepare: @Sendable (URL, ConnectionNetworkController) async throws -> Void = { _, _ in },
        _ body: @MainActor (Harness) async throws -> Void
    ) async throws {
        try await withSandbox(redirectState: mode) { url, network in
            try await prepare(url, network)
            try await Self.run(
                url, connectionId: connectionId, credentials: try credentials(url),
                skipConfiguration: skipConfiguration, body
            ) { $0.redirectStatePolicy = policy }
        }
    }

    /// Starts an activation of `connectionId` for `email` on the sandbox at `url`, with `configure` applied to its
    /// configuration, and runs `body` while the flow waits for its redirect.
    static func run(
        _ url: URL, connectionId: String, credentials: ConnectionCredentials, email: String = "alice@example.com",
        skipConfiguration: Bool, _ body: @MainActor (Harness) async throws -> Void,
        configure: (inout ConnectionConfiguration) -> Void = { _ in }
    ) async throws {
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
        defer { receiver.stop() }
        let web = RecordingWebSession()
        var setup = ConnectButtonController.Configuration.sandbox(url)
        setup.webAuthenticationSession = web
        setup.urlOpener = RecordingURLOpener()  // no IFTTT app installed: the flow uses the web page
        setup.timing = .immediate
        var configuration = ConnectionConfiguration(
            connectionId: connectionId, suggestedUserEmail: email,
            credentialProvider: credentials, redirectURL: receiver.redirectURL,
            skipConnectionConfiguration: skipConfiguration)
        configure(&configuration)
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(), connectionConfiguration: configuration,
            delegate: nil, configuration: setup)
        let flow = Task { @MainActor in try await controller.connect(email: email) }
        let start = try await web.next()
        #expect(controller.step == .waitingForRedirect)
        let harness = Harness(
            sandbox: url, receiver: receiver, activationURL: start, controller: controller, flow: flow)
        try await body(harness)
        flow.cancel()
    }

    // MARK: - (a), (b): genuine redirects complete

    @Test(arguments: RedirectStateMode.allCases)
    func theRealRedirectCompletesTheFlow(mode: RedirectStateMode) async throws {
        try await withFlow(mode, connectionId: "gx-store-visits", credentials: Self.aliceByEmail) { flow in
            let redirect = try await flow.walkPages(email: "alice@example.com", password: "alice-password")
            #expect(Harness.hasState(redirect) == (mode == .echo))
            #expect(try await flow.deliver(redirect) == 200)
            let activation = try await flow.result()
            #expect(try await flow.login(of: activation) == "alice")
        }
    }

    @Test func anEchoedRedirectWithItsStateStrippedCompletesTheFlowToo() async throws {
        // Simulates a server that does not echo: the real redirect with `state` removed before the app sees it.
        try await withFlow(.echo, connectionId: "gx-store-visits", credentials: Self.aliceByEmail) { flow in
            let redirect = try await flow.walkPages(email: "alice@example.com", password: "alice-password")
            #expect(Harness.hasState(redirect))
            let stripped = Harness.strippingState(redirect)
            #expect(!Harness.hasState(stripped))
            #expect(try await flow.deliver(stripped) == 200)
            #expect(try await flow.login(of: try await flow.result()) == "alice")
        }
    }

    @Test(arguments: RedirectStateMode.allCases)
    func skippedConfigurationLeavesAPendingConnectionThatCompletes(mode: RedirectStateMode) async throws {
        try await withFlow(
            mode, connectionId: "gx-store-visits", credentials: Self.aliceByEmail, skipConfiguration: true
        ) { flow in
            let redirect = Harness.strippingState(
                try await flow.walkPages(email: "alice@example.com", password: "alice-password"))
            #expect(try await flow.deliver(redirect) == 200)
            #expect(try await flow.login(of: try await flow.result()) == "alice")
        }
    }

    // MARK: - (c): forged redirects are refused

    @Test(arguments: RedirectStateMode.allCases)
    func forgedRedirectsCannotFinishAlicesFlowBeforeHerConnectionIsOn(mode: RedirectStateMode) async throws {
        // The backend vouches for alice from the start (her partner account is linked), but gx-store-visits is not on
        // for her until she finishes: bob's real token, garbage and a bare `complete` are all refused.
        try await withFlow(mode, connectionId: "gx-store-visits", credentials: Self.aliceByEmail) { flow in
            #expect(
                try await flow.deliver(flow.redirect("next_step=complete&user_token=sandbox-user-token-bob")) == 400)
            #expect(try await flow.deliver(flow.redirect("next_step=complete&user_token=garbage-token-0000")) == 400)
            #expect(try await flow.deliver(flow.redirect("next_step=complete")) == 400)
            #expect(flow.controller.step == .waitingForRedirect)
            let redirect = try await flow.walkPages(email: "alice@example.com", password: "alice-password")
            #expect(try await flow.deliver(redirect) == 200)
            #expect(try await flow.login(of: try await flow.result()) == "alice")
        }
    }

    @Test(arguments: RedirectStateMode.allCases)
    func bobsEnabledAccountCannotFinishAFlowThatStartedFromAlicesToken(mode: RedirectStateMode) async throws {
        // Bob has gx-weekly-deals on; alice's flow started from her own token, which vouches: the Connection is not
        // on for her until she finishes, and then the activation is hers.
        try await withFlow(
            mode, connectionId: "gx-weekly-deals", credentials: { _ in Demo.alice }, skipConfiguration: true,
            prepare: { _, network in
                _ = try await network.disconnectConnection(with: "gx-weekly-deals", credentialProvider: Demo.alice)
                _ = try await network.enableConnection(with: "gx-weekly-deals", credentialProvider: Demo.bob)
            },
            { flow in
                #expect(
                    try await flow.deliver(flow.redirect("next_step=complete&user_token=sandbox-user-token-bob")) == 400
                )
                #expect(flow.controller.step == .waitingForRedirect)
                let redirect = try await flow.walkPages(email: "alice@example.com", password: "alice-password")
                #expect(try await flow.deliver(redirect) == 200)
                #expect(try await flow.login(of: try await flow.result()) == "alice")
            })
    }

    @Test func withoutABackendTheExplicitChoiceLetsAnotherEnabledAccountInAndTheVerifierStopsIt() async throws {
        // The documented limit of `.unvouchedRedirectToken`: alice by email, bob with the Connection on. An app
        // verifier that asks the partner's backend (POST /v2/user_token with the service key) which IFTTT user
        // alice's partner account is linked to stops it.
        try await withSandbox(redirectState: .ignore) { url, network in
            _ = try await network.enableConnection(with: "gx-weekly-deals", credentialProvider: Demo.bob)
            _ = try await network.disconnectConnection(with: "gx-weekly-deals", credentialProvider: Demo.alice)
            let service = try ConnectServiceClient(
                serviceKey: Demo.serviceKey, baseURL: url.appendingPathComponent("v2"))
            let verifier: @Sendable (RedirectedUser) async -> Bool = { redirected in
                guard
                    let linked = try? await service.exchangeUserToken(
                        userId: "gx-user-1001", accessToken: "gx-access-token-alice"),
                    let user = try? await network.fetchUser(
                        credentialProvider: ConnectionCredentials(userToken: linked))
                else { return false }
                return user.login == redirected.login
            }
            let unbacked = ConnectionCredentials(oauthCode: "gx-oauth-code-alice")
            // Nothing vouches and nothing was chosen: the activation does not even start.
            let refused = await ConnectButtonController(
                connectButton: HeadlessConnectButton(),
                connectionConfiguration: ConnectionConfiguration(
                    connectionId: "gx-weekly-deals", suggestedUserEmail: "alice@example.com",
                    credentialProvider: unbacked, redirectURL: URL(string: "http://127.0.0.1:9/ifttt/callback")!),
                delegate: nil, configuration: .sandbox(url))
            await #expect(throws: ConnectButtonControllerError.noPartnerBackend) {
                try await refused.connect(email: "alice@example.com")
            }
            // Chosen explicitly: bob's forged redirect finishes alice's flow.
            try await Self.run(
                url, connectionId: "gx-weekly-deals", credentials: unbacked, skipConfiguration: true,
                { flow in
                    let status = try await flow.deliver(
                        flow.redirect("next_step=complete&user_token=sandbox-user-token-bob"))
                    #expect(status == 200)
                    #expect(try await flow.login(of: try await flow.result()) == "bob")
                }, configure: { $0.userTokenTrust = .unvouchedRedirectToken })
            // With the verifier, the same forgery is refused and alice's real redirect completes.
            try await Self.run(
                url, connectionId: "gx-weekly-deals", credentials: unbacked, skipConfiguration: true,
                { flow in
                    #expect(
                        try await flow.deliver(flow.redirect("next_step=complete&user_token=sandbox-user-token-bob"))
                            == 400)
                    let redirect = try await flow.walkPages(email: "alice@example.com", password: "alice-password")
                    #expect(try await flow.deliver(redirect) == 200)
                    #expect(try await flow.login(of: try await flow.result()) == "alice")
                }, configure: { $0.redirectUserVerifier = verifier })
        }
    }

    // MARK: - (d): required state

    @Test func requiredStateRefusesEveryRedirectWithoutStateAgainstAnEchoingServer() async throws {
        try await withFlow(.echo, connectionId: "gx-store-visits", credentials: Self.aliceByEmail, policy: .required) {
            flow in
            #expect(
                try await flow.deliver(flow.redirect("next_step=complete&user_token=sandbox-user-token-bob")) == 400)
            let redirect = try await flow.walkPages(email: "alice@example.com", password: "alice-password")
            #expect(try await flow.deliver(Harness.strippingState(redirect)) == 400)
            #expect(flow.controller.step == .waitingForRedirect)
            #expect(try await flow.deliver(redirect) == 200)
            #expect(try await flow.login(of: try await flow.result()) == "alice")
        }
    }

    @Test func requiredStateAgainstAServerThatDoesNotEchoNeverCompletes() async throws {
        try await withFlow(.ignore, connectionId: "gx-store-visits", credentials: Self.aliceByEmail, policy: .required)
        { flow in
            let redirect = try await flow.walkPages(email: "alice@example.com", password: "alice-password")
            #expect(!Harness.hasState(redirect))
            #expect(try await flow.deliver(redirect) == 400)
            #expect(flow.controller.step == .waitingForRedirect)
            flow.flow.cancel()
            await #expect(throws: ConnectButtonControllerError.canceled) { try await flow.flow.value }
        }
    }
}

/// One running activation: the sandbox, the SDK's loopback receiver, the URL the SDK opened, the controller.
@MainActor
struct Harness {
    let sandbox: URL
    let receiver: LoopbackRedirectReceiver
    let activationURL: URL
    let controller: ConnectButtonController
    let flow: Task<ConnectionActivation, any Error>

    static let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)

    /// The app's redirect URL with `query`.
    func redirect(_ query: String) -> URL {
        URL(string: receiver.redirectURL.absoluteString + "?" + query)!
    }

    static func hasState(_ url: URL) -> Bool {
        (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).contains { $0.name == "state" }
    }

    /// `url` without its `state` item, everything else as sent.
    static func strippingState(_ url: URL) -> URL {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        let kept = (parts.percentEncodedQuery ?? "").split(separator: "&").filter { !$0.hasPrefix("state=") }
        parts.percentEncodedQuery = kept.joined(separator: "&")
        return parts.url!
    }

    /// GETs `url` on the SDK's loopback receiver, as the browser would follow the redirect; returns the status.
    nonisolated func deliver(_ url: URL) async throws -> Int {
        var request = URLRequest(url: url)
        request.timeoutInterval = 30
        let (_, response) = try await Self.session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? -1
    }

    /// The activation the flow reported.
    func result() async throws -> ConnectionActivation {
        try await flow.value
    }

    /// The login `/me` gives for the activation's token.
    func login(of activation: ConnectionActivation) async throws -> String? {
        let token = try #require(activation.userToken)
        return try await controller.configuration.networkController.fetchUser(
            credentialProvider: ConnectionCredentials(userToken: token)
        ).login
    }

    /// Walks the sandbox's pages from the activation URL the SDK opened: posts each page's form (the password on
    /// sign-in pages, `partner`'s login and password on Grocery Express's own sign-in page, Save on the
    /// configuration page) until the sandbox redirects to the app; returns that redirect without following it.
    nonisolated func walkPages(
        email: String, password: String, partner: (login: String, password: String)? = nil
    ) async throws -> URL {
        try await Self.walkPages(
            from: activationURL, to: receiver.redirectURL, email: email, password: password, partner: partner)
    }

    /// Walks the sandbox's pages from `start` (an activation URL, or a launch URL that leads to one) as
    /// ``walkPages(email:password:partner:)`` does, until the sandbox redirects to `redirectURL`.
    nonisolated static func walkPages(
        from start: URL, to redirectURL: URL, email: String, password: String,
        partner: (login: String, password: String)? = nil
    ) async throws -> URL {
        let activationURL = start
        var (status, html, response) = try await Self.fetch(URLRequest(url: activationURL))
        for _ in 0..<8 {
            if (300..<400).contains(status) {
                let location = try #require(response.value(forHTTPHeaderField: "Location"))
                let target = try #require(URL(string: location, relativeTo: response.url ?? activationURL)?.absoluteURL)
                if target.absoluteString.hasPrefix(redirectURL.absoluteString) { return target }
                (status, html, response) = try await Self.fetch(URLRequest(url: target))
                continue
            }
            #expect(status == 200, "page answered \(status): \(html.prefix(300))")
            let form = try #require(
                HTMLForm(html: html, base: response.url ?? activationURL), "no form in \(html.prefix(300))")
            let partnerPage = form.fields.contains { $0.name == "login" }
            var fields = form.fields.map { field -> (String, String) in
                if partnerPage, let partner {
                    if field.name == "login" { return (field.name, partner.login) }
                    if field.name == "password" { return (field.name, partner.password) }
                }
                if field.name == "password" { return (field.name, password) }
                if field.name == "email" && field.value.isEmpty { return (field.name, email) }
                return (field.name, field.value)
            }
            if form.hasSaveButton { fields.append(("action", "save")) }
            var request = URLRequest(url: form.action)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(
                fields.map { HTMLForm.encode($0.0) + "=" + HTMLForm.encode($0.1) }.joined(separator: "&").utf8)
            (status, html, response) = try await Self.fetch(request)
        }
        throw NoRedirectFromThePages()
    }

    private static func fetch(_ request: URLRequest) async throws -> (Int, String, HTTPURLResponse) {
        var request = request
        request.timeoutInterval = 10
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, String(decoding: data, as: UTF8.self), http)
    }
}

/// The sandbox never redirected to the app within the pages walked.
struct NoRedirectFromThePages: Error {}
