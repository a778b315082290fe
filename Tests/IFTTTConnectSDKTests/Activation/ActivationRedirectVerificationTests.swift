import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTConnectCore

/// A Connect API that knows users by token: `/me` answers each token's login, the Connection answers each
/// token's status. Unknown tokens get 401. Records every request.
final class TokenAwareTransport: HTTPTransport, Sendable {
    struct Account {
        var login: String
        var status: String
        var pending = false
    }

    private struct State {
        var accounts: [String: Account]
        var recorded: [HTTPRequest] = []
    }

    private let state: Locked<State>

    init(_ accounts: [String: Account]) {
        state = Locked(State(accounts: accounts))
    }

    var requests: [HTTPRequest] { state.withLock { $0.recorded } }

    /// How many verification requests (`/me` and the Connection) were made; analytics uploads are not counted.
    var verificationRequests: Int {
        requests.filter { ["/v2/me", "/v2/connections/c1"].contains($0.url.path) }.count
    }

    func set(_ token: String, _ account: Account) {
        state.withLock { $0.accounts[token] = account }
    }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let token = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) }
        let account: Account? = state.withLock { state in
            state.recorded.append(request)
            return token.flatMap { state.accounts[$0] }
        }
        switch request.method + " " + request.url.path {
        case "GET /v2/account/find":
            return HTTPResponse(statusCode: 204)
        case "GET /v2/me":
            guard let account else {
                if token == nil {
                    return HTTPResponse(
                        statusCode: 200, body: Data(#"{"type":"user","authentication_level":"none"}"#.utf8))
                }
                return HTTPResponse(statusCode: 401, body: Data(#"{"errors":[{"message":"Unauthorized"}]}"#.utf8))
            }
            return HTTPResponse(
                statusCode: 200,
                body: Data(#"{"type":"user","user_login":"\#(account.login)","authentication_level":"user"}"#.utf8))
        case "GET /v2/connections/c1":
            guard let account else {
                if token == nil { return HTTPResponse(statusCode: 200, body: ActivationFixtures.connectionJSON()) }
                return HTTPResponse(statusCode: 401)
            }
            var text = String(decoding: ActivationFixtures.connectionJSON(account.status), as: UTF8.self)
            if account.pending {
                text.removeLast()
                text += #","user_connection":{"pending":true,"user_features":[]}}"#
            }
            return HTTPResponse(statusCode: 200, body: Data(text.utf8))
        default:
            return HTTPResponse(statusCode: 404)
        }
    }
}

/// Holds callers until opened; counts the callers it let through.
actor Gate {
    private var isOpen = false
    private var parked: [CheckedContinuation<Void, Never>] = []
    private(set) var released = 0

    /// How many callers wait at the gate now.
    var waiting: Int { parked.count }

    func wait() async {
        if !isOpen { await withCheckedContinuation { parked.append($0) } }
        released += 1
    }

    func open() {
        isOpen = true
        for continuation in parked { continuation.resume() }
        parked = []
    }
}

/// A delegate that buffers activation results, so a test can wait for one that may already have arrived.
@MainActor
final class ResultRecorder: ConnectButtonControllerDelegate {
    private var buffered: [Result<ConnectionActivation, ConnectButtonControllerError>] = []
    private var waiter: CheckedContinuation<Result<ConnectionActivation, ConnectButtonControllerError>, Never>?

    func next() async -> Result<ConnectionActivation, ConnectButtonControllerError> {
        if !buffered.isEmpty { return buffered.removeFirst() }
        return await withCheckedContinuation { waiter = $0 }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>
    ) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: result)
        } else {
            buffered.append(result)
        }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {}
}

/// The partner backend's answer, changed by the test as the user signs in and links accounts: `nil` until linked.
final class BackendAnswer: Sendable {
    private let state = Locked<(token: String?, calls: Int, failing: Bool)>((nil, 0, false))
    /// Held until opened, when set: every call waits at the gate first.
    let gate: Gate?

    init(gate: Gate? = nil) { self.gate = gate }

    var calls: Int { state.withLock { $0.calls } }
    func vouch(for token: String?) { state.withLock { $0.token = token } }
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

    /// The backend as the app's credential provider gives it.
    var backend: PartnerBackend {
        PartnerBackend(name: "test backend") { [self] in
            if let gate { await gate.wait() }
            let (token, failing) = state.withLock { state -> (String?, Bool) in
                state.calls += 1
                return (state.token, state.failing)
            }
            if failing { throw ConnectAPIError.apiError(statusCode: 503, payload: nil) }
            return token
        }
    }
}

/// The token an activation hands over is one the app's side vouches for (issue 19): a redirect is only a signal,
/// with or without `state`. One test per attack; each says how the code before failed it.
@Suite("Activation trust: the kept token is vouched for", .timeLimit(.minutes(1)))
@MainActor
struct ActivationRedirectVerificationTests {
    typealias F = ActivationFixtures
    nonisolated static let alice = "tok-alice-0123456789"
    /// Another token of alice's, as a redirect may carry one the backend did not issue.
    static let aliceAgain = "tok-alice-redirect-0123456789"
    static let bob = "tok-bob-0123456789"

    let transport = TokenAwareTransport([
        alice: .init(login: "alice", status: "never_enabled"),
        aliceAgain: .init(login: "alice", status: "never_enabled"),
        bob: .init(login: "bob", status: "enabled"),
    ])
    let registry = RedirectRegistry()
    let web = RecordingWebSession()
    let logs = LogCapture()
    let results = ResultRecorder()

    /// Alice turned the Connection on: every token of hers now sees it on.
    func aliceTurnsItOn(pending: Bool = false) {
        for token in [Self.alice, Self.aliceAgain] {
            transport.set(token, .init(login: "alice", status: pending ? "never_enabled" : "enabled", pending: pending))
        }
    }

    func makeController(
        backend: PartnerBackend? = nil, userToken: String? = nil, policy: RedirectStatePolicy = .verifyWhenMissing,
        trust: UserTokenTrust = .vouched, userVerifier: (@Sendable (RedirectedUser) async -> Bool)? = nil
    ) -> ConnectButtonController {
        let network = ConnectionNetworkController(
            configuration: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
                callbackQueue: nil, logHandler: logs.handler))
        var configuration = ConnectButtonController.Configuration(
            networkController: network, urlOpener: RecordingURLOpener(), webAuthenticationSession: web,
            clock: ManualClock(),
            timing: .immediate, webActivationBaseURL: URL(string: "https://sandbox.test/access/api")!,
            logHandler: logs.handler)
        configuration.registry = registry
        configuration.analyticsUploaders = AnalyticsUploaderRegistry()
        var config = ConnectionConfiguration(
            connection: F.connection(), suggestedUserEmail: "user@example.com",
            credentialProvider: ConnectionCredentials(oauthCode: "o", userToken: userToken, partnerBackend: backend),
            redirectURL: F.redirectURL)
        config.redirectStatePolicy = policy
        config.userTokenTrust = trust
        config.redirectUserVerifier = userVerifier
        return ConnectButtonController(
            connectButton: HeadlessConnectButton(), connectionConfiguration: config,
            locale: Locale(identifier: "en_US"), delegate: results, configuration: configuration)
    }

    /// Starts the flow and returns once the web page is open, with the `state` it sent.
    func startAndWait(_ controller: ConnectButtonController) async throws -> String {
        let opened = AsyncStream<URL>.makeStream()
        web.onStart = { opened.continuation.yield($0) }
        controller.toggle()
        if controller.step == .enterEmail(invalid: false) { controller.confirmEmail("user@example.com") }
        var iterator = opened.stream.makeAsyncIterator()
        let url = try #require(await iterator.next())
        #expect(controller.step == .waitingForRedirect)
        return try #require(F.value("state", in: url))
    }

    /// Submits `query` at the redirect URL and waits for the verdict.
    func submit(_ query: String) async -> (taken: Bool, accepted: Bool) {
        let handler = ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry)
        return await handler.verdict(for: URL(string: F.redirectURL.absoluteString + "?" + query)!)
    }

    /// The next activation result the delegate received (buffered, so it cannot be missed).
    func result() async -> Result<ConnectionActivation, ConnectButtonControllerError> {
        await results.next()
    }

    /// No token, state, login or email in any log line.
    func expectNoSecretLogged() {
        let text = logs.lines.joined(separator: "\n")
        for secret in [Self.alice, Self.aliceAgain, Self.bob, "user@example.com"] { #expect(!text.contains(secret)) }
    }

    // MARK: - The partner backend vouches (the default)

    /// Attack: while a first activation waits, another account's real token (its Connection on) arrives at the
    /// redirect URL. Before: taken after IFTTT's checks, the flow completed as bob
    /// (`withoutAnyCheckAnotherRealEnabledAccountPasses` of the code before, and the e2e baseline).
    @Test func anotherAccountsRealTokenCannotFinishAFirstActivation() async throws {
        let answer = BackendAnswer()
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, false))
        #expect(controller.step == .waitingForRedirect)
        #expect(logs.lines.contains { $0.contains("vouches for no IFTTT user token yet") })
        // Alice finishes on the page: her partner account is linked, the Connection is on for her.
        answer.vouch(for: Self.alice)
        aliceTurnsItOn()
        async let outcome = result()
        #expect(await submit("next_step=complete&user_token=\(Self.aliceAgain)") == (true, true))
        let activation = try await outcome.get()
        #expect(activation.userToken == Self.alice)  // the backend's token, not the redirect's
        #expect(await submit("next_step=complete&user_token=\(Self.aliceAgain)") == (false, false))
        expectNoSecretLogged()
    }

    @Test func theRedirectIsOnlyASignalItsTokenIsNeverKept() async throws {
        let answer = BackendAnswer()
        answer.vouch(for: Self.alice)  // a re-linked account: the backend knows alice before she finishes
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, false))
        #expect(logs.lines.contains { $0.contains("not on for the token's user") })
        aliceTurnsItOn()
        // Once the Connection is on for alice, any redirect is the signal; the activation is alice's.
        async let outcome = result()
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    /// Attack: a redirect with the flow's own `state` (leaked from the activation URL) and bob's token. Before: a
    /// matching `state` skipped every check and the flow completed as bob.
    @Test(arguments: [true, false])
    func aMatchingStateNoLongerSkipsTheCheck(backend: Bool) async throws {
        let answer = BackendAnswer()
        answer.vouch(for: Self.alice)
        let controller = backend ? makeController(backend: answer.backend) : makeController(userToken: Self.alice)
        let state = try await startAndWait(controller)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)&state=\(state)") == (true, false))
        #expect(controller.step == .waitingForRedirect)
        aliceTurnsItOn()
        async let outcome = result()
        #expect(await submit("next_step=complete&user_token=\(Self.aliceAgain)&state=\(state)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    /// Attack: junk fills the verification slots while the genuine redirect arrives. Before: 8 redirects held 4
    /// slots and the genuine one was refused (`taken == false`), its token lost.
    @Test func junkCannotCrowdOutTheGenuineRedirect() async throws {
        let gate = Gate()
        let answer = BackendAnswer(gate: gate)
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        let handler = ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry)
        var junkTaken = 0
        for index in 0..<200 {
            let junk = URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=junk-\(index)")!
            if handler.handleApplicationRedirect(url: junk) { junkTaken += 1 }
        }
        #expect(junkTaken == 200)
        while await gate.waiting < 1 { await Task.yield() }  // the first check is running, held at the backend
        answer.vouch(for: Self.alice)
        aliceTurnsItOn()
        let genuine = AsyncStream<Bool>.makeStream()
        let url = URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=\(Self.aliceAgain)")!
        let taken = handler.submit(url) { genuine.continuation.yield($0) }
        #expect(taken)
        await gate.open()
        var verdict = genuine.stream.makeAsyncIterator()
        #expect(await verdict.next() == true)
        #expect(try await result().get().userToken == Self.alice)
        // One check ran for all 201 redirects: none was queued behind another's network calls.
        #expect(answer.calls == 1)
    }

    @Test func aBackendThatCannotBeAskedKeepsTheFlowWaiting() async throws {
        let answer = BackendAnswer()
        answer.fail(true)
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        aliceTurnsItOn()
        #expect(await submit("next_step=complete&user_token=\(Self.aliceAgain)") == (true, false))
        #expect(logs.lines.contains { $0.contains("could not be asked") })
        #expect(controller.step == .waitingForRedirect)
        answer.fail(false)
        answer.vouch(for: Self.alice)
        async let outcome = result()
        #expect(await submit("next_step=complete&user_token=\(Self.aliceAgain)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    @Test func completeWithoutATokenIsASignalToo() async throws {
        let answer = BackendAnswer()
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        #expect(await submit("next_step=complete") == (true, false))
        answer.vouch(for: Self.alice)
        aliceTurnsItOn(pending: true)  // configuration skipped: the user connection is pending
        async let outcome = result()
        #expect(await submit("next_step=complete") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    // MARK: - The credential provider's own token vouches (a re-activation)

    @Test func aStartingTokenVouchesForAReactivation() async throws {
        let controller = makeController(userToken: Self.alice)
        _ = try await startAndWait(controller)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, false))
        #expect(controller.step == .waitingForRedirect)
        aliceTurnsItOn()
        async let outcome = result()
        #expect(await submit("next_step=complete&user_token=\(Self.aliceAgain)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    // MARK: - Nothing vouches

    /// Nothing vouches and the redirect URL has the app's own scheme: the flow opens only the app's web session
    /// (whose callback is bound to it; see `ActivationChannelTrustTests`), and a redirect opened from outside is
    /// refused. Before issue 27 the activation failed at the tap with `noPartnerBackend`.
    @Test func withNothingToVouchAFirstActivationWaitsOnlyForItsOwnWebSession() async throws {
        let controller = makeController()
        _ = try await startAndWait(controller)
        #expect(web.started.count == 1)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, false))
        #expect(controller.step == .waitingForRedirect)
        #expect(ConnectButtonControllerError.noPartnerBackend == .unknownRedirect)
    }

    @Test func theIntegratorsVerifierVouchesForTheRedirectsToken() async throws {
        let seen = LogCapture()
        aliceTurnsItOn()
        let controller = makeController { redirected in
            seen.handler(redirected.login)
            return redirected.login == "alice"
        }
        _ = try await startAndWait(controller)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, false))
        #expect(logs.lines.contains { $0.contains("redirectUserVerifier refused") })
        async let outcome = result()
        #expect(await submit("next_step=complete&user_token=\(Self.aliceAgain)") == (true, true))
        #expect(try await outcome.get().userToken == Self.aliceAgain)
        #expect(seen.lines == ["bob", "alice"])
    }

    /// The explicit choice of an app without a backend: the documented limit, with its warnings.
    @Test func theUnvouchedChoiceKeepsARealTokenAndSaysSo() async throws {
        let controller = makeController(trust: .unvouchedRedirectToken)
        _ = try await startAndWait(controller)
        #expect(logs.lines.contains { $0.contains("WARNING: userTokenTrust is .unvouchedRedirectToken") })
        #expect(await submit("next_step=complete&user_token=garbage-token") == (true, false))
        #expect(logs.lines.contains { $0.contains("does not work on /v2/me") })
        #expect(await submit("next_step=complete") == (false, false))
        async let outcome = result()
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, true))
        #expect(try await outcome.get().userToken == Self.bob)
        #expect(logs.lines.contains { $0.contains("WARNING: this activation finished with a user token no partner") })
        expectNoSecretLogged()
    }

    /// Attack: distinct slow junk tokens fill the redirect-token checks. Before: the genuine redirect was refused.
    @Test func withoutAVoucherJunkWaitsInLineAndTheGenuineRedirectStillWins() async throws {
        let gate = Gate()
        for index in 0..<8 { transport.set("junk-\(index)", .init(login: "mallory\(index)", status: "enabled")) }
        aliceTurnsItOn()
        let controller = makeController { redirected in
            if redirected.login != "alice" { await gate.wait() }
            return redirected.login == "alice"
        }
        _ = try await startAndWait(controller)
        let handler = ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry)
        for index in 0..<8 {
            let junk = URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=junk-\(index)")!
            #expect(handler.handleApplicationRedirect(url: junk))
        }
        while await gate.waiting < RedirectRegistry.maximumConcurrentVerifications { await Task.yield() }
        let genuine = AsyncStream<Bool>.makeStream()
        let url = URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=\(Self.aliceAgain)")!
        #expect(handler.submit(url) { genuine.continuation.yield($0) })
        await gate.open()
        var verdict = genuine.stream.makeAsyncIterator()
        #expect(await verdict.next() == true)
        #expect(try await result().get().userToken == Self.aliceAgain)
    }

    @Test func theRedirectsKeptForChecksAreBounded() async throws {
        let gate = Gate()
        let controller = makeController { _ in
            await gate.wait()
            return false
        }
        _ = try await startAndWait(controller)
        let handler = ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry)
        var taken = 0
        for index in 0..<100 {
            transport.set("junk-\(index)", .init(login: "mallory", status: "enabled"))
            let junk = URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=junk-\(index)")!
            if handler.handleApplicationRedirect(url: junk) { taken += 1 }
        }
        #expect(taken == RedirectRegistry.maximumWaitingRedirects)
        #expect(logs.lines.contains { $0.contains("too many redirects wait for verification") })
        // The same token again joins the redirect already kept: no new slot, no new check.
        let again = URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=junk-0")!
        #expect(handler.handleApplicationRedirect(url: again))
        await gate.open()
        controller.cancelActivation()
        #expect(await result() == .failure(.canceled))
    }

    // MARK: - What is refused before any check

    @Test func requiredStateRefusesEveryRedirectWithoutStateUnchecked() async throws {
        let answer = BackendAnswer()
        answer.vouch(for: Self.alice)
        aliceTurnsItOn()
        let controller = makeController(backend: answer.backend, policy: .required)
        let state = try await startAndWait(controller)
        for query in [
            "next_step=complete&user_token=\(Self.alice)", "next_step=error", "next_step=user_cancelled_configuration",
            "next_step=complete",
        ] {
            #expect(await submit(query) == (false, false), "\(query)")
        }
        #expect(answer.calls == 0)
        #expect(controller.step == .waitingForRedirect)
        async let outcome = result()
        #expect(await submit("next_step=complete&state=\(state)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    @Test func aWrongStateIsRefusedWithoutAnyCheck() async throws {
        let answer = BackendAnswer()
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        let before = transport.verificationRequests
        #expect(
            await submit("next_step=complete&user_token=\(Self.alice)&state=ffffffffffffffffffffffffffffffff") == (
                false, false
            ))
        #expect(transport.verificationRequests == before)
        #expect(answer.calls == 0)
        #expect(controller.step == .waitingForRedirect)
    }

    @Test func errorsEndTheFlowAsTheServerSays() async throws {
        let answer = BackendAnswer()
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        async let outcome = result()
        #expect(await submit("next_step=error&error_type=account_creation") == (true, true))
        #expect(await outcome == .failure(.iftttAccountCreationFailed))
        _ = try await startAndWait(controller)
        async let cancelled = result()
        #expect(await submit("next_step=user_cancelled_configuration") == (true, true))
        #expect(await cancelled == .failure(.userCancelledConfiguration))
        #expect(answer.calls == 0)
    }

    // MARK: - The web session's own callback

    @Test func aWebSessionCallbackThatIsNotVouchedForEndsTheFlowWithUnknownRedirect() async throws {
        let answer = BackendAnswer()
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        async let outcome = result()
        web.end(.callback(URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=garbage")!))
        #expect(await outcome == .failure(.unknownRedirect))
        #expect(registry.count == 0)
    }

    @Test func aWebSessionCallbackThatIsVouchedForCompletesTheFlow() async throws {
        let answer = BackendAnswer()
        answer.vouch(for: Self.alice)
        aliceTurnsItOn()
        let controller = makeController(backend: answer.backend)
        _ = try await startAndWait(controller)
        async let outcome = result()
        web.end(.callback(URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=x")!))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    // MARK: - Descriptions

    @Test func descriptionsHideTokensAndNameTheBackend() {
        let user = RedirectedUser(userToken: Self.alice, login: "alice", connectionId: "c1")
        #expect(!user.description.contains(Self.alice))
        var dumped = ""
        dump(user, to: &dumped)
        #expect(!dumped.contains(Self.alice))
        let token = Self.alice
        let backend = PartnerBackend(name: "grocery api") { token }
        let credentials = ConnectionCredentials(userToken: Self.alice, partnerBackend: backend)
        #expect(credentials.description.contains("partnerBackend: grocery api"))
        #expect(!credentials.description.contains(Self.alice))
        #expect(ConnectionCredentials(snapshotOf: credentials) == credentials)
        #expect(backend != PartnerBackend(name: "grocery api") { token })
    }
}
