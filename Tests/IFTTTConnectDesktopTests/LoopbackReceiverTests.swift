import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Sandbox) @testable import IFTTTConnectDesktop
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The loopback receiver over real HTTP, handing redirects to the registry a waiting activation registered with (how
/// a waiting ConnectButtonController receives them is tested in the SDK's own tests, on the same registry).
@Suite("Loopback receiver over real HTTP", .timeLimit(.minutes(1)))
struct LoopbackReceiverTests {
    static let state = "0123456789abcdef0123456789abcdef"
    static let token = "user-token-loopback"

    @Test func aWaitingActivationGetsTheRedirectWithItsStateAndNothingElse() async throws {
        let registry = RedirectRegistry()
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback", registry: registry)
        defer { receiver.stop() }
        #expect(receiver.redirectURL.absoluteString == "http://127.0.0.1:\(receiver.port)/ifttt/callback")
        let (outcomes, delivered) = AsyncStream.makeStream(of: RedirectOutcome.self)
        let verifier = RedirectVerifier.vouching(for: Self.token)
        registry.register(
            try #require(RedirectURLMatcher(redirectURL: receiver.redirectURL)),
            nonce: RedirectNonce(value: Self.state),
            verifier: verifier
        ) { delivered.yield($0) }
        let base = "http://127.0.0.1:\(receiver.port)"
        #expect(try await Self.get(base + "/favicon.ico").0 == 404)
        #expect(try await Self.get(base + "/ifttt/callback?next_step=complete&user_token=x&state=wrong").0 == 400)
        let (status, page) = try await Self.get(
            base + "/ifttt/callback?next_step=complete&user_token=\(Self.token)&state=\(Self.state)")
        #expect(status == 200)
        #expect(page.contains("close this window"))
        var received = outcomes.makeAsyncIterator()
        #expect(await received.next() == .complete(userToken: RedactedToken(value: Self.token)))
        for _ in 0..<1000 where !receiver.isFinished { await Task.yield() }
        receiver.stop()
        #expect(receiver.isFinished)
    }

    /// A program stops its receiver as soon as its flow hears the redirect (`ifttt-connect connect` does); the
    /// browser that sent the redirect still gets its 200 page, not an empty reply.
    @Test func aReceiverStoppedWhenTheFlowHearsStillAnswersTheBrowser() async throws {
        let registry = RedirectRegistry()
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback", registry: registry)
        let verifier = RedirectVerifier.vouching(for: Self.token)
        registry.register(
            try #require(RedirectURLMatcher(redirectURL: receiver.redirectURL)),
            nonce: RedirectNonce(value: Self.state),
            verifier: verifier
        ) { _ in receiver.stop() }
        let (status, page) = try await Self.get(
            "http://127.0.0.1:\(receiver.port)/ifttt/callback?next_step=complete&user_token=\(Self.token)&state=\(Self.state)"
        )
        #expect(status == 200)
        #expect(page.contains("close this window"))
        #expect(receiver.isFinished)
    }

    @Test func theReceiverStopsCleanlyAndRefusesOversizedRequests() async throws {
        let receiver = try LoopbackRedirectReceiver(path: "cb", registry: RedirectRegistry())
        let base = "http://127.0.0.1:\(receiver.port)"
        let (status, _) = try await Self.get(base + "/cb?" + String(repeating: "a", count: 9000))
        #expect(status == 431)
        #expect(try await Self.get(base + "/cb?next_step=complete&state=none").0 == 400)
        receiver.stop()
        receiver.stop()
        #expect(receiver.isFinished)
        await #expect(throws: (any Error).self) { _ = try await Self.get(base + "/cb") }
    }

    static func get(_ text: String) async throws -> (Int, String) {
        var request = URLRequest(url: try #require(URL(string: text)))
        request.timeoutInterval = 5
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}
