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
/// model.elements[0].label   // "Verbindung mit Sunny Weather"
/// model.elements[0].traits  // [.button, .toggle]
/// ```
///
/// Per state: the pill is a toggle-like button whose label names the Connection, whose value tells its state
/// (off, on, or what is happening) and whose hint says what a double-tap does; in the email step the email field
/// and the confirm button are separate elements; a footer with an action is a button, a footer without one
/// static text. Every interactive element's touch target is at least 44 × 44 pt.
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
        let label = name.map { texts.format(.buttonLabel, $0) } ?? texts.string(.buttonLabelNoService)
        let pill = geometry.pillFrame
        var elements: [Element] = []
        var announcement: String?
        var visibleLabel: String?

        func button(_ value: Key, _ args: String..., hint: Key? = nil, traits: [Trait]) {
            let text = texts.format(value, args)
            elements.append(
                Element(
                    kind: .button, label: label, value: text, hint: hint.map { texts.format($0, name ?? "") },
                    traits: traits, frame: pill))
        }
        let busy: [Trait] = [.button, .toggle, .notEnabled, .updatesFrequently]

        switch state {
        case .loading:
            button(.valueLoading, traits: busy)
            visibleLabel = localization.string(.loading)
        case .loadingFailed:
            button(.valueLoadingFailed, traits: [.button, .toggle, .notEnabled])
            visibleLabel = localization.string(.loading)
            announcement = texts.string(.announceLoadingFailed)
        case .connect:
            button(.valueOff, hint: name == nil ? nil : .hintConnect, traits: [.button, .toggle])
            visibleLabel = localization.format(.connect, name ?? "")
        case .slideToConnect:
            button(.valueVerifying, traits: busy)
            announcement = texts.string(.valueVerifying)
            visibleLabel = localization.string(.verifying)
        case .enterEmail(let email, let invalid):
            let confirm = geometry.knobFrame(
                position: 1, scale: ConnectButtonGeometry.height / ConnectButtonGeometry.knobDiameter)
            let fieldX = ConnectButtonGeometry.standardLabelInset
            let field = ConnectButtonRect(
                x: fieldX, y: ConnectButtonGeometry.knobInset, width: max(0, confirm.x - fieldX - 8),
                height: ConnectButtonGeometry.height - 2 * ConnectButtonGeometry.knobInset)
            elements.append(
                Element(
                    kind: .emailField, label: texts.string(.emailLabel), value: email.isEmpty ? nil : email,
                    hint: texts.string(invalid ? .emailHintInvalid : .emailHint), traits: [.textField], frame: field))
            elements.append(
                Element(
                    kind: .confirmButton, label: texts.string(.emailConfirmLabel),
                    hint: texts.string(.emailConfirmHint), traits: [.button], frame: confirm))
            announcement = invalid ? texts.string(.emailHintInvalid) : nil
            visibleLabel = email.isEmpty ? localization.string(.emailPlaceholder) : email
        case .verifying:
            button(.valueVerifying, traits: busy)
            announcement = texts.string(.valueVerifying)
            visibleLabel = localization.string(.verifying)
        case .creatingAccount:
            button(.valueCreatingAccount, traits: busy)
            announcement = texts.string(.valueCreatingAccount)
            visibleLabel = localization.string(.creatingAccount)
        case .continueToService:
            button(.valueOpening, full, traits: busy)
            announcement = texts.format(.valueOpening, full)
            visibleLabel = localization.format(.continueToService, full)
        case .connecting:
            button(.valueConnecting, traits: busy)
            announcement = texts.string(.valueConnecting)
            visibleLabel = localization.string(.connecting)
        case .checkmark:
            button(.valueOn, traits: [.button, .toggle, .selected, .notEnabled])
            announcement = name.map { texts.format(.announceConnected, $0) } ?? texts.string(.valueOn)
        case .connected:
            button(.valueOn, hint: .hintDisconnect, traits: [.button, .toggle, .selected])
            visibleLabel = localization.string(.connected)
        case .disconnecting:
            button(.valueDisconnecting, traits: busy)
            announcement = texts.string(.valueDisconnecting)
            visibleLabel = localization.string(.disconnecting)
        case .disconnected:
            button(.valueOff, traits: [.button, .toggle, .notEnabled])
            announcement = texts.string(.announceDisconnected)
            visibleLabel = localization.string(.disconnected)
        }

        if showsFooter {
            let footer = geometry.footerFrame
            switch state {
            case .loadingFailed:
                elements.append(
                    Element(
                        kind: .footer, label: texts.string(.footerRetry), hint: texts.string(.footerRetryHint),
                        traits: [.button], frame: footer))
            case .enterEmail(_, true):
                elements.append(
                    Element(
                        kind: .footer, label: localization.string(.footerEmailInvalid), traits: [.staticText],
                        frame: footer))
            case .enterEmail:
                elements.append(
                    Element(
                        kind: .footer, label: texts.string(.footerLearnMore), hint: texts.string(.footerAboutHint),
                        traits: [.button], frame: footer))
            case .creatingAccount(let email):
                elements.append(
                    Element(
                        kind: .footer, label: localization.format(.footerCreatingAccount, email),
                        traits: [.staticText], frame: footer))
            case .connect, .verifying, .connected:
                elements.append(
                    Element(
                        kind: .footer, label: texts.string(.footerAbout), hint: texts.string(.footerAboutHint),
                        traits: [.button], frame: footer))
            default:
                elements.append(
                    Element(
                        kind: .footer, label: localization.string(.footerWorksWith), traits: [.staticText],
                        frame: footer))
            }
        }

        self.state = state
        self.localization = localization.localization
        self.elements = elements
        self.announcement = announcement
        let first = elements[0]
        self.largeContent = LargeContent(title: visibleLabel ?? first.value ?? first.label)
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
