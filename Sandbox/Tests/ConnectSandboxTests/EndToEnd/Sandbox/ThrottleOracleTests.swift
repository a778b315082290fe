@testable import ConnectSandbox
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sign-in throttle tells nobody which accounts exist.
@Suite("Sign-in throttling is no account-existence oracle")
struct ThrottleOracleTests {
    typealias Pages = WebActivationPageTests

    /// After 5 wrong passwords a real login answered 429 and an unknown one kept answering 401, on IFTTT's sign-in
    /// and on the partner's (alice, bob and dave were found among 6 names in 36 requests). Failed before the fix.
    /// Now both answer the same at every count.
    @Test func aRealAndAnUnknownLoginAnswerTheSameAtEveryCount() async throws {
        try await SandboxServer.withRunning(SandboxTest.heldClockConfiguration()) { base in
            let count = SignInThrottle.maximumFailures + 3
            func ifttt(_ identifier: String) async throws -> [Int] {
                let session = try await ActivationHardeningTests.start(
                    base, "gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:4567/cb")])
                var statuses: [Int] = []
                for _ in 0..<count {
                    statuses.append(try await SandboxHardeningTests.signIn(base, session, identifier, "wrong-guess"))
                }
                return statuses
            }
            func partner(_ login: String) async throws -> [Int] {
                var statuses: [Int] = []
                for _ in 0..<count {
                    let answer = try await Client(base: base).request(
                        "POST", "/partner/grocery_express/api/session",
                        body: Data(#"{"login": "\#(login)", "password": "wrong-guess"}"#.utf8))
                    statuses.append(answer.status)
                }
                return statuses
            }
            let real = try await ifttt("alice@example.com")
            let unknown = try await ifttt("nobody@example.com")
            #expect(real == unknown)
            #expect(real.prefix(SignInThrottle.maximumFailures).allSatisfy { $0 == 401 })
            #expect(real.dropFirst(SignInThrottle.maximumFailures).allSatisfy { $0 == 429 })
            let dave = try await partner("dave")
            let nobody = try await partner("nobody")
            #expect(dave == nobody)
            #expect(dave.dropFirst(SignInThrottle.maximumFailures).allSatisfy { $0 == 429 })
        }
    }
}
