import Foundation

/// What the user does with the Connect Button.
public enum ConnectButtonAction: Sendable, Hashable {
    /// Tapped or dragged the knob: connect, or disconnect when connected.
    case toggle
    /// Confirmed the email field (return key or confirm button) with this text.
    case confirmEmail(String)
    /// Tapped the footer: retries loading after a failure.
    case footerTapped
}

/// Whatever shows the Connect Button on the platform. ``ConnectButtonController`` tells it what to show and
/// receives the user's actions through ``actionHandler``; it never depends on a UI framework.
///
/// ``HeadlessConnectButton`` shows nothing, for command-line programs and tests.
@MainActor
public protocol ConnectButtonPresenting: AnyObject {
    /// Set by the controller; call it with each user action.
    var actionHandler: (@MainActor (ConnectButtonAction) -> Void)? { get set }
    /// Shows `step` for `connection` (nil while loading).
    ///
    /// - Parameters:
    ///   - step: What to show.
    ///   - connection: The Connection, once loaded.
    ///   - suggestedEmail: The email to pre-fill in ``ConnectButtonStep/enterEmail(invalid:)``.
    func show(_ step: ConnectButtonStep, connection: Connection?, suggestedEmail: String)
}

/// A Connect Button with no UI: it remembers what it was told to show, and ``perform(_:)`` acts as the user.
@MainActor
public final class HeadlessConnectButton: ConnectButtonPresenting {
    /// Set by the controller.
    public var actionHandler: (@MainActor (ConnectButtonAction) -> Void)?
    /// The last step shown.
    public private(set) var step: ConnectButtonStep = .loading
    /// Every step shown, in order (repeated steps once).
    public private(set) var history: [ConnectButtonStep] = []

    /// Creates a headless button.
    public init() {}

    /// Records `step`.
    ///
    /// - Parameters:
    ///   - step: What to show.
    ///   - connection: Ignored.
    ///   - suggestedEmail: Ignored.
    public func show(_ step: ConnectButtonStep, connection: Connection?, suggestedEmail: String) {
        if history.last != step { history.append(step) }
        self.step = step
    }

    /// Acts as the user.
    ///
    /// - Parameter action: The action to send to the controller.
    public func perform(_ action: ConnectButtonAction) {
        actionHandler?(action)
    }
}
