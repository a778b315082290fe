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

/// Issue 19's attacks on the activation, through the SDK against the sandbox over loopback, in both
/// `--redirect-state` modes, with the app's partner backend vouching for the token (the default trust).
///
/// Each attack worked on the code before: run there with the SDK's defaults of then, bob's redirect and the
/// leaked-state redirect were answered 200 and the flow completed as bob, or as carol, in both modes (see the
/// Activation article's threat table).
@Suite("Activation trust against the sandbox, end to end", .timeLimit(.minutes(3)))
@MainActor
struct ActivationTrustEndToEndTests {
    /// How the app's side vouches for the token in a run.
    enum Backend: String, CaseIterable, Sendable {
        /// The sandbox's Grocery Express backend (`POST /partner/grocery_express/api/user_token`, Bearer session).
        case partnerEndpoint
        /// A program that holds the service key itself (`POST /v2/user_token`).
        case serviceKeyExchange

        /// Dave's vouching backend on the sandbox at `url`: dave (`gx-user-1003`) is the partner app's signed-in
        /// user, whose partner account carol links to her IFTTT account during the activation.
        func forDave(_ url: URL) throws -> PartnerBackend {
            switch self {
            case .partnerEndpoint:
                return try Demo.partnerBackend(url, session: "gx-access-token-dave")
            case .serviceKeyExchange:
                let client = try ConnectServiceClient(
                    serviceKey: Demo.serviceKey, baseURL: url.appendingPathComponent("v2"))
                return client.partnerBackend(userId: "gx-user-1003", accessToken: "gx-access-token-dave")
            }
        }
    }

    nonisolated static let cases: [(RedirectStateMode, Backend)] = RedirectStateMode.allCases.flatMap { mode in
        Backend.allCases.map { (mode, $0) }
    }

    /// Carol's first activation of gx-weekly-deals: she signs in to IFTTT by email, Grocery Express's own sign-in
    /// links dave's partner account (dave is the partner app's signed-in user), configuration is skipped. Bob has
    /// the Connection on and sends his real token while carol's flow waits, before she even signed in: refused, the
    /// flow keeps waiting, and carol's genuine redirect completes it as carol.
    @Test(arguments: cases)
    func bobsRealTokenCannotFinishCarolsFirstActivation(mode: RedirectStateMode, backend: Backend) async throws {
        try await withSandbox(redirectState: mode) { url, network in
            _ = try await network.enableConnection(with: "gx-weekly-deals", credentialProvider: Demo.bob)
            let credentials = ConnectionCredentials(partnerBackend: try backend.forDave(url))
            try await RedirectVerificationEndToEndTests.run(
                url, connectionId: "gx-weekly-deals", credentials: credentials, email: "carol@example.com",
                skipConfiguration: true
            ) { flow in
                #expect(
                    try await flow.deliver(flow.redirect("next_step=complete&user_token=sandbox-user-token-bob")) == 400
                )
                #expect(try await flow.deliver(flow.redirect("next_step=complete")) == 400)
                #expect(flow.controller.step == .waitingForRedirect)
                let redirect = try await flow.walkPages(
                    email: "carol@example.com", password: "carol-password", partner: ("dave", "gx-dave-password"))
                #expect(Harness.hasState(redirect) == (mode == .echo))
                #expect(try await flow.deliver(redirect) == 200)
                let activation = try await flow.result()
                #expect(try await flow.login(of: activation) == "carol")
            }
        }
    }

    /// The `state` travels in the activation URL (a desktop passes it to the browser on a command line): with it,
    /// carol's real token injected into alice's flow. Before, a matching `state` skipped every check.
    @Test(arguments: RedirectStateMode.allCases)
    func aLeakedStateCannotInjectCarolsToken(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, _ in
            let credentials = try RedirectVerificationEndToEndTests.aliceByEmail(url)
            try await RedirectVerificationEndToEndTests.run(
                url, connectionId: "gx-store-visits", credentials: credentials, skipConfiguration: true
            ) { flow in
                let state = try #require(
                    URLComponents(url: flow.activationURL, resolvingAgainstBaseURL: false)?.queryItems?.first {
                        $0.name == "state"
                    }?.value)
                #expect(
                    try await flow.deliver(
                        flow.redirect("next_step=complete&user_token=sandbox-user-token-carol&state=\(state)")) == 400)
                #expect(flow.controller.step == .waitingForRedirect)
                let redirect = try await flow.walkPages(email: "alice@example.com", password: "alice-password")
                #expect(try await flow.deliver(redirect) == 200)
                #expect(try await flow.login(of: try await flow.result()) == "alice")
            }
        }
    }

    /// Eight clients send state-less junk redirects without pause while alice finishes on the page; her genuine
    /// redirect is never refused and the flow completes as alice. Before, junk held the four verification slots and
    /// the genuine redirect was answered 400, its token lost.
    @Test(arguments: RedirectStateMode.allCases)
    func aJunkFloodCannotCrowdOutTheGenuineRedirect(mode: RedirectStateMode) async throws {
        // Slow junk: every Connect API call (IFTTT checking a token) takes 200 ms.
        try await withSandbox(latency: 200, redirectState: mode) { url, _ in
            let credentials = try RedirectVerificationEndToEndTests.aliceByEmail(url)
            try await RedirectVerificationEndToEndTests.run(
                url, connectionId: "gx-store-visits", credentials: credentials, skipConfiguration: true
            ) { flow in
                let junk = flow.redirect("next_step=complete&user_token=garbage")
                // Stopped by a flag, never by cancellation: cancelling a request in flight can crash
                // FoundationNetworking on Linux (TaskRegistry), so each client finishes the request it sent.
                let stop = StopFlag()
                let flood = Task.detached {
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<8 {
                            group.addTask {
                                while await !stop.isSet { _ = try? await Self.deliverOrRefused(flow, junk) }
                            }
                        }
                    }
                }
                let redirect = try await flow.walkPages(email: "alice@example.com", password: "alice-password")
                // Once alice finished on the page, any redirect's check finds her Connection on: a junk redirect may
                // finish the flow (as alice) before hers arrives, and the receiver has stopped. Never refused.
                let status = try await Self.deliverOrRefused(flow, redirect)
                await stop.set()
                await flood.value
                #expect(status == 200 || (status == 0 && flow.receiver.isFinished))
                #expect(try await flow.login(of: try await flow.result()) == "alice")
            }
        }
    }

    /// Delivers `url` to the receiver; a refused connection (the receiver stopped once the flow finished) counts
    /// as 0. FoundationNetworking reports curl's "Couldn't connect to server" as `.cannotConnectToHost` or, seen under
    /// load, as `.unknown` with that text; a connection the receiver accepted just before it stopped ends as
    /// `.networkConnectionLost` ("Connection reset by peer"). Callers check that the receiver has finished when 0.
    nonisolated static func deliverOrRefused(_ flow: Harness, _ url: URL) async throws -> Int {
        do {
            return try await flow.deliver(url)
        } catch let error as URLError
            where error.code == .cannotConnectToHost || error.code == .networkConnectionLost
            || (error.code == .unknown && error.localizedDescription.contains("Couldn't connect to server"))
        {
            return 0
        }
    }
}

/// Tells the flooding clients to stop after their current request.
actor StopFlag {
    private(set) var isSet = false
    func set() { isSet = true }
}
