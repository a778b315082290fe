import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

/// The README's smallest example, run as written against a sandbox (only the port differs).
@Suite("README example")
struct ReadmeExampleTests {
    @Test func theSmallestExampleWorks() async throws {
        try await SandboxServer.withRunning(SandboxConfiguration(port: 0, databasePath: temporaryDatabasePath())) {
            root in
            // --- README ---
            let controller = ConnectionNetworkController(configuration: .sandbox(root))
            let alice = ConnectionCredentials(userToken: "sandbox-user-token-alice")

            let connection = try await controller.fetchConnection(for: "gx-arrive-store", credentialProvider: alice)
            // --- end ---
            #expect(connection.name == "Show my list when I arrive at the store")
            #expect("\(connection.status)" == "enabled")
            #expect(connection.locationRegions.map(\.identifier) == ["ifttt_alice-arrive-trigger-1"])
        }
    }
}
