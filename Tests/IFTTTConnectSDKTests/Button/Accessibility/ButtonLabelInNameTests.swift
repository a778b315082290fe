import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// WCAG 2.5.3 Label in Name: the name VoiceOver reads and Voice Control listens for contains the words the button
/// draws. The words come from the rendered SVG (what a person sees), the names from ``ConnectButtonAccessibility``,
/// over every shipped localization and every state.
@Suite("Connect Button label in name")
struct ButtonLabelInNameTests {
    /// The words one SVG draws: the pill's label, the email field's text, the footer's lines and its link.
    struct RenderedWords {
        var pill: String?
        var email: String?
        var footer: String?
        var link: String?

        init(svg: String) {
            func texts(_ cls: String) -> [String] {
                var found: [String] = []
                var rest = svg[...]
                while let start = rest.range(of: "<text class=\"\(cls)\"") {
                    let body = rest[start.upperBound...]
                    guard let open = body.firstIndex(of: ">"), let close = body.range(of: "</text>") else { break }
                    found.append(Self.plain(String(body[body.index(after: open)..<close.lowerBound])))
                    rest = body[close.upperBound...]
                }
                return found
            }
            pill = texts("label").first
            email = texts("email").first
            let lines = texts("footer")
            footer = lines.isEmpty ? nil : lines.joined(separator: " ")
            if let range = svg.range(of: "text-decoration=\"underline\">"),
                let end = svg[range.upperBound...].range(of: "</tspan>")
            {
                link = Self.plain(String(svg[range.upperBound..<end.lowerBound]))
            }
        }

        /// Text without tags and entities.
        static func plain(_ markup: String) -> String {
            var out = ""
            var inTag = false
            for character in markup {
                if character == "<" {
                    inTag = true
                } else if character == ">" {
                    inTag = false
                } else if !inTag {
                    out.append(character)
                }
            }
            return out.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    /// Case, white space (a footer wrapped onto two lines, the gaps around a wordmark in Japanese) and a trailing
    /// ellipsis do not change what is spoken.
    static func normalized(_ text: String) -> String {
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).joined()
        while words.hasSuffix("…") || words.hasSuffix(".") { words.removeLast() }
        return words
    }

    static func contains(_ name: String?, _ words: String?) -> Bool {
        guard let words else { return true }
        guard let name else { return false }
        return normalized(name).contains(normalized(words))
    }

    struct Mismatch: CustomStringConvertible {
        var localization: String
        var state: String
        var element: String
        var name: String
        var words: String
        var description: String { "\(localization) \(state) \(element): name \"\(name)\" lacks \"\(words)\"" }
    }

    /// Every name against the words drawn in the same state and language.
    static func mismatches(localization identifier: String, state: ConnectButtonVisualState) -> [Mismatch] {
        let localization = ConnectLocalization(identifier: identifier)
        let connection = ButtonFixtures.standard
        let appearance = ConnectButtonAppearance(state: state, connection: connection, localization: localization)
        let words = RenderedWords(svg: ConnectButtonSVGRenderer.render(appearance))
        let model = ConnectButtonAccessibility(
            state: state, serviceName: connection.connectingService.shortName,
            fullServiceName: connection.connectingService.name, localization: localization)
        var found: [Mismatch] = []
        func check(_ kind: ConnectButtonAccessibility.Element.Kind, _ element: String, _ text: String?) {
            guard let text else { return }
            let name = model.elements.first { $0.kind == kind }?.label
            if !contains(name, text) {
                found.append(
                    Mismatch(
                        localization: identifier, state: state.name, element: element, name: name ?? "(none)",
                        words: text))
            }
        }
        check(.button, "pill", words.pill)
        if case .enterEmail(let email, _) = state {
            // The field's name is its placeholder; a typed address is its value.
            let field = model.elements.first { $0.kind == .emailField }
            if email.isEmpty {
                check(.emailField, "email", words.email)
            } else if field?.value != words.email {
                found.append(
                    Mismatch(
                        localization: identifier, state: state.name, element: "email",
                        name: field?.value ?? "(none)", words: words.email ?? ""))
            }
        }
        check(.footer, "footer", words.footer)
        check(.footer, "retry", words.link)
        return found
    }

    /// 22 localizations × 14 states: no name lacks its words.
    @Test func everyNameContainsTheWordsDrawn() {
        var all: [Mismatch] = []
        for identifier in ConnectLocalization.supportedLocalizations {
            for state in ConnectButtonVisualState.allExamples + [.enterEmail(email: "", isInvalid: false)] {
                all += Self.mismatches(localization: identifier, state: state)
            }
        }
        #expect(ConnectLocalization.supportedLocalizations.count == 22)
        #expect(all.isEmpty, "\(all.count) mismatches:\n\(all.map(\.description).joined(separator: "\n"))")
    }

    /// The closing table: per localization, the pill ("Connect …"), the footer ("WORKS WITH IFTTT") and the retry
    /// link; `CONNECT_LABEL_IN_NAME_TABLE=1` prints it.
    @Test func theTableOfTheThreeNamedElements() {
        var rows: [String] = ["localization  pill  footer  retry"]
        var failures = 0
        for identifier in ConnectLocalization.supportedLocalizations {
            let connect = Self.mismatches(localization: identifier, state: .connect)
            let failed = Self.mismatches(localization: identifier, state: .loadingFailed)
            let pill = connect.contains { $0.element == "pill" }
            let footer = connect.contains { $0.element == "footer" }
            let retry = failed.contains { $0.element == "retry" }
            failures += [pill, footer, retry].filter { $0 }.count
            func mark(_ bad: Bool) -> String { bad ? "FAIL" : "ok" }
            rows.append(
                identifier.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + "\(mark(pill).padding(toLength: 6, withPad: " ", startingAt: 0))"
                    + "\(mark(footer).padding(toLength: 8, withPad: " ", startingAt: 0))\(mark(retry))")
        }
        rows.append("mismatches: \(failures)/\(3 * ConnectLocalization.supportedLocalizations.count)")
        if ProcessInfo.processInfo.environment["CONNECT_LABEL_IN_NAME_TABLE"] == "1" {
            print(rows.joined(separator: "\n"))
        }
        #expect(failures == 0, "\(rows.joined(separator: "\n"))")
    }

    /// Voice Control: the visible words are the first thing a user can say; VoiceOver reads the texts in the
    /// controller's language, not the device's.
    @Test func voiceControlAndLanguage() {
        let model = ConnectButtonAccessibility(
            state: .connect, serviceName: "Sunny Weather", localization: ConnectLocalization(identifier: "es-419"))
        let pill = model.elements[0]
        #expect(pill.inputLabels.first == pill.label)
        #expect(pill.inputLabels.contains("Conexión con Sunny Weather"))
        #expect(model.localization == "es-419")
        for element in model.elements { #expect(!element.inputLabels.isEmpty) }
    }

    /// The footer looks the same in every state, so it is the same kind of element in every state: a button.
    @Test func theFooterIsOneKindOfElement() {
        for state in ConnectButtonVisualState.allExamples {
            let model = ButtonAccessibilityTests.model(state)
            let footer = model.elements.last
            #expect(footer?.kind == .footer && footer?.traits == [.button], "\(state.name)")
            let appearance = ConnectButtonAppearance(state: state, connection: ButtonFixtures.standard)
            #expect(appearance.footer?.action != nil, "\(state.name): a footer button does something")
        }
    }
}
