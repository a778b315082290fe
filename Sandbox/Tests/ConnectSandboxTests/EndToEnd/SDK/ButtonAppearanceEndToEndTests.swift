import ArgumentParser
@testable import ConnectCLI
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import Testing

/// The Connect Button's appearance against the sandbox over loopback (issue 26 items 2 and 3): a real controller
/// loads a seeded Connection, the service icon the sandbox serves comes through the SDK's own transport, and the
/// headless button records the Spanish button with the loaded icon.
@Suite("Connect Button appearance end to end", .timeLimit(.minutes(2)))
struct ButtonAppearanceEndToEndTests {
    /// Sends through a real `URLSessionTransport` and keeps every URL it was asked for.
    final class LoggingTransport: HTTPTransport {
        actor Log {
            var urls: [URL] = []
            func append(_ url: URL) { urls.append(url) }
        }

        let log = Log()
        let inner = URLSessionTransport()

        func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
            await log.append(request.url)
            return try await inner.send(request)
        }
    }

    @Test func aSpanishControllerShowsTheSandboxIconOnASpanishButton() async throws {
        try await withSandbox { url, _ in
            try await Self.drive(url)
        }
    }

    @MainActor
    static func drive(_ url: URL) async throws {
        let transport = LoggingTransport()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("icons-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = ConnectButtonController.Configuration(
            networkController: ConnectionNetworkController(configuration: .sandbox(url, transport: transport)),
            urlOpener: RecordingURLOpener(openSucceeds: false), webAuthenticationSession: RecordingWebSession())
        configuration.iconLoader = ServiceIconLoader(transport: transport, cacheDirectory: cache)
        let button = HeadlessConnectButton()
        let controller = ConnectButtonController(
            connectButton: button,
            connectionConfiguration: ConnectionConfiguration(
                connectionId: "gx-weekly-deals", suggestedUserEmail: "",
                credentialProvider: ConnectionCredentials(partnerBackend: PartnerBackend { nil }),
                redirectURL: URL(string: "groceryexpress://connect_callback")!),
            locale: Locale(identifier: "es-419"), delegate: nil, configuration: configuration)
        let loaded = await button.appearance { appearance in
            if case .image = appearance.knob?.icon { return true }
            return false
        }
        let connection = try #require(controller.connection)
        let iconURL = try #require(connection.connectingService.monochromeIconURL)
        guard case .image(let icon) = loaded.knob?.icon else {
            Issue.record("the knob should show the sandbox's icon, got \(String(describing: loaded.knob?.icon))")
            return
        }
        // The sandbox's own icon, fetched over loopback through the SDK's transport.
        #expect(icon.url == iconURL && iconURL.host == url.host && icon.format == .png)
        // A PNG that decodes (UIImage(data:) draws it; SVG it could not).
        let decoded = try PNGReader(icon.data)
        #expect(decoded.width == 120 && decoded.pixels.contains(255))
        #expect(await transport.log.urls.contains(iconURL))
        // Before it loaded, the knob showed the monogram, never nothing.
        let first = try #require(button.appearances.first { $0.knob != nil })
        guard case .monogram = first.knob?.icon else {
            Issue.record(
                "the knob should show the monogram while the icon loads, got \(String(describing: first.knob?.icon))")
            return
        }
        // In the controller's language.
        #expect(loaded.localization == "es-419")
        #expect(loaded.label?.text == "Conectar \(connection.connectingService.shortName)")
        #expect(loaded.footer?.text.description == "FUNCIONA CON IFTTT")
        // The render embeds the loaded PNG, so it differs from the monogram's.
        let rendered = ConnectButtonSVGRenderer.render(loaded)
        #expect(rendered.contains("data:image/png;base64,\(icon.data.base64EncodedString())"))
        #expect(!rendered.contains("class=\"monogram\""))
    }

    /// `button render --connection` loads the icon through the SDK and embeds it; `--text-size` and
    /// `--layout-direction` draw Dynamic Type and right to left.
    @Test func renderDrawsTheIconTextSizeAndDirection() async throws {
        try await withSandbox { url, _ in
            let command = try IFTTTConnectCommand.parseAsRoot(
                [
                    "button", "render", "--connection", "gx-weekly-deals", "--state", "connect", "--locale", "es-419",
                    "--text-size", "accessibility-extra-extra-extra-large", "--layout-direction", "rtl", "--api",
                    url.absoluteString,
                ])
            let render = try #require(command as? ButtonCommand.Render)
            let (connection, icon) = try await render.loadConnectionAndIcon()
            let svg = render.svg(for: connection, icon: icon)
            #expect(svg.contains("xlink:href=\"data:image/png;base64,"))
            #expect(svg.contains("class=\"knob\" cx=\"324\""), "the knob starts on the right")
            #expect(svg.contains("font-size=\"20.5\""), "the footer at AX5 stops where the label stops")
            #expect(svg.contains("Conectar"))
        }
    }

    @Test(arguments: [
        ["button", "render", "--file", "f.json", "--state", "connect", "--text-size", "huge"],
        ["button", "render", "--file", "f.json", "--state", "connect", "--text-size", "XXXL"],
        ["button", "render", "--file", "f.json", "--state", "connect", "--layout-direction", "up"],
    ])
    func badTextSizesAndDirectionsAreUsageErrors(arguments: [String]) {
        do {
            let command = try IFTTTConnectCommand.parseAsRoot(arguments)
            Issue.record("parsed \(arguments) as \(type(of: command))")
        } catch {
            #expect(IFTTTConnectCommand.exitCode(for: error).rawValue == 64, "\(arguments)")
        }
    }
}
