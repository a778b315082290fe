import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The SDK's ``ConnectButtonAccessibility`` as ARIA, laid over a button's SVG on the playground pages (template
/// `playground-accessibility`): one transparent element per model element, placed over its touch target, so a
/// browser's accessibility tree carries what VoiceOver gets on iOS.
///
/// The mapping, one to one: a `toggle` is `role="switch"` (`aria-checked` from `selected`), a `button` a
/// `<button>`, a `textField` an `<input type="email">` whose value is the model's value, `staticText` plain text;
/// `notEnabled` is `aria-disabled="true"`; the label is the accessible name (`aria-label`); the value (of a switch)
/// and the hint are the accessible description (`aria-describedby`, in that order, since ARIA has no value for a
/// switch); the announcement is the text of a `role="status"` live region.
struct PlaygroundAccessibility {
    /// One ARIA element.
    struct Element {
        let id: String
        let label: String
        let value: String?
        let hint: String?
        let isSwitch: Bool
        let isButton: Bool
        let isTextbox: Bool
        let isStatic: Bool
        let checked: String
        let disabled: Bool
        /// `left/top/width/height` of the touch target, in CSS pixels, relative to the SVG's top left.
        let style: String
        /// The ids the description is made of.
        let describedBy: String
    }

    let id: String
    let state: String
    let elements: [Element]
    let announcement: String

    /// The ARIA of `model`, for an SVG drawn with `padding` points around the button; ids start with `id`.
    init(_ model: ConnectButtonAccessibility, id: String, padding: Double = 16) {
        self.id = id
        state = model.state.name
        announcement = model.announcement ?? ""
        elements = model.elements.enumerated().map { index, element in
            let t = element.touchTarget
            let isSwitch = element.traits.contains(.toggle)
            let isTextbox = element.traits.contains(.textField)
            let own = "\(id)-\(index)"
            var described: [String] = []
            if isSwitch, element.value != nil { described.append("\(own)-value") }
            if element.hint != nil { described.append("\(own)-hint") }
            func px(_ value: Double) -> String { String(format: "%.1fpx", value) }
            return Element(
                id: own, label: element.label, value: element.value, hint: element.hint, isSwitch: isSwitch,
                isButton: !isSwitch && element.traits.contains(.button), isTextbox: isTextbox,
                isStatic: element.traits.contains(.staticText),
                checked: element.traits.contains(.selected) ? "true" : "false",
                disabled: element.traits.contains(.notEnabled),
                style: "left:\(px(padding + t.x));top:\(px(padding + t.y));width:\(px(t.width));height:\(px(t.height))",
                describedBy: described.joined(separator: " "))
        }
    }
}
