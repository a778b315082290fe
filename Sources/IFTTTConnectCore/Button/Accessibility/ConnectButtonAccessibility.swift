import Foundation

/// What assistive technologies get from the Connect Button in one visual state: its elements in reading order,
/// the announcement posted when the state is entered, and the Large Content Viewer item of the fixed-height pill.
///
/// A pure function of the state, the service's name, the localization and the button's width. UIKit maps each
/// ``Element`` to one accessibility element (the email field is the real text field), SwiftUI to one
/// accessibility element per view, and the sandbox playground to ARIA; `ifttt-connect button accessibility`
/// prints ``json``.
///
/// ```swift
/// let model = ConnectButtonAccessibility(state: .connect, serviceName: "Sunny Weather",
///                                        localization: ConnectLocalization(identifier: "de"))
/// model.elements[0].label   // "Sunny Weather verbinden"
/// model.elements[0].value   // "Nicht verbunden"
/// model.elements[0].traits  // [.button, .toggle]
/// ```
///
/// Every name contains the words the element draws (WCAG 2.5.3, Label in Name), so a Voice Control user can say
/// what they see: the pill is named by its label (what the toggle is, "Sunny Weather connection", names it only
/// where the pill draws no words, the checkmark), its value tells its state where the label does not already
/// say it, and its hint says what a double-tap does. In the email step the field is named by its placeholder and
/// the confirm button is a separate element. The footer is a button in every state, named by all its words. Every
/// text is in ``localization``, which platforms pass on as the speech language. Every interactive element's touch
/// target is at least 44 × 44 pt.
@_spi(Sandbox) public struct ConnectButtonAccessibility: Sendable, Hashable {
    /// One accessibility element.
    public struct Element: Sendable, Hashable {
        /// Which part of the button the element is.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// The pill: a toggle-like button.
            case button
            /// The email step's text field.
            case emailField
            /// The email step's confirm button.
            case confirmButton
            /// The footer under the pill (a button when it has an action).
            case footer
        }

        /// Which part this is.
        public var kind: Kind
        /// What the element is, read first.
        public var label: String
        /// Its current value (the toggle's state, the typed email), if any.
        public var value: String?
        /// What activating it does, if anything.
        public var hint: String?
        /// Its traits, in a fixed order.
        public var traits: [Trait]
        /// Its frame in the button's coordinates (the pill's top left is 0, 0), as drawn.
        public var frame: ConnectButtonRect
        /// Where it takes touches: ``frame`` grown to at least ``minimumTouchTarget`` on each side.
        public var touchTarget: ConnectButtonRect
        /// What Voice Control answers to (`accessibilityUserInputLabels`), the visible words first.
        var inputLabels: [String] = []

        /// Creates an element; the touch target is `frame` grown to at least 44 × 44 pt around its centre.
        public init(
            kind: Kind, label: String, value: String? = nil, hint: String? = nil, traits: [Trait],
            frame: ConnectButtonRect
        ) {
            self.kind = kind
            self.label = label
            self.value = value
            self.hint = hint
            self.traits = traits
            self.frame = frame
            let width = max(frame.width, ConnectButtonAccessibility.minimumTouchTarget)
            let height = max(frame.height, ConnectButtonAccessibility.minimumTouchTarget)
            self.touchTarget = ConnectButtonRect(
                x: frame.midX - width / 2, y: frame.midY - height / 2, width: width, height: height)
        }

