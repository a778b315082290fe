import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

@Suite("Synchronization article")
struct SynchronizationDocumentationTests {
    /// The "Without UIKit" example of Synchronization.md, verbatim between the markers.
    @Test func theArticleExampleWorks() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = FakeIFTTT()
        transport.setConnection(
            "gx-arrive-store", triggers: [FakeIFTTT.Trigger(id: "store", latitude: 37.8, longitude: -122.4)])
        let token = "doc-token"

        // begin example
        let monitor = SimulatedRegionMonitor()
        var configuration = Synchronizer.Configuration(
            regionMonitor: monitor, storageDirectory: directory,
            transport: transport,
            secureStore: FileSecureStore(directory: directory))
        configuration.useServer(at: URL(string: "https://ifttt.test")!)
        let synchronizer = Synchronizer(configuration: configuration)

        await synchronizer.setup(with: ConnectionCredentials(userToken: token))
        await synchronizer.activate(connections: ["gx-arrive-store"])
        let result = await synchronizer.synchronize(source: .forceUpdate)  // .newData, .noData or .failed
        let regions = await synchronizer.monitoredRegions  // the Connection's geofences
        // end example

        #expect(result == .noData || result == .newData)
        #expect(regions.map(\.identifier) == ["ifttt_store"])
        #expect(
            transport.requests(to: "/v2/connections/gx-arrive-store").first?.headers["Authorization"]
                == "Bearer doc-token")
    }
}
