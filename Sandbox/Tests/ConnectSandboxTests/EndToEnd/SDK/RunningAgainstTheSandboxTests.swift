import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import Testing

/// The steps of the Core article "Run your 2.8 app against the sandbox" that Linux can run, each as the article
/// writes it, against a sandbox over loopback (its port in place of 8080). Step 1's command is run as typed by
/// scripts/checks/67-readme-commands.sh (the README shows it too), step 2 is an Info.plist key (checked in the example
/// apps by 47-xcode-examples), step 7's activation is GroceryExpress28EndToEndTests (a 2.8 app without a backend)
/// and ReadmeExampleTests (with the partner backend).
@Suite("Run your 2.8 app against the sandbox", .timeLimit(.minutes(2)))
@MainActor
struct RunningAgainstTheSandboxTests {
    /// Step 3: the network controller at the sandbox reads its seeded Connection.
    @Test func step3TheNetworkControllerReadsTheSandbox() async throws {
        try await withSandbox { sandbox, _ in
            let networkController = ConnectionNetworkController(configuration: .sandbox(sandbox))
            let connection = try await networkController.fetchConnection(
                for: "gx-arrive-store", credentialProvider: ConnectionCredentials(userToken: "sandbox-user-token-alice")
            )
            #expect(connection.status == .enabled)
        }
    }

    /// Steps 4 and 5: the 2.8 call plus `configuration: .sandbox(sandbox)` loads the sandbox's Connection into the
    /// button, for each Connection id the article names.
    @Test(arguments: ["gx-arrive-store", "gx-store-visits", "gx-weekly-deals"])
    func step4TheConnectButtonLoadsTheSandboxsConnection(id: String) async throws {
        try await withSandbox { sandbox, _ in
            try await Self.loadButton(sandbox: sandbox, connectionId: id)
        }
    }

    static func loadButton(sandbox: URL, connectionId: String) async throws {
        let connectionConfiguration = ConnectionConfiguration(
            connectionId: connectionId, suggestedUserEmail: "alice@example.com",
            credentialProvider: ConnectionCredentials.anonymous,
            redirectURL: URL(string: "groceryexpress://connect_callback")!)
        let connectButton = GroceryExpress28EndToEndTests.WatchedButton()
        let connectButtonController = ConnectButtonController(
            connectButton: connectButton,
            connectionConfiguration: connectionConfiguration,
            delegate: nil,
            configuration: .sandbox(sandbox))
        await connectButton.wait(for: .initial)
        #expect(connectButtonController.connection?.id == connectionId)
    }

    /// Step 6: the synchronizer, pointed at the same sandbox, fetches alice's Connection and monitors its geofence
    /// (on Linux `platformDefault()` has a simulated region monitor; its files go to a temporary directory here).
    @Test func step6TheSynchronizerUsesTheSameSandbox() async throws {
        try await withSandbox { sandbox, _ in
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            // The article's lines run at launch, on the main actor.
            var synchronizerConfiguration = await MainActor.run { Synchronizer.Configuration.platformDefault() }
            synchronizerConfiguration.useServer(at: sandbox)
            synchronizerConfiguration.storageDirectory = directory
            synchronizerConfiguration.secureStore = FileSecureStore(directory: directory)
            #expect(synchronizerConfiguration.connectBaseURL == sandbox.appendingPathComponent("v2"))
            #expect(synchronizerConfiguration.locationBaseURL == sandbox.appendingPathComponent("v1"))
            let synchronizer = Synchronizer(configuration: synchronizerConfiguration)
            await synchronizer.setup(with: ConnectionCredentials(userToken: "sandbox-user-token-alice"))
            await synchronizer.activate(connections: ["gx-arrive-store"])
            #expect(await synchronizer.synchronize(source: .forceUpdate) != .failed)
            #expect(await synchronizer.monitoredRegions.map(\.identifier) == ["ifttt_alice-arrive-trigger-1"])
        }
    }
}
