import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectDesktop
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The loopback receiver serves connections concurrently with one deadline per request.
@Suite("Loopback receiver under slow and idle clients", .timeLimit(.minutes(1)))
struct LoopbackReceiverStallTests {
    static let state = "0123456789abcdef0123456789abcdef"

    @Test func aSlowClientAndTenIdleConnectionsDoNotDelayTheRealRedirect() async throws {
        let registry = RedirectRegistry()
        let receiver = try LoopbackRedirectReceiver(path: "/cb", registry: registry)
        defer { receiver.stop() }
        let delivered = DispatchSemaphore(value: 0)
        let verifier = RedirectVerifier.vouching(for: "tok")
        registry.register(
            RedirectURLMatcher(redirectURL: receiver.redirectURL)!, nonce: RedirectNonce(value: Self.state),
            verifier: verifier
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
        let response = try await offPool {
            try real.readAll(timeout: .seconds(LoopbackRedirectReceiver.requestTimeoutSeconds))
        }
        let elapsed = ContinuousClock.now - start
        #expect(response.hasPrefix("HTTP/1.1 200 OK"))
        #expect(delivered.wait(timeout: .now() + 5) == .success)
        // Served behind the slow client, it would wait for that client's request deadline; its own check is a task
        // that a loaded test run may start late, so the bound is the deadline, not a guess at the machine's speed.
        #expect(elapsed < .seconds(LoopbackRedirectReceiver.requestTimeoutSeconds), "the real redirect took \(elapsed)")
    }

    @Test func aSlowClientIsCutAtItsRequestDeadlineNotKeptAliveByEachByte() async throws {
        let receiver = try LoopbackRedirectReceiver(path: "/cb", registry: RedirectRegistry())
        defer { receiver.stop() }
        let request = "GET /cb?" + String(repeating: "a", count: 200) + " HTTP/1.1\r\n\r\n"
        let slow = try DribblingClient(port: receiver.port, request: request, interval: .milliseconds(200))
        defer { slow.stop() }
        #expect(try await offPool { slow.waitUntilDone(timeout: .seconds(9)) })
        let closed = try #require(slow.serverClosedAt)
        let held = closed - slow.connectedAt
        #expect(held < .seconds(LoopbackRedirectReceiver.requestTimeoutSeconds + 2), "held \(held)")
    }
}

/// Runs blocking work (a socket read, a semaphore, a child process) on a thread of its own, off the concurrency
/// pool and the main actor: a redirect's check runs as a task, so a test must not hold one of the pool's few threads
/// while it waits for the receiver's answer.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
