import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectDesktop
import Testing

/// Compiles the command-line example of Activation.md (it is not run: it would open a browser).
@MainActor
enum ActivationDocumentationExample {
    static func activate(email: String, partnerSession: String) async throws -> String? {
        let sandbox = URL(string: "http://127.0.0.1:8080")!
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
        defer { receiver.stop() }
        let backend = try PartnerBackend.userTokenEndpoint(
            sandbox.appendingPathComponent("partner/grocery_express/api/user_token"), session: partnerSession)
        let configuration = ConnectionConfiguration(
            connectionId: "gx-arrive-store",
            suggestedUserEmail: email,
            credentialProvider: ConnectionCredentials(partnerBackend: backend),
            redirectURL: receiver.redirectURL)
        var setup = ConnectButtonController.Configuration.sandbox(sandbox)
        setup.webAuthenticationSession = BrowserWebAuthenticationSession(launchPad: receiver)
        setup.timing = .immediate
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(),
            connectionConfiguration: configuration,
            delegate: nil,
            configuration: setup)
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
