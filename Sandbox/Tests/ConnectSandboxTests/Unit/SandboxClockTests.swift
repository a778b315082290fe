@testable import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import Testing

/// The sandbox keeps time on one clock, `SandboxConfiguration.clock`: what it stamps and what expires follow it,
/// not the machine's time.
@Suite("The sandbox's one clock")
struct SandboxClockTests {
    @Test func receivedEventsAreStampedWithTheConfiguredClock() async throws {
        var configuration = SandboxTest.configuration()
        configuration.clock = ManualClock(Date(timeIntervalSince1970: 1_600_000_000))  // 2020-09-13T12:26:40Z
        try await SandboxServer.withRunning(configuration) { url in
            let client = Client(base: url)
            let body: JSONValue = ["events": [SDKEventsTests.event()]]
            let response = try await client.request(
                "POST", "v2/sdk/events", headers: SDKEventsTests.headers, body: body.serializedData())
            #expect(response.status == 204)
            let list = try await client.get(
                "sandbox/sdk_events", query: ["anonymous_id": "test-anon"], serviceKey: SandboxTest.serviceKey
            ).json
            #expect(list["data"]?.arrayValue?.first?["received_at"] == "2020-09-13T12:26:40Z")
        }
    }

    /// A seeded authorization code is valid for 48 hours from when the seed was loaded, on the store's clock.
    @Test(arguments: [false, true])
    func seededCodesExpireOnTheStoresClock(pastTheLifetime: Bool) async throws {
        let clock = ManualClock()
        let store = try SandboxStore(path: SandboxConfiguration.inMemoryDatabasePath, clock: clock)
        try await store.load(try SeedData.demo(), source: SeedData.demoSource)
        clock.advance(SandboxStore.seededCodeLifetime + (pastTheLifetime ? 1 : -1))
        let result = try await store.redeemPartnerCode(
            serviceId: "grocery_express", code: "gx-oauth-code-bob", userId: "bob", binding: nil)
        if pastTheLifetime {
            #expect(result == .invalidCode)
        } else {
            guard case .linked(let account) = result else {
                Issue.record("the code was refused within its lifetime: \(result)")
                return
            }
            #expect(account.partnerUserId == "gx-user-1002")
        }
    }
}
