import Foundation

/// Where focus and the keyboard go when the Connect Button changes state: a pure function of the two states, which
/// UIKit maps to `becomeFirstResponder()`, `resignFirstResponder()` and a layout-change notification.
///
/// Entering the email step with no email suggested raises the keyboard (there is nothing to confirm yet), and
/// VoiceOver's focus moves to the email field that replaced the pill; confirming or leaving the step dismisses the
/// keyboard and moves focus back to the pill. The return key says what it does: it continues, as the confirm button.
struct ConnectButtonFocus: Sendable, Hashable {
    /// What happens to the keyboard.
    enum Keyboard: String, Sendable, Hashable {
        /// Nothing changes.
        case unchanged
        /// The email field becomes first responder.
        case raise
        /// The email field resigns first responder.
        case dismiss
    }

    /// What happens to the keyboard.
    let keyboard: Keyboard
    /// The element VoiceOver moves to with a layout-change notification, when the element it was on went away.
    let focus: ConnectButtonAccessibility.Element.Kind?

    /// The change from `previous` to `state`.
    init(from previous: ConnectButtonVisualState, to state: ConnectButtonVisualState) {
        switch (previous, state) {
        case (.enterEmail, .enterEmail):
            keyboard = .unchanged
            focus = nil
        case (_, .enterEmail(let email, _)):
            keyboard = email.isEmpty ? .raise : .unchanged
            focus = .emailField
        case (.enterEmail, _):
            keyboard = .dismiss
            focus = .button
        default:
            keyboard = .unchanged
            focus = nil
        }
    }
}
