import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

@Suite("Synchronizer: one network configuration value, one clock")
struct NetworkConfigurationTests {
    @Test func theConfigurationsNetworkValueReachesTheNetworkControllerAndTheUploaderUnchanged() async throws {
        let h = SyncHarness { $0.network.timeout = 7 }
        defer { h.cleanUp() }
        #expect(h.synchronizer.configuration.connectBaseURL.absoluteString == "https://ifttt.test/v2")
        #expect(h.synchronizer.configuration.network.locationBaseURL.absoluteString == "https://ifttt.test/v1")
        #expect(h.synchronizer.configuration.anonymousId == "install-1")
        h.api.setConnection("gx", triggers: [SynchronizerTests.home])
        await h.synchronizer.setup(with: SynchronizerTests.credentials)
        await h.synchronizer.activate(connections: ["gx"])
        await h.synchronizer.waitUntilIdle()
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)
        let fetch = try #require(h.api.requests(to: "/v2/connections/gx").first)
        let upload = try #require(h.api.requests(to: "/v1/location_events").first)
        #expect(fetch.timeout == 7)
        #expect(upload.timeout == 7)
        #expect(upload.url.absoluteString == "https://ifttt.test/v1/location_events")
        #expect(String(decoding: upload.body ?? Data(), as: UTF8.self).contains(#""installation_id":"install-1""#))
    }
}
