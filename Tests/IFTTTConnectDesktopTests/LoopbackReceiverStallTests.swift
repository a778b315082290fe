import Foundation
import Testing
@testable import IFTTTConnectDesktop
@testable import IFTTTConnectCore

/// The loopback receiver serves connections concurrently with one deadline per request.
@Suite("Loopback receiver under slow and idle clients", .timeLimit(.minutes(1)))
struct LoopbackReceiverStallTests {
    static let state = "0123456789abcdef0123456789abcdef"

    @Test func aSlowClientAndTenIdleConnectionsDoNotDelayTheRealRedirect() throws {
        let registry = RedirectRegistry()
        let receiver = try LoopbackRedirectReceiver(path: "/cb", registry: registry)
        defer { receiver.stop() }
        let delivered = DispatchSemaphore(value: 0)
        registry.register(
            RedirectURLMatcher(redirectURL: receiver.redirectURL)!, nonce: RedirectNonce(value: Self.state)
        ) { _ in
            delivered.signal()
        }
        // First in the queue: a client that sends a byte every 300 ms, then ten that connect and say nothing.
        let slow = try DribblingClient(
            port: receiver.port, request: "GET /cb?next_step=complete&state=\(Self.state) HTTP/1.1\r\n\r\n",
            interval: .milliseconds(300))
        defer { slow.stop() }
        let idle = try (0..<10).map { _ in try LoopbackTestClient(port: receiver.port) }
        defer { for client in idle { client.shut() } }

        let start = ContinuousClock.now
        let real = try LoopbackTestClient(port: receiver.port)
        real.send("GET /cb?next_step=complete&user_token=tok&state=\(Self.state) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let response = try real.readAll(timeout: .seconds(3))
        let elapsed = ContinuousClock.now - start
        #expect(response.hasPrefix("HTTP/1.1 200 OK"))
        #expect(delivered.wait(timeout: .now()) == .success)
        #expect(elapsed < .seconds(1), "the real redirect took \(elapsed)")
    }

    @Test func aSlowClientIsCutAtItsRequestDeadlineNotKeptAliveByEachByte() throws {
        let receiver = try LoopbackRedirectReceiver(path: "/cb", registry: RedirectRegistry())
        defer { receiver.stop() }
        let request = "GET /cb?" + String(repeating: "a", count: 200) + " HTTP/1.1\r\n\r\n"
        let slow = try DribblingClient(port: receiver.port, request: request, interval: .milliseconds(200))
        defer { slow.stop() }
        #expect(slow.waitUntilDone(timeout: .seconds(9)))
        let closed = try #require(slow.serverClosedAt)
        let held = closed - slow.connectedAt
        #expect(held < .seconds(LoopbackRedirectReceiver.requestTimeoutSeconds + 2), "held \(held)")
    }
}
