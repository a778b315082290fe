import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// WCAG AA for every text run the button draws (issue 26 item 7), computed from the appearance model.
@Suite("Connect Button contrast")
struct ButtonContrastTests {
    /// Brand colours a service may have: the sandbox seed's, the test fixtures', and hard cases (light, mid-grey,
    /// saturated, nearly the pill's colour).
    static let brandPalette: [String?] = [
        nil, "#1BAF5D", "#1D7CF2", "#EE4433", "#0099FF", "#FF9900", "#FFA500", "#FFE14D", "#1A1A1A", "#222222",
        "#FFFFFF", "#777777", "#808080", "#0000FF", "#00FF00", "#FF00FF", "#00FFFF", "#2F6FDE", "#1D9A6C", "#E1306C",
    ]

    static func connection(brand: String?) -> Connection {
        ButtonFixtures.connection(
            connecting: Connection.Service(
                id: "svc", name: "Sample Service", shortName: "Sample", isPrimary: false,
                brandColor: brand.flatMap { ConnectColor(hex: $0) }))
    }

    /// Every run of every state, both styles (light and dark), every brand colour of the palette.
    static func allRuns() -> [(String, ConnectButtonAppearance.TextRun)] {
        var runs: [(String, ConnectButtonAppearance.TextRun)] = []
        for brand in brandPalette {
            let connection = connection(brand: brand)
            for style in [ConnectButtonStyle.light, .dark] {
                for state in ConnectButtonVisualState.allExamples {
                    let appearance = ConnectButtonAppearance(
                        state: state, connection: state == .loading ? nil : connection, style: style,
                        hostAppearance: style == .light ? .light : .dark)
                    for run in appearance.textRuns {
                        runs.append(("\(brand ?? "no brand") \(style) \(state.name) \(run.role)", run))
                    }
                }
            }
        }
        return runs
    }

    @Test func everyTextRunMeetsAA() {
        let runs = Self.allRuns()
        let failing = runs.filter { !$0.1.meetsAA }
        print("contrast: \(failing.count) of \(runs.count) text runs below WCAG AA")
        for (name, run) in failing.prefix(20) {
            Issue.record(
                "\(name): \(run.color.hex) on \(run.backgrounds.map(\.hex)) is \(run.contrast) < \(run.requiredContrast)"
            )
        }
        #expect(failing.isEmpty)
    }
}

/// 2.8 drew white on brand colours; white stays wherever it meets AA for the size actually drawn.
@Suite("Connect Button white on brand colours")
struct ButtonWhiteOnBrandTests {
    static func appearance(_ state: ConnectButtonVisualState, brand: String) -> ConnectButtonAppearance {
        ConnectButtonAppearance(state: state, connection: ButtonContrastTests.connection(brand: brand))
    }

    /// #1D7CF2 (4.02:1) and #EE4433 (3.81:1) pass as large text: the 22-pt bold label stays at least 18.66 pt;
    /// #2F6FDE and #1D9A6C pass 4.5:1 at any size.
    @Test(arguments: ["#1D7CF2", "#EE4433", "#2F6FDE", "#1D9A6C"])
    func whiteWhereLargeTextAllowsIt(_ brand: String) throws {
        for state in [ConnectButtonVisualState.connecting, .continueToService, .slideToConnect] {
            let label = try #require(Self.appearance(state, brand: brand).label)
            #expect(label.color == .white, "\(brand) \(state.name)")
            if ConnectColor.white.contrastRatio(with: ConnectColor(hex: brand) ?? .white) < 4.5 {
                #expect(label.fontSize * label.minimumScaleFactor >= ConnectButtonGeometry.largeBoldTextSize)
            }
        }
        #expect(Self.appearance(.checkmark, brand: brand).checkmark?.color == .white)
    }

    /// Where white fails even as large text (a light brand colour), the label is black.
    @Test(arguments: ["#FFE14D", "#00FF00", "#FFFFFF"])
    func blackWhereWhiteFails(_ brand: String) throws {
        let label = try #require(Self.appearance(.connecting, brand: brand).label)
        #expect(label.color == .black, "\(brand)")
        #expect(Self.appearance(.checkmark, brand: brand).checkmark?.color == .black)
    }

    /// A label too long to stay large text on a 3:1 colour turns black rather than shrink below AA.
    @Test func aLongLabelThatMustShrinkTurnsBlack() throws {
        let long = ButtonFixtures.connection(
            connecting: Connection.Service(
                id: "long", name: "A Very Long Service Name That Does Not Fit At All", isPrimary: false,
                brandColor: ConnectColor(hex: "#EE4433")))
        let label = try #require(ConnectButtonAppearance(state: .continueToService, connection: long).label)
        #expect(label.color == .black)
    }
}
