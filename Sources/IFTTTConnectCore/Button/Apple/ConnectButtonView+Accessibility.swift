#if canImport(SwiftUI)
import SwiftUI
#if canImport(UIKit)
import UIKit
#endif

@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
extension ConnectButtonView {
    /// The accessibility of the button in `state` (``ConnectButtonAccessibility``), for a pill `width` wide.
    func accessibilityModel(_ state: ConnectButtonVisualState, width: Double) -> ConnectButtonAccessibility {
        ConnectButtonAccessibility(
            state: state, serviceName: connection?.connectingService.shortName,
            fullServiceName: connection?.connectingService.name, localization: resolvedLocalization, width: width,
            showsFooter: showsFooter)
    }

    /// Posts the announcement of the state the button just entered, if it has one.
    func announce(_ state: ConnectButtonVisualState) {
        #if canImport(UIKit) && !os(watchOS)
        if let announcement = accessibilityModel(state, width: ConnectButtonGeometry.maximumWidth).announcement {
            UIAccessibility.post(notification: .announcement, argument: announcement)
        }
        #endif
    }
}

@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
extension Text {
    /// `string` as VoiceOver should speak it: in `language` (a BCP 47 identifier) from iOS 15, whose attributed
    /// text carries a language; before that in the device's language.
    static func spoken(_ string: String, language: String) -> Text {
        if #available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *) {
            var attributed = AttributedString(string)
            attributed.languageIdentifier = language
            return Text(attributed)
        }
        return Text(verbatim: string)
    }
}

@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
extension View {
    /// One accessibility element made of this view, as `element` describes it: its label, value, hint, traits and
    /// Voice Control phrases, children hidden, spoken in `language` (the texts follow the controller's locale, not
    /// the device's: VoiceOver reads them with that language's voice, as UIKit's `accessibilityLanguage` asks).
    /// Without an element (the pill in the email step) the view only contains its children's elements (the email
    /// field and the confirm button).
    func connectAccessibility(_ element: ConnectButtonAccessibility.Element?, language: String) -> some View {
        var traits: AccessibilityTraits = []
        for trait in element?.traits ?? [] {
            switch trait {
            case .button, .toggle: traits.formUnion(.isButton)
            case .selected: traits.formUnion(.isSelected)
            case .staticText: traits.formUnion(.isStaticText)
            case .updatesFrequently: traits.formUnion(.updatesFrequently)
            case .notEnabled, .textField: break
            }
        }
        return
            self
            .accessibilityElement(children: element == nil ? .contain : .ignore)
            .accessibilityLabel(Text.spoken(element?.label ?? "", language: language))
            .accessibilityValue(Text.spoken(element?.value ?? "", language: language))
            .accessibilityHint(Text.spoken(element?.hint ?? "", language: language))
            .accessibilityAddTraits(traits)
            .accessibilityInputLabels((element?.inputLabels ?? []).map { Text(verbatim: $0) })
            .disabled(element?.traits.contains(.notEnabled) ?? false)
    }

    /// The Large Content Viewer's item for the fixed-height pill (iOS 15 and later).
    @ViewBuilder
    func connectLargeContent(_ title: String) -> some View {
        if #available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *) {
            self.accessibilityShowsLargeContentViewer { Text(verbatim: title) }
        } else {
            self
        }
    }
}
#endif
