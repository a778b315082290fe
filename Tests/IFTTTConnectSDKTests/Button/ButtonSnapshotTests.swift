import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
@_spi(Sandbox) @testable import IFTTTConnectCore

@Suite("Connect Button SVG snapshots")
struct ButtonSnapshotTests {
    static let suite = "ButtonSnapshotTests"

    static func appearance(
        _ state: ConnectButtonVisualState, _ scheme: ConnectButtonColorScheme,
        connection: Connection? = ButtonFixtures.standard, locale: String = "en-US",
        style: ConnectButtonStyle? = nil, width: Double = 360, textSize: ConnectTextSize = .large,
        direction: ConnectLayoutDirection = .leftToRight, icon: ConnectButtonIconImage? = nil
    ) -> ConnectButtonAppearance {
        ConnectButtonAppearance(
            state: state, connection: state == .loading ? nil : connection,
            localization: ConnectLocalization(identifier: locale),
            style: style ?? (scheme == .light ? .light : .dark), hostAppearance: scheme,
            width: width, progress: 0.45, textSize: textSize, layoutDirection: direction, icon: icon)
    }

    /// A loaded icon for ``ButtonFixtures/withIcon``: a white sun, as PNG bytes (16 × 16, what IFTTT serves).
    static let sunIcon = ConnectButtonIconImage(
        url: URL(string: "https://assets.example.com/sunny/monochrome.png")!,
        data: Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAKklEQVR42mNgGLTgPxogWyNJBv0nEtDGgP8kguFowMDHAlUSElWSMt0BAKsmvlAtKCc+AAAAAElFTkSuQmCC"
        )!)!

    @Test(arguments: ConnectButtonVisualState.allExamples, ConnectButtonColorScheme.allCases)
    func everyStateInLightAndDark(_ state: ConnectButtonVisualState, _ scheme: ConnectButtonColorScheme) {
        let svg = ConnectButtonSVGRenderer.render(Self.appearance(state, scheme))
        SnapshotAssertion.assertMatches(svg, named: "\(state.name)-\(scheme.rawValue).svg", in: Self.suite)
    }

    @Test func dynamicStyleFollowsTheHost() {
        let dark = ConnectButtonSVGRenderer.render(Self.appearance(.connect, .dark, style: .dynamic))
        SnapshotAssertion.assertMatches(dark, named: "connect-dynamic-dark-host.svg", in: Self.suite)
        let light = Self.appearance(.connect, .light, style: .dynamic)
        #expect(light.backgroundColor == ConnectButtonPalette.almostBlack)
    }

    /// The loaded icon is embedded (a viewer fetches nothing); until it loads, the monogram.
    @Test func knobWithAnIconEmbedsTheLoadedImage() {
        let svg = ConnectButtonSVGRenderer.render(
            Self.appearance(.connected, .light, connection: ButtonFixtures.withIcon, icon: Self.sunIcon))
        SnapshotAssertion.assertMatches(svg, named: "connected-icon-light.svg", in: Self.suite)
        #expect(svg.contains("xlink:href=\"data:image/png;base64,\(Self.sunIcon.data.base64EncodedString())\""))
        #expect(!svg.contains("class=\"monogram\"") && !svg.contains("assets.example.com"))
        let loading = ConnectButtonSVGRenderer.render(
            Self.appearance(.connected, .light, connection: ButtonFixtures.withIcon))
        #expect(loading.contains("class=\"monogram\"") && !loading.contains("<image"))
    }

    /// The gallery in docs/ is what the code draws now (regenerate it with `scripts/button-gallery.sh`).
    @Test func theGalleryInTheDocsIsCurrent() throws {
        let committed = try String(contentsOf: Repository.url("docs/button-gallery.svg"), encoding: .utf8)
        #expect(committed == ButtonGallery.svg(), "docs/button-gallery.svg is stale: run scripts/button-gallery.sh")
    }

    @Test(arguments: ["de", "ja", "pt-BR", "ru"])
    func localizedNarrowButtons(_ locale: String) {
        let svg = ConnectButtonSVGRenderer.render(Self.appearance(.connect, .light, locale: locale, width: 280))
        SnapshotAssertion.assertMatches(svg, named: "connect-\(locale)-280.svg", in: Self.suite)
    }

    @Test func outputIsWellFormedAndDeterministic() throws {
        for state in ConnectButtonVisualState.allExamples {
            let a = ConnectButtonSVGRenderer.render(Self.appearance(state, .light))
            #expect(a == ConnectButtonSVGRenderer.render(Self.appearance(state, .light)))
            let parser = XMLParser(data: Data(a.utf8))
            #expect(parser.parse(), "\(state.name): \(String(describing: parser.parserError))")
        }
    }

    @Test func escapesUserText() {
        let svg = ConnectButtonSVGRenderer.render(
            Self.appearance(.enterEmail(email: "a<b>&\"c\"@x.com", isInvalid: false), .light))
        #expect(svg.contains("a&lt;b&gt;&amp;&quot;c&quot;@x.com"))
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }

    /// A quote followed by a combining mark is one `Character`; escaped by `Character`, it passed raw and ended the
    /// `aria-label` attribute, so a typed e-mail address could add an `onload` handler to the SVG. Failed before
    /// the fix.
    @Test func escapesAQuoteFollowedByACombiningMark() throws {
        let text = "a\"\u{301} onload=\"alert(1)\"\u{301}@x.com"
        let svg = ConnectButtonSVGRenderer.render(Self.appearance(.enterEmail(email: text, isInvalid: false), .light))
        #expect(svg.contains("aria-label=\"a&quot;\u{301} onload=&quot;alert(1)&quot;\u{301}@x.com\""))
        #expect(!svg.contains("onload=\""))
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }

    /// Only `http(s)` URLs reach the SVG: `ifttt-connect button render --file` drew a `javascript:` icon, and cover
    /// images and a service's `url` kept any scheme. Failed before the fix.
    @Test func onlyWebURLsAreDecodedAndRendered() throws {
        let json = #"""
            {"type":"connection","id":"c1","name":"N","description":"D","url":"https://ifttt.com/c1",
             "cover_image":{"480w_url":"javascript:alert(1)","720w_url":"https://x.example/720.png"},
             "services":[{"service_id":"a","service_name":"A","is_primary":true,"url":"javascript:alert(2)",
                          "monochrome_icon_url":"JavaScript:alert(3)","color_icon_url":"data:image/svg+xml,<svg/>"},
                         {"service_id":"b","service_name":"B","is_primary":false,"url":"https://b.example",
                          "monochrome_icon_url":"file:///etc/passwd"}],
             "value_propositions":[{"description":"V","icon_url":"javascript:alert(4)"}],
             "features":[{"id":"f","title":"F","icon_url":"javascript:alert(5)"}]}
            """#
        let connection = try Connection.decode(from: Data(json.utf8))
        #expect(connection.coverImages.map(\.url.absoluteString) == ["https://x.example/720.png"])
        let a = try #require(connection.services.first { $0.id == "a" })
        #expect(a.pageURL == nil && a.monochromeIconURL == nil && a.colorIconURL == nil)
        #expect(a.url.absoluteString == "https://ifttt.com/a")
        let b = try #require(connection.services.first { $0.id == "b" })
        #expect(b.pageURL?.absoluteString == "https://b.example" && b.monochromeIconURL == nil)
        #expect(connection.valuePropositions.allSatisfy { $0.iconURL == nil })
        #expect(connection.features.allSatisfy { $0.iconURL == nil })
        for state in ConnectButtonVisualState.allExamples {
            let svg = ConnectButtonSVGRenderer.render(Self.appearance(state, .light, connection: connection))
            for scheme in ["javascript:", "data:", "file:"] {
                #expect(!svg.lowercased().contains(scheme), "\(state.name)")
            }
        }
        // A hand-made model with a script URL still renders no image.
        let handMade = ButtonFixtures.connection(
            connecting: Connection.Service(
                id: "x", name: "X", isPrimary: false, monochromeIconURL: URL(string: "javascript:alert(6)")))
        let svg = ConnectButtonSVGRenderer.render(Self.appearance(.connected, .light, connection: handMade))
        #expect(!svg.contains("javascript:") && !svg.contains("<image"))
    }

    /// Writes the gallery SVG when `BUTTON_GALLERY=<path>` is set (`scripts/button-gallery.sh` does, and makes
    /// `docs/button-gallery.png` from it with `rsvg-convert`).
    @Test func writesTheGalleryWhenAsked() throws {
        guard let path = ProcessInfo.processInfo.environment["BUTTON_GALLERY"] else { return }
        try ButtonGallery.svg().write(to: URL(fileURLWithPath: path), atomically: true, encoding: .utf8)
    }
}

/// Every state in light and dark, side by side, with captions; then two locales, right to left, the largest
/// text size and a loaded icon.
enum ButtonGallery {
    /// The `height` attribute of a rendered SVG.
    static func height(of svg: String) -> Double {
        guard let start = svg.range(of: " height=\"") else { return 0 }
        return Double(svg[start.upperBound...].prefix { $0 != "\"" }) ?? 0
    }

    static func svg() -> String {
        let cellWidth = 392.0
        let captionWidth = 170.0
        var rows: [(String, ConnectButtonAppearance, ConnectButtonAppearance)] = []
        for state in ConnectButtonVisualState.allExamples {
            rows.append(
                (
                    state.name, ButtonSnapshotTests.appearance(state, .light),
                    ButtonSnapshotTests.appearance(state, .dark)
                ))
        }
        rows.append(
            (
                "connect (de, 280)", ButtonSnapshotTests.appearance(.connect, .light, locale: "de", width: 280),
                ButtonSnapshotTests.appearance(.connected, .dark, locale: "de", width: 280)
            ))
        for state in [
            ConnectButtonVisualState.connect, .enterEmail(email: "", isInvalid: false), .verifying, .connected,
        ] {
            rows.append(
                (
                    "\(state.name) (es-419)", ButtonSnapshotTests.appearance(state, .light, locale: "es-419"),
                    ButtonSnapshotTests.appearance(state, .dark, locale: "es-419")
                ))
        }
        for state in [
            ConnectButtonVisualState.connect, .enterEmail(email: "jane@example.com", isInvalid: false), .verifying,
            .connected,
        ] {
            rows.append(
                (
                    "\(state.name) (RTL)", ButtonSnapshotTests.appearance(state, .light, direction: .rightToLeft),
                    ButtonSnapshotTests.appearance(state, .dark, direction: .rightToLeft)
                ))
        }
        for state in [ConnectButtonVisualState.connect, .creatingAccount(email: "jane@example.com")] {
            rows.append(
                (
                    "\(state.name) (AX5)",
                    ButtonSnapshotTests.appearance(state, .light, textSize: .accessibilityExtraExtraExtraLarge),
                    ButtonSnapshotTests.appearance(state, .dark, textSize: .accessibilityExtraExtraExtraLarge)
                ))
        }
        rows.append(
            (
                "loaded icon",
                ButtonSnapshotTests.appearance(
                    .connect, .light, connection: ButtonFixtures.withIcon, icon: ButtonSnapshotTests.sunIcon),
                ButtonSnapshotTests.appearance(
                    .connected, .dark, connection: ButtonFixtures.withIcon, icon: ButtonSnapshotTests.sunIcon)
            ))
        rows.append(
            (
                "light brand",
                ButtonSnapshotTests.appearance(.continueToService, .light, connection: ButtonFixtures.lightBrand),
                ButtonSnapshotTests.appearance(.connect, .dark, connection: ButtonFixtures.lightBrand)
            ))
        rows.append(
            (
                "dark brand", ButtonSnapshotTests.appearance(.connect, .light, connection: ButtonFixtures.darkBrand),
                ButtonSnapshotTests.appearance(.connected, .dark, connection: ButtonFixtures.darkBrand)
            ))
        var body = ""
        var y = 40.0
        for (index, row) in rows.enumerated() {
            let cells = [row.1, row.2].enumerated().map { column, appearance in
                ConnectButtonSVGRenderer.render(appearance, options: .init(idPrefix: "g\(index)-\(column)"))
            }
            let height = cells.map(Self.height(of:)).max() ?? 0
            body +=
                "<text x=\"16\" y=\"\(y + height / 2)\" font-family=\"sans-serif\" font-size=\"15\" fill=\"#333333\">\(row.0)</text>\n"
            for (column, rendered) in cells.enumerated() {
                var cell = rendered
                cell = cell.replacingOccurrences(
                    of: "<svg ", with: "<svg x=\"\(captionWidth + Double(column) * cellWidth)\" y=\"\(y)\" ",
                    options: [], range: cell.range(of: "<svg "))
                body += cell
            }
            y += height + 8
        }
        let width = captionWidth + 2 * cellWidth + 8
        return """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\(width)" height="\(y)" viewBox="0 0 \(width) \(y)">
            <rect width="100%" height="100%" fill="#EEEEEE"/>
            <text x="\(captionWidth + 16)" y="26" font-family="sans-serif" font-size="16" font-weight="700" fill="#333333">style .light (light host)</text>
            <text x="\(captionWidth + cellWidth + 16)" y="26" font-family="sans-serif" font-size="16" font-weight="700" fill="#333333">style .dark (dark host)</text>
            \(body)</svg>

            """
    }
}
