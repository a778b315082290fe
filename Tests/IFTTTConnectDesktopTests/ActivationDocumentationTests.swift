import Foundation
import IFTTTConnectCore
import IFTTTConnectDesktop
import Testing

/// Compiles the command-line example of Activation.md (it is not run: it would open a browser).
@MainActor
enum ActivationDocumentationExample {
    static func activate(email: String, credentials: ConnectionCredentials) async throws -> String? {
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
        defer { receiver.stop() }
        let configuration = ConnectionConfiguration(
            connectionId: "gx-arrive-store",
            suggestedUserEmail: email,
            credentialProvider: credentials,
            redirectURL: receiver.redirectURL)
        var setup = ConnectButtonController.Configuration.sandbox(URL(string: "http://127.0.0.1:8080")!)
        setup.webAuthenticationSession = BrowserWebAuthenticationSession()
        setup.timing = .immediate
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(),
            connectionConfiguration: configuration,
            delegate: nil,
            configuration: setup)
        Task { for await event in controller.events() { print(event) } }
        let activation = try await controller.connect(email: email)
        return activation.userToken
    }
}

@Suite("Activation documentation, desktop")
struct DesktopActivationDocumentationTests {
    @Test func theCommandLineExampleCompiles() {
        #expect(ActivationDocumentationExample.self == ActivationDocumentationExample.self)
    }
}
