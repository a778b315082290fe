import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The appearance model the controller hands its presenter (issue 26 items 1, 2, 3 and 6): the locale, the
/// service icon, Dynamic Type and right to left, all asserted on what `HeadlessConnectButton` records.
@Suite("Connect Button appearance model", .timeLimit(.minutes(1)))
@MainActor
struct ButtonAppearanceModelTests {
    static let iconURL = URL(string: "https://api.test/assets/icons/sunny_weather.png")!
    /// The smallest valid PNG header is enough: the loader recognizes images by their first bytes.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])

    static let connectionWithIcon = ButtonFixtures.connection(
        connecting: Connection.Service(
            id: "sunny_weather", name: "Sunny Weather Service", shortName: "Sunny Weather", isPrimary: false,
            monochromeIconURL: iconURL, brandColor: ConnectColor(hex: "#2F6FDE")))

    let transport = ScriptedTransport()
    let logs = LogCapture()

    func makeController(
        _ button: HeadlessConnectButton, locale: Locale, connection: Connection = ButtonFixtures.standard,
        cacheDirectory: URL? = nil
    ) -> ConnectButtonController {
        let network = ConnectionNetworkController(
            configuration: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
                callbackQueue: nil, logHandler: logs.handler))
        var configuration = ConnectButtonController.Configuration(
            networkController: network, urlOpener: RecordingURLOpener(),
            webAuthenticationSession: RecordingWebSession(),
            clock: ManualClock(), timing: .immediate, logHandler: logs.handler)
        configuration.registry = RedirectRegistry()
        configuration.analyticsUploaders = AnalyticsUploaderRegistry()
        configuration.iconLoader = ServiceIconLoader(transport: transport, cacheDirectory: cacheDirectory)
        let config = ConnectionConfiguration(
            connection: connection, suggestedUserEmail: "user@example.com",
            credentialProvider: ConnectionCredentials(oauthCode: "oauth-1"),
            redirectURL: URL(string: "groceryexpress://ifttt/callback")!)
        return ConnectButtonController(
            connectButton: button, connectionConfiguration: config, locale: locale, delegate: nil,
            configuration: configuration)
    }

    // MARK: - Item 2: the controller's locale

    @Test func spanishControllerShowsASpanishButton() throws {
        let button = HeadlessConnectButton()
        let controller = makeController(button, locale: Locale(identifier: "es-419"))
        let appearance = try #require(button.appearance)
        #expect(appearance.localization == "es-419")
        #expect(appearance.label?.text == "Conectar Sunny Weather")
        #expect(appearance.footer?.text.description == "FUNCIONA CON IFTTT")
        #expect(appearance == controller.appearance)
        #expect(controller.localization.localization == "es-419")
    }

    @Test(arguments: [("de_DE", "de"), ("ja-JP", "ja"), ("pt_BR", "pt-BR"), ("zh-Hant-TW", "zh-Hant")])
    func everyLocaleReachesThePresenter(_ identifier: String, _ localization: String) throws {
        let button = HeadlessConnectButton()
        _ = makeController(button, locale: Locale(identifier: identifier))
        let appearance = try #require(button.appearance)
        #expect(appearance.localization == localization)
        #expect(
            appearance.label?.text == ConnectLocalization(identifier: localization).format(.connect, "Sunny Weather"))
        #expect(appearance.label?.text != ConnectLocalization.english.format(.connect, "Sunny Weather"))
    }

    @Test func theEmailStepAndTheAboutPageFollowTheLocale() {
        let l10n = ConnectLocalization(identifier: "es-419")
        let email = ConnectButtonAppearance(
            state: .enterEmail(email: "", isInvalid: false), connection: ButtonFixtures.standard, localization: l10n)
        #expect(email.emailField?.placeholder == "Su correo electrónico")
        #expect(email.emailField?.confirmAccessibilityLabel == "Continuar")
        let page = ConnectAboutPage(connection: ButtonFixtures.standard, localization: l10n, iftttAppInstalled: false)
        #expect(page.appStoreAccessibilityLabel == "Descargar en el App Store")
        #expect(page.closeAccessibilityLabel == "Cerrar")
    }

    // MARK: - Item 3: the service icon

    @Test func theServiceIconLoadsThroughTheTransportAndReachesThePresenter() async throws {
        transport.set("GET " + Self.iconURL.path, HTTPResponse(statusCode: 200, body: Self.png))
        let button = HeadlessConnectButton()
        let controller = makeController(
            button, locale: Locale(identifier: "en_US"), connection: Self.connectionWithIcon)
        // Never an empty knob: the monogram while the icon loads.
        guard case .monogram("S", _) = button.appearances.first?.knob?.icon else {
            Issue.record(
                "the first appearance should show the monogram, got \(String(describing: button.appearances.first?.knob?.icon))"
            )
            return
        }
        await controller.iconTask?.value
        guard case .image(let icon) = button.appearance?.knob?.icon else {
            Issue.record("the icon never reached the presenter")
            return
        }
        #expect(icon.url == Self.iconURL && icon.format == .png && icon.data == Self.png)
        #expect(transport.requests.filter { $0.url == Self.iconURL }.map(\.method) == ["GET"])
        #expect(controller.appearance.knob?.icon == .image(icon))
    }

    @Test func aFailedIconKeepsTheMonogram() async throws {
        transport.set("GET " + Self.iconURL.path, HTTPResponse(statusCode: 404))
        let button = HeadlessConnectButton()
        let controller = makeController(
            button, locale: Locale(identifier: "en_US"), connection: Self.connectionWithIcon)
        await controller.iconTask?.value
        #expect(logs.lines.contains { $0.contains("icon did not load (status(404))") })
        guard case .monogram("S", let color) = button.appearance?.knob?.icon else {
            Issue.record("expected the monogram, got \(String(describing: button.appearance?.knob?.icon))")
            return
        }
        #expect(color.contrastRatio(with: try #require(button.appearance?.knob?.color)) >= 4.5)
    }

    @Test func theLoaderCachesInMemoryAndOnDiskWithinItsBounds() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("icons-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var urls: [URL] = []
        for index in 0..<4 {
            let url = URL(string: "https://api.test/icons/\(index).png")!
            urls.append(url)
            transport.set("GET " + url.path, HTTPResponse(statusCode: 200, body: Self.png + Data(count: 1000)))
        }
        let loader = ServiceIconLoader(
            transport: transport, cacheDirectory: directory, memoryLimit: 2100, diskLimit: 3100)
        for url in urls { _ = try (await loader.icon(for: url)).get() }
        #expect(transport.requests.count == 4)
        #expect(loader.memoryBytes <= 2100 && loader.memoryBytes > 0)
        #expect(loader.diskBytes <= 3100 && loader.diskBytes > 2000)
        // The newest is served from memory, without a request.
        _ = try (await loader.icon(for: urls[3])).get()
        #expect(transport.requests.count == 4)
        // A new loader (a new launch) finds the recent icons on disk; the oldest was evicted.
        let relaunched = ServiceIconLoader(transport: transport, cacheDirectory: directory)
        #expect(relaunched.cachedIcon(for: urls[3]) != nil)
        #expect(relaunched.cachedIcon(for: urls[0]) == nil)
    }

    @Test func theLoaderRefusesWhatIsNotAnIcon() async {
        let loader = ServiceIconLoader(transport: transport, cacheDirectory: nil, maximumIconBytes: 100)
        let page = URL(string: "https://api.test/page.png")!
        transport.set("GET /page.png", HTTPResponse(statusCode: 200, body: Data("<html>hi</html>".utf8)))
        #expect(await loader.icon(for: page) == .failure(.notAnImage))
        // SVG is an image, but not one UIImage(data:) decodes: refused, so every platform shows the monogram.
        let svg = URL(string: "https://api.test/icon.svg")!
        transport.set(
            "GET /icon.svg",
            HTTPResponse(statusCode: 200, body: Data(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8)))
        #expect(await loader.icon(for: svg) == .failure(.undecodable(.svg)))
        let big = URL(string: "https://api.test/big.png")!
        transport.set("GET /big.png", HTTPResponse(statusCode: 200, body: Self.png + Data(count: 200)))
        #expect(await loader.icon(for: big) == .failure(.tooLarge))
        #expect(await loader.icon(for: URL(string: "file:///etc/passwd")!) == .failure(.notAWebURL))
        #expect(loader.memoryBytes == 0)
    }

    // MARK: - Item 6: Dynamic Type and right to left

    @Test func textScalesAsUIFontMetricsWould() throws {
        func appearance(_ size: ConnectTextSize) -> ConnectButtonAppearance {
            ConnectButtonAppearance(state: .connect, connection: ButtonFixtures.standard, textSize: size)
        }
        let standard = appearance(.large)
        #expect(standard.label?.fontSize == 22 && standard.footer?.fontSize == 14)
        #expect(!standard.usesLargeContentViewer)
        // The footer grows with the label and stops where it stops (footnote 13 → 19 pt at extra-extra-extra-large):
        // it never dwarfs the label.
        let largest = appearance(.accessibilityExtraExtraExtraLarge)
        #expect(largest.footer?.fontSize == appearance(.extraExtraExtraLarge).footer?.fontSize)
        #expect((largest.footer?.fontSize ?? 99) < (largest.label?.fontSize ?? 0))
        #expect((appearance(.extraLarge).footer?.fontSize ?? 0) > 14)
        // The pill keeps its height: its label stops at extra-extra-extra-large (headline 17 → 23) and the
        // Large Content Viewer takes over.
        #expect(largest.label?.fontSize == 29.8)
        #expect(largest.usesLargeContentViewer)
        #expect(appearance(.extraExtraExtraLarge).label?.fontSize == 29.8)
        #expect(!appearance(.extraExtraExtraLarge).usesLargeContentViewer)
        #expect(appearance(.extraSmall).footer?.fontSize == 12.9)
        for style in ConnectTextStyle.allCases {
            #expect(style.pointSizes.count == ConnectTextSize.allCases.count)
            #expect(zip(style.pointSizes, style.pointSizes.dropFirst()).allSatisfy { $0 <= $1 }, "\(style)")
        }
        let creating = ConnectButtonAppearance(
            state: .creatingAccount(email: "jane.appleseed@example.com"), connection: ButtonFixtures.standard,
            textSize: .accessibilityExtraExtraExtraLarge)
        let svg = ConnectButtonSVGRenderer.render(creating)
        #expect(svg.components(separatedBy: "class=\"footer\"").count - 1 >= 2, "a long large footer wraps")
        // The email field is never squeezed: a long address shrinks, then runs on under a clip, as a text field.
        let email = ConnectButtonAppearance(
            state: .enterEmail(email: "jane.appleseed.longname@example.com", isInvalid: false),
            connection: ButtonFixtures.standard, textSize: .accessibilityExtraExtraExtraLarge)
        let field = ConnectButtonSVGRenderer.render(email)
        let emailText = try #require(field.components(separatedBy: "<text class=\"email\"").last)
        #expect(!emailText.prefix(while: { $0 != ">" }).contains("textLength"))
        #expect(field.contains("class=\"email-clip\""))
        let short = ConnectButtonSVGRenderer.render(
            ConnectButtonAppearance(
                state: .enterEmail(email: "jane@example.com", isInvalid: false),
                connection: ButtonFixtures.standard, textSize: .accessibilityExtraExtraExtraLarge))
        #expect(!short.contains("email-clip"), "an address that fits is neither squeezed nor clipped")
    }

    @Test func rightToLeftMirrorsTheLayout() throws {
        func appearance(_ state: ConnectButtonVisualState, _ direction: ConnectLayoutDirection)
            -> ConnectButtonAppearance
        {
            ConnectButtonAppearance(
                state: state, connection: ButtonFixtures.standard, progress: 0.25, layoutDirection: direction)
        }
        let ltr = appearance(.connect, .leftToRight)
        let rtl = appearance(.connect, .rightToLeft)
        let width = rtl.geometry.width
        // The knob starts on the right, and the label keeps clear of it on that side.
        #expect(try #require(rtl.knob).frame.x == width - ltr.knob!.frame.maxX)
        #expect(rtl.knob!.frame.midX > width / 2 && ltr.knob!.frame.midX < width / 2)
        #expect(rtl.label?.insets == ConnectButtonAppearance.Insets(left: 36, right: 76))
        #expect(appearance(.connected, .rightToLeft).knob!.frame.midX < width / 2)
        let email = try #require(appearance(.enterEmail(email: "", isInvalid: false), .rightToLeft).emailField)
        #expect(email.confirmFrame.x < email.frame.x)
        var moved = rtl
        moved.moveKnob(to: 1)
        #expect(moved.knob?.frame == appearance(.connected, .rightToLeft).knob?.frame)
        let svg = ConnectButtonSVGRenderer.render(appearance(.verifying, .rightToLeft))
        #expect(svg.contains("class=\"progress\" x=\"270\""), "the bar fills from the right")
    }
}
