import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The Connect Button's accessibility model: elements per state, announcements, Large Content Viewer, touch targets
/// and the texts in every shipped localization.
@Suite("Connect Button accessibility")
struct ButtonAccessibilityTests {
    static func model(_ state: ConnectButtonVisualState, locale: String = "en") -> ConnectButtonAccessibility {
        ConnectButtonAccessibility(
            state: state, serviceName: "Sunny Weather", fullServiceName: "Sunny Weather Service",
            localization: ConnectLocalization(identifier: locale))
    }

    /// Elements per state: the button (a toggle), or the email field and the confirm button, then the footer.
    @Test func elementsPerState() {
        let expected: [String: [ConnectButtonAccessibility.Element.Kind]] = [
            "enter-email": [.emailField, .confirmButton, .footer],
            "enter-email-invalid": [.emailField, .confirmButton, .footer],
        ]
        for state in ConnectButtonVisualState.allExamples {
            let kinds = Self.model(state).elements.map(\.kind)
            #expect(kinds == expected[state.name] ?? [.button, .footer], "\(state.name)")
        }
        #expect(
            ConnectButtonAccessibility(state: .connect, serviceName: "X", showsFooter: false).elements.map(\.kind)
                == [.button])
    }

    @Test func theButtonIsAToggleWithLabelValueAndHint() {
        let off = Self.model(.connect).elements[0]
        #expect(off.label == "Connect Sunny Weather", "named by the words it shows")
        #expect(off.value == "Not connected")
        #expect(off.hint == "Connects Sunny Weather through IFTTT.")
        #expect(off.traits == [.button, .toggle])
        let on = Self.model(.connected).elements[0]
        #expect(on.label == "Connected" && on.value == nil, "the value does not repeat the label")
        #expect(on.hint == "Turns this connection off.")
        #expect(on.inputLabels == ["Connected", "Sunny Weather connection"])
        let done = Self.model(.checkmark).elements[0]
        #expect(done.label == "Sunny Weather connection" && done.value == "Connected", "no words drawn")
        #expect(on.traits == [.button, .toggle, .selected])
        let busy = Self.model(.verifying).elements[0]
        #expect(busy.value == "Verifying your account" && busy.hint == nil)
        #expect(busy.traits.contains(.notEnabled) && busy.traits.contains(.updatesFrequently))
        #expect(!busy.isInteractive)
        #expect(Self.model(.continueToService).elements[0].label == "Going to Sunny Weather Service…")
        let loading = ConnectButtonAccessibility(state: .loading, serviceName: nil).elements[0]
        #expect(loading.label == "Loading…" && loading.value == nil)
        #expect(loading.inputLabels == ["Loading…", "IFTTT connection"])
    }

    @Test func theEmailStepHasAFieldAndAConfirmButton() {
        let model = Self.model(.enterEmail(email: "jane@example.com", isInvalid: false))
        let field = model.elements[0]
        #expect(field.label == "Your email" && field.value == "jane@example.com")
        #expect(field.inputLabels == ["Your email", "Email address"])
        #expect(field.traits == [.textField] && field.isInteractive)
        let confirm = model.elements[1]
        #expect(confirm.label == "Continue" && confirm.traits == [.button])
        #expect(model.elements[2].label == "Secured with IFTTT. Learn more")
        #expect(model.elements[2].traits == [.button])
        #expect(model.elements[2].inputLabels.contains("Learn more"))
        #expect(model.announcement == nil)
        let invalid = Self.model(.enterEmail(email: "jane@", isInvalid: true))
        #expect(invalid.elements[0].hint == "Enter a valid email address.")
        #expect(invalid.announcement == "Enter a valid email address.")
        #expect(invalid.elements[2].label == "Enter valid email")
        #expect(Self.model(.enterEmail(email: "", isInvalid: false)).elements[0].value == nil)
    }

    @Test func theFooterIsAButtonNamedByItsWords() {
        let retry = Self.model(.loadingFailed).elements[1]
        #expect(retry.label == "Make sure your phone has internet connection. Retry")
        #expect(retry.hint == "Loads the connection again." && retry.inputLabels.contains("Retry"))
        #expect(retry.traits == [.button] && retry.isInteractive)
        let about = Self.model(.connect).elements[1]
        #expect(about.label == "WORKS WITH IFTTT" && about.traits == [.button])
        #expect(about.inputLabels == ["WORKS WITH IFTTT", "About IFTTT"])
        let creating = Self.model(.creatingAccount(email: "jane@example.com")).elements[1]
        #expect(creating.traits == [.button] && creating.label.contains("jane@example.com"))
    }

    @Test func announcementsWhenTheStateChanges() {
        let expected: [String: String?] = [
            "loading": nil, "loading-failed": "The connection could not be loaded.", "connect": nil,
            "slide-to-connect": "Verifying your account", "enter-email": nil,
            "enter-email-invalid": "Enter a valid email address.", "verifying": "Verifying your account",
            "creating-account": "Creating your IFTTT account",
            "continue-to-service": "Opening Sunny Weather Service", "connecting": "Connecting",
            "checkmark": "Connected to Sunny Weather", "connected": nil, "disconnecting": "Disconnecting",
            "disconnected": "Disconnected",
        ]
        for state in ConnectButtonVisualState.allExamples {
            #expect(Self.model(state).announcement == expected[state.name]!, "\(state.name)")
        }
    }

    /// Every interactive element takes touches over at least 44 × 44 pt (the footer line is 22 pt tall).
    @Test(arguments: [360.0, 144.0])
    func touchTargetsAreAtLeast44Points(_ width: Double) {
        for state in ConnectButtonVisualState.allExamples {
            let model = ConnectButtonAccessibility(state: state, serviceName: "S", width: width)
            for element in model.elements where element.traits.contains(.button) || element.traits.contains(.textField)
            {
                #expect(element.touchTarget.width >= 44 && element.touchTarget.height >= 44, "\(state.name)")
                #expect(
                    element.touchTarget.midX == element.frame.midX && element.touchTarget.midY == element.frame.midY)
            }
        }
        #expect(ConnectButtonAccessibility(state: .connect, serviceName: "S").elements[1].frame.height < 44)
    }

    @Test func theLargeContentViewerShowsThePillsText() {
        #expect(Self.model(.connect).largeContent.title == "Connect Sunny Weather")
        #expect(Self.model(.verifying).largeContent.title == "Verifying…")
        #expect(Self.model(.checkmark).largeContent.title == "Connected")
        #expect(Self.model(.enterEmail(email: "a@b.co", isInvalid: false)).largeContent.title == "a@b.co")
        #expect(Self.model(.connect, locale: "de").largeContent.title == "Sunny Weather verbinden")
    }

    /// Every key of `Accessibility.strings` in all 22 localizations and the base, none left in English where the
    /// language is not English, placeholders kept.
    @Test(arguments: ConnectLocalization.supportedLocalizations)
    func everyTextIsLocalized(_ locale: String) {
        let tables = LocalizationTables.accessibility.tables
        let english = tables["en"] ?? [:]
        let table = tables[locale] ?? [:]
        for key in ConnectAccessibilityTexts.Key.allCases {
            let base = english[key.rawValue]
            let text = table[key.rawValue]
            #expect(base != nil && text != nil, "\(locale) lacks \(key.rawValue)")
            #expect(
                text?.components(separatedBy: "%@").count == base?.components(separatedBy: "%@").count,
                "\(locale) \(key.rawValue)")
            if !locale.hasPrefix("en"), key != .footerAbout, let text, let base {
                #expect(text != base, "\(locale) \(key.rawValue) is English")
            }
        }
        #expect(Set(table.keys) == Set(ConnectAccessibilityTexts.Key.allCases.map(\.rawValue)), "\(locale)")
    }

    @Test func spanishAndJapaneseModels() {
        let es = Self.model(.connected, locale: "es-MX")
        #expect(es.localization == "es-419")
        #expect(es.elements[0].label == "Conectado" && es.elements[0].inputLabels.last == "Conexión con Sunny Weather")
        let ja = Self.model(.connecting, locale: "ja")
        #expect(ja.announcement == "接続中")
    }

    @Test func jsonHasExactlyTheDocumentedShape() throws {
        let model = Self.model(.enterEmail(email: "say \"hi\"\n@example.com", isInvalid: false))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(model.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["elements", "announcement"])
        #expect(object["announcement"] is NSNull)
        let elements = try #require(object["elements"] as? [[String: Any]])
        #expect(elements.count == 3)
        for element in elements { #expect(Set(element.keys) == ["label", "value", "hint", "traits"]) }
        #expect(elements[0]["value"] as? String == "say \"hi\"\n@example.com")
        #expect(elements[0]["traits"] as? [String] == ["textField"])
        #expect(elements[1]["value"] is NSNull)
    }
}
