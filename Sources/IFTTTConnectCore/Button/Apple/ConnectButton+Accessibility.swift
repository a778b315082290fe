#if canImport(UIKit) && !os(watchOS)
import UIKit

extension ConnectButton {
    /// The accessibility of what the button shows now (``ConnectButtonAccessibility`` for its state, service,
    /// localization and width).
    @_spi(Sandbox) public var accessibilityModel: ConnectButtonAccessibility {
        ConnectButtonAccessibility(
            state: visualState, serviceName: connection?.connectingService.shortName,
            fullServiceName: connection?.connectingService.name, localization: localization,
            width: appearance.geometry.width, showsFooter: showsFooter)
    }

    /// Maps ``accessibilityModel`` one to one onto UIKit: the button becomes a container of one accessibility
    /// element per model element (the email field is the real text field), placed over the element's 44-pt touch
    /// target; the fixed-height pill offers its text to the Large Content Viewer.
    func updateAccessibility() {
        let model = accessibilityModel
        let origin = CGPoint(x: max(0, (bounds.width - CGFloat(model.elements.first?.frame.width ?? 0)) / 2), y: 0)
        let reusable = (accessibilityElements ?? []).compactMap { $0 as? UIAccessibilityElement }
        isAccessibilityElement = false
        accessibilityElements = model.elements.map { element -> Any in
            let target = CGRect(element.touchTarget).offsetBy(dx: origin.x, dy: origin.y)
            if element.kind == .emailField {
                emailField.accessibilityLabel = element.label
                emailField.accessibilityHint = element.hint
                emailField.accessibilityLanguage = model.localization
                emailField.accessibilityUserInputLabels = element.inputLabels
                return emailField
            }
            let item =
                reusable.first { $0.accessibilityIdentifier == element.kind.rawValue }
                ?? UIAccessibilityElement(accessibilityContainer: self)
            item.accessibilityIdentifier = element.kind.rawValue
            item.accessibilityLabel = element.label
            item.accessibilityValue = element.value
            item.accessibilityHint = element.hint
            item.accessibilityTraits = UIAccessibilityTraits(element.traits)
            item.accessibilityUserInputLabels = element.inputLabels
            // The texts follow the controller's locale, not the device's: VoiceOver reads them with that voice.
            item.accessibilityLanguage = model.localization
            item.accessibilityFrameInContainerSpace = target
            return item
        }
        showsLargeContentViewer = true
        largeContentTitle = model.largeContent.title
        // The canvas is the view under the finger, so it is the large content viewer's item too.
        canvas.showsLargeContentViewer = true
        canvas.largeContentTitle = model.largeContent.title
        if !interactions.contains(where: { $0 is UILargeContentViewerInteraction }) {
            addInteraction(UILargeContentViewerInteraction())
        }
    }

    /// Posts the announcement of the state the button just entered, if it has one.
    func announceAccessibility() {
        guard let announcement = accessibilityModel.announcement else { return }
        UIAccessibility.post(notification: .announcement, argument: announcement)
    }
}

extension UIAccessibilityTraits {
    /// UIKit's traits for the model's: a toggle is UIKit's `toggleButton` from iOS 17 (before, a button whose value
    /// says whether it is on), a text field has no trait of its own (the real field is the element).
    init(_ traits: [ConnectButtonAccessibility.Trait]) {
        var result: UIAccessibilityTraits = []
        for trait in traits {
            switch trait {
            case .button: result.insert(.button)
            case .toggle:
                result.insert(.button)
                // iOS 17's `toggleButton` (VoiceOver says "switch button" and reads the selected state as on or
                // off). Its constant exists from the iOS 17 SDK on; the trait is bit 53 as UIKit defines it, so an
                // app built with an older SDK gets it too. Before iOS 17 the value carries the state.
                if #available(iOS 17.0, tvOS 17.0, *) { result.insert(UIAccessibilityTraits(rawValue: 1 << 53)) }
            case .selected: result.insert(.selected)
            case .notEnabled: result.insert(.notEnabled)
            case .updatesFrequently: result.insert(.updatesFrequently)
            case .staticText: result.insert(.staticText)
            case .textField: break
            }
        }
        self = result
    }
}
#endif
