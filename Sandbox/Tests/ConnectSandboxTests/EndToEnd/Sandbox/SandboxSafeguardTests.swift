@testable import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Logging
import Testing

/// Small guarantees of the sandbox that only a planted bug showed untested (scripts/mutate.sh): the Authorization
/// scheme, query strings kept out of the request log, and the fault injection's rates.
@Suite("Sandbox: authorization scheme, request log, fault rates")
struct SandboxSafeguardTests {
    /// Only `Bearer <user token>` authenticates (any case of "Bearer"); the right token under another scheme is a 401.
    @Test(arguments: ["Basic", "Token", "Bearerx", "OAuth"])
    func aUserTokenUnderAnotherSchemeIsRefused(scheme: String) async throws {
        try await SandboxTest.withDemo { client in
            let path = "v2/connections/gx-weekly-deals"
            let refused = try await client.request(
                "GET", path, headers: ["Authorization": "\(scheme) \(SandboxTest.aliceToken)"])
            #expect(refused.status == 401)
            #expect(refused.errorCode == "unauthorized")
            let accepted = try await client.request(
                "GET", path, headers: ["Authorization": "bEaReR \(SandboxTest.aliceToken)"])
            #expect(accepted.status == 200)
        }
    }

    /// The request log names the method, the path and the status, never the query, which may carry an OAuth code
    /// (the partner callback) or a token a client put there.
    @Test func theRequestLogKeepsNoQueryString() async throws {
        let lines = LineCollector()
        var configuration = SandboxTest.configuration()
        configuration.logger = Logger(label: "sandbox-request-log") { _ in CollectingLogHandler(collector: lines) }
        configuration.logger.logLevel = .info
        try await SandboxServer.withRunning(configuration) { url in
            let client = Client(base: url)
            _ = try await client.get("health", query: ["token": "secret-in-a-query-1"])
            _ = try await client.get(
                "access/api/gx-arrive-store/partner_callback",
                query: ["code": "secret-in-a-query-2", "state": "nothing"])
        }
        let logged = lines.lines
        #expect(logged.contains { $0.contains("GET /health") })
        #expect(logged.contains { $0.contains("/partner_callback") })
        #expect(!logged.contains { $0.contains("secret-in-a-query") })
    }

    /// The failure draw fails about `failRate` of the requests, not its complement.
    @Test(arguments: [0.1, 0.25, 0.9])
    func theFailRateIsTheShareOfFailedRequests(failRate: Double) {
        let injector = FaultInjector(latency: 0, failRate: failRate, seed: 2_026)
        let draws = 4_000
        let failures = (0..<draws).filter { _ in injector.shouldFail() }.count
        #expect(abs(Double(failures) / Double(draws) - failRate) < 0.03, "\(failures) of \(draws)")
    }

    /// `--reject-location-events` refuses about that share of the record ids.
    @Test func theRejectionRateIsTheShareOfRefusedEvents() {
        let injector = FaultInjector(latency: 0, failRate: 0, seed: 7, rejectLocationEvents: 0.2)
        let ids = (0..<4_000).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        let refused = ids.filter { injector.rejectsLocationEvent(recordId: $0) }.count
        #expect(abs(Double(refused) / Double(ids.count) - 0.2) < 0.03, "\(refused) of \(ids.count)")
    }
}
