import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectDesktop

/// The receiver hands a redirect to the SDK as the client wrote it: its request target behind the receiver's own
/// `http://127.0.0.1:PORT`. The client's `Host` header is never read and an absolute-form request line is not the
/// redirect path, so a full-width host such as `１２７.０.０.１` has nowhere to go; a non-ASCII character in the
/// target is refused rather than percent-encoded by Foundation into something the check takes.
@Suite("Loopback receiver: redirects as written", .timeLimit(.minutes(1)))
struct LoopbackReceiverAsWrittenTests {
    /// Sends `request` on a fresh connection and returns the response's status line.
    static func statusLine(_ request: String, port: UInt16) throws -> String {
        let client = try LoopbackTestClient(port: port)
        defer { client.shut() }
        client.send(request)
        let response = try client.readAll(timeout: .seconds(5))
        return response.components(separatedBy: "\r\n").first ?? ""
    }

    @Test func aNonASCIIRequestTargetIsRefusedAndAFullWidthHostHasNowhereToGo() async throws {
        // Blocking sockets and a semaphore, on a thread of their own: the redirect's check is a task.
        try await offPool {
            let delivered = DispatchSemaphore(value: 0)
            let receiver = try LoopbackReceiverFloodTests.receiver(gate: ServingGate(), delivered: delivered)
            defer { receiver.stop() }
            let port = receiver.port
            let query = "next_step=complete&user_token=tok&state=\(LoopbackReceiverFloodTests.state)"

            // Foundation's URL(string:) would percent-encode the full-width digit and the check would take it (it
            // did, before the receiver submitted text): as written, it is not a redirect IFTTT sends.
            let nonASCII = try Self.statusLine(
                "GET /cb?note=１&\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port)
            #expect(nonASCII == "HTTP/1.1 400 Bad Request", "\(nonASCII)")
            // An absolute-form target naming a full-width host is not the redirect path.
            let absolute = try Self.statusLine(
                "GET http://１２７.０.０.１:\(port)/cb?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port)
            #expect(absolute == "HTTP/1.1 404 Not Found", "\(absolute)")
            #expect(delivered.wait(timeout: .now()) == .timedOut)
            #expect(!receiver.isFinished)

            // The `Host` header is never part of the redirect: the target as written behind the receiver's origin
            // is, and it finishes the flow.
            let genuine = try Self.statusLine(
                "GET /cb?\(query) HTTP/1.1\r\nHost: １２７.０.０.１:\(port)\r\n\r\n", port: port)
            #expect(genuine == "HTTP/1.1 200 OK", "\(genuine)")
            #expect(delivered.wait(timeout: .now() + 5) == .success)
        }
    }
}
