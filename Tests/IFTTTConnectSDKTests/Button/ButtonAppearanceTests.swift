import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

@Suite("Connect Button appearance model")
struct ButtonAppearanceTests {
    let connection = ButtonFixtures.standard

    func make(
        _ state: ConnectButtonVisualState, connection: Connection? = ButtonFixtures.standard,
        style: ConnectButtonStyle = .light, host: ConnectButtonColorScheme = .light, width: Double = 360,
        locale: String = "en"
    ) -> ConnectButtonAppearance {
        ConnectButtonAppearance(
            state: state, connection: connection, localization: ConnectLocalization(identifier: locale),
            style: style, hostAppearance: host, width: width)
    }

    @Test func geometryFollowsTheSpecification() {
        let g = ConnectButtonGeometry(width: 1000)
        #expect(ConnectButtonGeometry.height == 72)
        #expect(g.width == 360)
        #expect(ConnectButtonGeometry.knobDiameter == 64)
        #expect(ConnectButtonGeometry.iconSize == 32)
        #expect(ConnectButtonGeometry(width: 10).width == 144)
        #expect(ConnectButtonGeometry(width: .nan).width == 360)
        #expect(g.knobFrame(position: 0) == ConnectButtonRect(x: 4, y: 4, width: 64, height: 64))
        #expect(g.knobFrame(position: 1) == ConnectButtonRect(x: 292, y: 4, width: 64, height: 64))
        #expect(g.totalHeight(hasFooter: true) == 72 + 15 + ConnectButtonGeometry.footerHeight)
    }

    @Test func contrastRuleBrightensDarkAndDarkensLightColours() {
        let dark = ConnectColor(hex: "#101010")!
        #expect(dark.contrasting().brightness > dark.brightness)
        let light = ConnectColor(hex: "#3399FF")!
        #expect(abs(light.contrasting().brightness - (light.brightness - 0.15)) < 0.01)
        #expect(ConnectColor.black.withBrightness(0.5) == ConnectColor(red: 128, green: 128, blue: 128))
        #expect(ConnectColor.white.contrastRatio(with: .black) > 20.9)
    }

    @Test func knobStandsOutFromAPillOfTheSameBrightness() {
        let appearance = make(.connect, connection: ButtonFixtures.darkBrand)
        let knob = try! #require(appearance.knob)
        #expect(knob.color != ConnectColor(hex: "#1A1A1A"))
        #expect(abs(knob.color.brightness - appearance.backgroundColor.brightness) >= 0.2)
        // A brand colour far from the pill is used as is.
        #expect(make(.connect).knob?.color == ConnectColor(hex: "#2F6FDE"))
    }

    @Test func stylesColourThePill() {
        #expect(make(.connect, style: .light).backgroundColor == ConnectButtonPalette.almostBlack)
        #expect(make(.connect, style: .light).label?.color == .white)
        #expect(make(.connect, style: .dark).backgroundColor == .white)
        #expect(make(.connect, style: .dark).label?.color == .black)
        #expect(make(.connect, style: .dynamic, host: .dark).backgroundColor == .white)
        #expect(make(.connect, style: .dynamic, host: .light).backgroundColor == ConnectButtonPalette.almostBlack)
        #expect(make(.connect, style: .light, host: .dark).colorScheme == .light)
    }

