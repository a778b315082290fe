import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectDesktop
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The receiver's deadlines come from the injected `ConnectClock`, not from the system's.
@Suite("Loopback receiver on an injected clock", .timeLimit(.minutes(1)))
struct LoopbackReceiverClockTests {
    @Test func anIdleConnectionIsClosedWhenTheInjectedClockPassesItsDeadline() throws {
        let clock = ManualClock()
        let receiver = try LoopbackRedirectReceiver(path: "/cb", registry: RedirectRegistry(), clock: clock)
        defer { receiver.stop() }
        let idle = try LoopbackTestClient(port: receiver.port)
        defer { idle.shut() }
        // A request answered at once: the receiver accepts in arrival order, so once this one is answered the idle
        // connection was accepted too, with its deadline on the manual clock's current time.
        let probe = try LoopbackTestClient(port: receiver.port)
        probe.send("GET /elsewhere HTTP/1.1\r\n\r\n")
        #expect(try probe.readAll(timeout: .seconds(3)).hasPrefix("HTTP/1.1 404"))

        clock.advance(by: UInt64(LoopbackRedirectReceiver.requestTimeoutSeconds) * 1000 + 1000)
        // Any new connection wakes the serving thread, which then finds the idle one past its deadline.
        let wake = try LoopbackTestClient(port: receiver.port)
        defer { wake.shut() }
        let start = ContinuousClock.now
        // The real clock has not reached the deadline (5 s): only the manual clock can close it this early.
        #expect(try idle.readAll(timeout: .seconds(3)) == "")
        #expect(ContinuousClock.now - start < .seconds(3))
    }

    @Test func theSystemClockIsTheDefault() throws {
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
        defer { receiver.stop() }
        #expect(receiver.redirectURL.absoluteString == "http://127.0.0.1:\(receiver.port)/ifttt/callback")
        let idle = try LoopbackTestClient(port: receiver.port)
        defer { idle.shut() }
        // Without the manual clock nothing moves the deadline: the idle connection stays open for a second.
        #expect(throws: LoopbackTestClient.Failure.timeout) { try idle.readAll(timeout: .seconds(1)) }
    }
}

/// Compiles the example of IFTTTConnectDesktop.md (it is not run: it would open a browser).
@MainActor
enum DesktopDocumentationExample {
    static func activate(email: String, credentials: ConnectionCredentials) async throws -> String? {
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
        defer { receiver.stop() }
        let configuration = ConnectionConfiguration(
            connectionId: "gx-arrive-store",
            suggestedUserEmail: email,
            credentialProvider: credentials,
            redirectURL: receiver.redirectURL)
        var setup = ConnectButtonController.Configuration.sandbox(URL(string: "http://127.0.0.1:8080")!)
        setup.webAuthenticationSession = BrowserWebAuthenticationSession(launchPad: receiver)
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(),
            connectionConfiguration: configuration,
            delegate: nil,
            configuration: setup)
        let activation = try await controller.connect(email: email)
        return activation.userToken
    }
}