        /// Whether a user can activate it.
        public var isInteractive: Bool {
            !traits.contains(.notEnabled) && (traits.contains(.button) || traits.contains(.textField))
        }
    }

    /// Accessibility traits, named as UIKit's `UIAccessibilityTraits` (plus the text field role).
    public enum Trait: String, Sendable, Hashable, CaseIterable {
        /// Activating it performs an action (`.button`).
        case button
        /// It switches something on and off (`.toggleButton` from iOS 17; earlier the value carries the state).
        case toggle
        /// It is on (`.selected`).
        case selected
        /// It cannot be activated now (`.notEnabled`).
        case notEnabled
        /// Its value changes while it is focused (`.updatesFrequently`).
        case updatesFrequently
        /// It is text that does not change by itself (`.staticText`).
        case staticText
        /// It is an editable text field (UIKit's `UITextField`, ARIA's `textbox`).
        case textField
    }

    /// The item the Large Content Viewer shows when the user long-presses the fixed-height pill at an
    /// accessibility text size (the pill does not grow with Dynamic Type).
    public struct LargeContent: Sendable, Hashable {
        /// The text shown enlarged: the pill's visible label (the email in the email step), or the button's value
        /// when the pill shows no text (the checkmark).
        public var title: String
    }

    typealias Key = ConnectAccessibilityTexts.Key

    /// The smallest touch target, in points, on each side (Apple's Human Interface Guidelines).
    public static let minimumTouchTarget = 44.0

    /// The state this describes.
    public let state: ConnectButtonVisualState
    /// The localization the texts come from.
    public let localization: String
    /// The elements, in reading order.
    public let elements: [Element]
    /// What VoiceOver announces when the button enters this state, if anything.
    public let announcement: String?
    /// The pill's Large Content Viewer item.
    public let largeContent: LargeContent

    /// Computes the accessibility of the button in `state`.
    ///
    /// - Parameters:
    ///   - state: The visual state.
    ///   - serviceName: The connecting service's short name (2.8's label uses it); `nil` while the Connection
    ///     loads.
    ///   - fullServiceName: The service's full name, used while the web flow opens (defaults to `serviceName`).
    ///   - localization: The language of every text.
    ///   - width: The width available; frames follow ``ConnectButtonGeometry``.
    ///   - showsFooter: Whether the footer is shown.
    public init(
        state: ConnectButtonVisualState, serviceName: String?, fullServiceName: String? = nil,
        localization: ConnectLocalization = .english, width: Double = ConnectButtonGeometry.maximumWidth,
        showsFooter: Bool = true
    ) {
        let texts = ConnectAccessibilityTexts(localization: localization)
        let geometry = ConnectButtonGeometry(width: width)
        let name = serviceName.flatMap { $0.isEmpty ? nil : $0 }
        let full = fullServiceName.flatMap { $0.isEmpty ? nil : $0 } ?? name ?? ""
        // What the toggle is ("Sunny Weather connection"): the name where the pill draws no words (the checkmark),
        // and a second phrase Voice Control answers to.
        let connectionName = name.map { texts.format(.buttonLabel, $0) } ?? texts.string(.buttonLabelNoService)
        let pill = geometry.pillFrame
        var elements: [Element] = []
        var announcement: String?
        let visibleLabel = Self.visibleLabel(
            state, serviceName: name, fullServiceName: full, localization: localization)

        func button(_ value: Key, _ args: String..., hint: Key? = nil, traits: [Trait]) {
            let label = visibleLabel ?? connectionName
            let text = texts.format(value, args)
            var element = Element(
                kind: .button, label: label, value: Self.spokenKey(text) == Self.spokenKey(label) ? nil : text,
                hint: hint.map { texts.format($0, name ?? "") }, traits: traits, frame: pill)
            element.inputLabels = Self.unique([label, connectionName])
            elements.append(element)
        }
        let busy: [Trait] = [.button, .toggle, .notEnabled, .updatesFrequently]

        switch state {
        case .loading:
            button(.valueLoading, traits: busy)
        case .loadingFailed:
            button(.valueLoadingFailed, traits: [.button, .toggle, .notEnabled])
            announcement = texts.string(.announceLoadingFailed)
        case .connect:
            button(.valueOff, hint: name == nil ? nil : .hintConnect, traits: [.button, .toggle])
        case .slideToConnect:
            button(.valueVerifying, traits: busy)
            announcement = texts.string(.valueVerifying)
        case .enterEmail(let email, let invalid):
            let confirm = geometry.knobFrame(
                position: 1, scale: ConnectButtonGeometry.height / ConnectButtonGeometry.knobDiameter)
            let fieldX = ConnectButtonGeometry.standardLabelInset
            let field = ConnectButtonRect(
                x: fieldX, y: ConnectButtonGeometry.knobInset, width: max(0, confirm.x - fieldX - 8),
                height: ConnectButtonGeometry.height - 2 * ConnectButtonGeometry.knobInset)
            // The placeholder is the field's visible label: its name; a typed address is its value.
            let placeholder = localization.string(.emailPlaceholder)
            var fieldElement = Element(
                kind: .emailField, label: placeholder, value: email.isEmpty ? nil : email,
                hint: texts.string(invalid ? .emailHintInvalid : .emailHint), traits: [.textField], frame: field)
            fieldElement.inputLabels = Self.unique([placeholder, texts.string(.emailLabel)])
            elements.append(fieldElement)
            let confirmLabel = localization.string(.emailConfirm)
            var confirmElement = Element(
                kind: .confirmButton, label: confirmLabel, hint: texts.string(.emailConfirmHint), traits: [.button],
                frame: confirm)
            confirmElement.inputLabels = Self.unique([confirmLabel, texts.string(.emailConfirmLabel)])
            elements.append(confirmElement)
            announcement = invalid ? texts.string(.emailHintInvalid) : nil
        case .verifying:
            button(.valueVerifying, traits: busy)
            announcement = texts.string(.valueVerifying)
        case .creatingAccount:
            button(.valueCreatingAccount, traits: busy)
            announcement = texts.string(.valueCreatingAccount)
        case .continueToService:
            button(.valueOpening, full, traits: busy)
            announcement = texts.format(.valueOpening, full)
        case .connecting:
            button(.valueConnecting, traits: busy)
            announcement = texts.string(.valueConnecting)
        case .checkmark:
            button(.valueOn, traits: [.button, .toggle, .selected, .notEnabled])
            announcement = name.map { texts.format(.announceConnected, $0) } ?? texts.string(.valueOn)
        case .connected:
            button(.valueOn, hint: .hintDisconnect, traits: [.button, .toggle, .selected])
        case .disconnecting:
            button(.valueDisconnecting, traits: busy)
            announcement = texts.string(.valueDisconnecting)
        case .disconnected:
            button(.valueOff, traits: [.button, .toggle, .notEnabled])
            announcement = texts.string(.announceDisconnected)
        }

        if showsFooter {
            // The footer looks alike in every state, so it is a button in every state, named by all its words; the
            // link's words (and the older short names) are what Voice Control also answers to.
            let (kind, action) = ConnectButtonAppearance.footer(for: state)
            let text = ConnectButtonAppearance.footerText(
                kind, state: state, localization: localization, scheme: .light)
            let words = text.description
            var footer = Element(
                kind: .footer, label: words, hint: texts.string(action == .retry ? .footerRetryHint : .footerAboutHint),
                traits: [.button], frame: geometry.footerFrame)
            let link = text.runs.filter { $0.kind == .link }.map(\.text).joined()
            let alias: Key =
                switch kind {
                case .loadingFailed: .footerRetry
                case .enterEmail: .footerLearnMore
                default: .footerAbout
                }
            footer.inputLabels = Self.unique([words, link, texts.string(alias)])
            elements.append(footer)
        }

        self.state = state
        self.localization = localization.localization
        self.elements = elements
        self.announcement = announcement
        let first = elements[0]
        self.largeContent = LargeContent(title: visibleLabel ?? first.value ?? first.label)
    }

    /// The words the pill draws in `state` (``ConnectButtonAppearance``'s label, or the email field's text), or
    /// `nil` where it draws none (the checkmark).
    static func visibleLabel(
        _ state: ConnectButtonVisualState, serviceName name: String?, fullServiceName full: String,
        localization: ConnectLocalization
    ) -> String? {
        switch state {
        case .loading, .loadingFailed: return localization.string(.loading)
        case .connect: return localization.format(.connect, name ?? "")
        case .slideToConnect, .verifying: return localization.string(.verifying)
        case .enterEmail(let email, _): return email.isEmpty ? localization.string(.emailPlaceholder) : email
        case .creatingAccount: return localization.string(.creatingAccount)
        case .continueToService: return localization.format(.continueToService, full)
        case .connecting: return localization.string(.connecting)
        case .checkmark: return nil
        case .connected: return localization.string(.connected)
        case .disconnecting: return localization.string(.disconnecting)
        case .disconnected: return localization.string(.disconnected)
        }
    }

    /// `text` as speech compares it: case, white space and a trailing ellipsis or full stop do not count.
    static func spokenKey(_ text: String) -> String {
        var key = text.lowercased().split(whereSeparator: \.isWhitespace).joined()
        while key.hasSuffix("…") || key.hasSuffix(".") { key.removeLast() }
        return key
    }

    /// `phrases` without empty or repeated ones (as speech compares them), in order.
    static func unique(_ phrases: [String]) -> [String] {
        var seen: Set<String> = []
        return phrases.filter { !$0.isEmpty && seen.insert(spokenKey($0)).inserted }
    }

    /// The model as JSON: `{"elements": [{"label": …, "value": …, "hint": …, "traits": […]}], "announcement": …}`,
    /// absent texts as `null`, two-space indented, keys in that order.
    public var json: String {
        func quoted(_ text: String?) -> String {
            guard let text else { return "null" }
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 {
                        out += String(format: "\\u%04x", scalar.value)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }
        var s = "{\n  \"elements\": [\n"
        for (index, element) in elements.enumerated() {
            s += "    {\n"
            s += "      \"label\": \(quoted(element.label)),\n"
            s += "      \"value\": \(quoted(element.value)),\n"
            s += "      \"hint\": \(quoted(element.hint)),\n"
            s += "      \"traits\": [\(element.traits.map { quoted($0.rawValue) }.joined(separator: ", "))]\n"
            s += index == elements.count - 1 ? "    }\n" : "    },\n"
        }
        s += "  ],\n  \"announcement\": \(quoted(announcement))\n}"
        return s
    }
}