    @Test func brandedStatesUseTheBrandColourAndReadableText() {
        for state in [ConnectButtonVisualState.slideToConnect, .continueToService, .connecting, .checkmark] {
            #expect(make(state).backgroundColor == ConnectColor(hex: "#2F6FDE"), "\(state)")
        }
        #expect(make(.connecting).label?.color == .white)
        // Black or white by contrast (issue 26 item 7): black on the light brand colour.
        #expect(make(.connecting, connection: ButtonFixtures.lightBrand).label?.color == .black)
        #expect(
            make(.connecting, connection: ButtonFixtures.noBrand).backgroundColor == ConnectButtonPalette.almostBlack)
        #expect(make(.enterEmail(email: "", isInvalid: false)).backgroundColor == ConnectButtonPalette.lightGrey)
    }

    @Test func labelsAndInsetsPerState() {
        #expect(make(.loading, connection: nil).label?.text == "Loading…")
        #expect(make(.loading, connection: nil).label?.pulse == .loading)
        #expect(make(.connect).label?.text == "Connect Sunny Weather")
        #expect(make(.connect).label?.insets == .avoidingLeftKnob)
        #expect(make(.connected).label?.insets == .avoidingRightKnob)
        #expect(make(.verifying).label?.insets == .standard)
        #expect(make(.continueToService).label?.text == "Going to Sunny Weather Service…")
        #expect(make(.enterEmail(email: "a@b.c", isInvalid: false)).label == nil)
        #expect(make(.checkmark).label == nil)
        #expect(make(.checkmark).checkmark?.frame.width == 42)
        #expect(make(.connect, locale: "ja").label?.text == "Sunny Weather に接続")
    }

    @Test func knobRestsOnlyWhereTheUserCanSlideIt() {
        #expect(make(.connect).knob?.position == 0)
        #expect(make(.connected).knob?.position == 1)
        #expect(make(.connected).knob?.frame.maxX == 356)
        for state in ConnectButtonVisualState.allExamples where state != .connect && state != .connected {
            #expect(make(state).knob == nil, "\(state)")
        }
        #expect(make(.connect).knob?.icon == .monogram("S", color: .white))
        // The icon URL alone shows the monogram (while it loads); the loaded image replaces it.
        let withIcon = make(.connect, connection: ButtonFixtures.withIcon).knob
        #expect(withIcon?.icon == .monogram("S", color: .white))
        #expect(withIcon?.iconURL == URL(string: "https://assets.example.com/sunny/monochrome.png"))
        let loaded = ConnectButtonAppearance(
            state: .connect, connection: ButtonFixtures.withIcon, icon: ButtonSnapshotTests.sunIcon)
        #expect(loaded.knob?.icon == .image(ButtonSnapshotTests.sunIcon))
    }

    @Test func progressBarsFollowTheControllerTimings() {
        #expect(make(.verifying).progress?.target == 0.5)
        #expect(make(.verifying).progress?.duration == 0.75)
        #expect(make(.verifying).progress?.color == ConnectButtonPalette.grey)
        #expect(make(.verifying, style: .dark).progress?.color == ConnectButtonPalette.lightGrey)
        #expect(make(.creatingAccount(email: "x")).progress?.fraction == 0.5)
        #expect(make(.continueToService).progress?.duration == 2.0)
        #expect(make(.continueToService).progress?.color == ConnectColor(hex: "#2F6FDE")!.contrasting())
        #expect(make(.connecting).progress?.duration == 2.0)
        #expect(make(.disconnecting).progress?.target == 0.75)
        #expect(make(.slideToConnect).progress?.duration == 1.0)
        let midway = ConnectButtonAppearance(state: .connecting, connection: connection, progress: 2)
        #expect(midway.progress?.fraction == 1)
    }

    @Test func transitionsCarryTheDurationsOfTheOriginal() {
        #expect(make(.connect).transition == .standard)
        #expect(make(.connect).transition.duration == 0.4)
        #expect(make(.enterEmail(email: "", isInvalid: false)).transition.duration == 0.5)
        #expect(make(.enterEmail(email: "x", isInvalid: true)).transition.hold == 2.0)
        #expect(
            make(.enterEmail(email: "x", isInvalid: true)).transition.next == .enterEmail(email: "x", isInvalid: false))
        #expect(make(.connecting).transition.next == .checkmark)
        #expect(make(.checkmark).transition.hold == 1.5)
        #expect(make(.checkmark).transition.next == .connected)
        #expect(make(.disconnected).transition.hold == 2.0)
        #expect(make(.disconnected).transition.next == .connect)
        #expect(make(.creatingAccount(email: "x")).transition.next == .continueToService)
    }

    @Test func footersPerState() {
        #expect(make(.connect).footer?.kind == .worksWithIFTTT)
        #expect(make(.connect).footer?.action == .showAbout)
        #expect(make(.connect).footer?.text.runs.map(\.kind) == [.plain, .wordmark])
        let failed = try! #require(make(.loadingFailed).footer)
        #expect(failed.action == .retry)
        #expect(failed.text.runs.last?.kind == .link)
        #expect(failed.text.runs.first?.color == ConnectButtonPalette.errorLight)
        #expect(make(.enterEmail(email: "x", isInvalid: true)).footer?.kind == .emailInvalid)
        #expect(
            make(.creatingAccount(email: "jane@example.com")).footer?.text.description
                == "New IFTTT account for jane@example.com")
        #expect(make(.connect).footer?.frame.y == 87)
        let hidden = ConnectButtonAppearance(state: .connect, connection: connection, showsFooter: false)
        #expect(hidden.footer == nil)
    }

    @Test(arguments: ConnectLocalization.supportedLocalizations)
    func emailFooterShowsLearnMoreOnce(_ locale: String) throws {
        // W-21: the original appended the link to a sentence that already ended with it.
        let footer = try #require(make(.enterEmail(email: "", isInvalid: false), locale: locale).footer)
        let link = ConnectLocalization(identifier: locale).string(.footerEmailLink)
        #expect(footer.text.runs.filter { $0.kind == .link }.map(\.text) == [link])
        #expect(footer.text.description.components(separatedBy: link).count == 2)
        #expect(!footer.text.description.contains("  "))
    }

    @Test func interactionAndAccessibility() {
        #expect(make(.connect).isInteractive)
        #expect(make(.connected).isInteractive)
        #expect(!make(.verifying).isInteractive)
        #expect(make(.checkmark).accessibilityLabel == "Connected")
        #expect(make(.enterEmail(email: "", isInvalid: false)).accessibilityLabel == "Your email")
        #expect(make(.enterEmail(email: "", isInvalid: false)).emailField?.confirmAccessibilityLabel == "Continue")
    }

    @Test func wordmarkSplittingKeepsTheWordWhereTheLanguagePutsIt() {
        let text = StyledText.wordmarked("O IFTTT conecta A a B", color: .black)
        #expect(text.runs.map(\.text) == ["O ", "IFTTT", " conecta A a B"])
        #expect(text.runs.map(\.kind) == [.plain, .wordmark, .plain])
        #expect(StyledText.wordmarked("IFTTT:n", color: .black).runs.map(\.text) == ["IFTTT", ":n"])
        #expect(StyledText.wordmarked("none", color: .black).runs.count == 1)
    }
}
