import Foundation

/// What the user does with the Connect Button.
@_spi(Sandbox) public enum ConnectButtonAction: Sendable, Hashable {
    /// Tapped or dragged the knob: connect, or disconnect when connected.
    case toggle
    /// Confirmed the email field (return key or confirm button) with this text.
    case confirmEmail(String)
    /// Tapped the footer: retries loading after a failure.
    case footerTapped
}

/// Whatever shows the Connect Button on the platform. ``ConnectButtonController`` tells it what to show and
/// receives the user's actions through `actionHandler`; it never depends on a UI framework.
///
/// After each step, and when the service icon has loaded, the controller also hands the presenter the whole
/// `ConnectButtonAppearance` (texts in the controller's locale, colours, icon, progress, knob, sizes, layout
/// direction), computed for the `appearanceEnvironment` the presenter reports.
///
/// The SDK's presenters are the UIKit `ConnectButton`, the SwiftUI `ConnectFlowButton`'s model and
/// ``HeadlessConnectButton``; apps pass one of them to the controller. The protocol is part of the Sandbox SPI,
/// for the sandbox's tools and tests that draw or record the button themselves.
@MainActor
@_spi(Sandbox) public protocol ConnectButtonPresenting: AnyObject {
    /// Set by the controller; call it with each user action.
    var actionHandler: (@MainActor (ConnectButtonAction) -> Void)? { get set }
    /// Shows `step` for `connection` (nil while loading).
    ///
    /// - Parameters:
    ///   - step: What to show.
    ///   - connection: The Connection, once loaded.
    ///   - suggestedEmail: The email to pre-fill in ``ConnectButtonStep/enterEmail(invalid:)``.
    func show(_ step: ConnectButtonStep, connection: Connection?, suggestedEmail: String)
    /// What the host decides about the look (style, light or dark mode, width, text size, layout direction);
    /// the controller computes the appearance for it.
    var appearanceEnvironment: ConnectButtonEnvironment { get }
    /// Draws `appearance`: everything the button shows now. Called after ``show(_:connection:suggestedEmail:)``
    /// and whenever the appearance changes without a new step (the service icon loaded).
    ///
    /// - Parameter appearance: What to draw.
    func show(_ appearance: ConnectButtonAppearance)
}

/// A Connect Button with no UI, for programs without one (command-line tools, servers, tests): give it to
/// ``ConnectButtonController`` and drive the flow with the controller's methods, such as
/// ``ConnectButtonController/connect(email:)``.
@MainActor
public final class HeadlessConnectButton {
    /// Set by the controller.
    @_spi(Sandbox) public var actionHandler: (@MainActor (ConnectButtonAction) -> Void)?
    /// The last step shown.
    @_spi(Sandbox) public private(set) var step: ConnectButtonStep = .loading
    /// Every step shown, in order (repeated steps once).
    @_spi(Sandbox) public private(set) var history: [ConnectButtonStep] = []
    /// The last appearance the controller handed over: exactly what the UIKit button would draw.
    @_spi(Sandbox) public private(set) var appearance: ConnectButtonAppearance?
    /// Every appearance handed over, in order (repeated ones once).
    @_spi(Sandbox) public private(set) var appearances: [ConnectButtonAppearance] = []
    /// The host environment this button reports to the controller.
    @_spi(Sandbox) public var appearanceEnvironment: ConnectButtonEnvironment
    /// Callers of ``appearance(where:)`` waiting for a matching appearance.
    private var waiters:
        [(
            condition: (ConnectButtonAppearance) -> Bool,
            continuation: CheckedContinuation<ConnectButtonAppearance, Never>
        )] = []

    /// Creates a headless button.
    ///
    /// - Parameter environment: The host environment to report.
    @_spi(Sandbox) public init(environment: ConnectButtonEnvironment) {
        appearanceEnvironment = environment
    }

    /// Creates a headless button that reports the standard host environment (the light style, 360 points wide).
    public init() {
        appearanceEnvironment = ConnectButtonEnvironment()
    }

    /// Records `step`.
    ///
    /// - Parameters:
    ///   - step: What to show.
    ///   - connection: Ignored.
    ///   - suggestedEmail: Ignored.
    @_spi(Sandbox) public func show(_ step: ConnectButtonStep, connection: Connection?, suggestedEmail: String) {
        if history.last != step { history.append(step) }
        self.step = step
    }

    /// Records `appearance`.
    ///
    /// - Parameter appearance: What the button would draw.
    @_spi(Sandbox) public func show(_ appearance: ConnectButtonAppearance) {
        if appearances.last != appearance { appearances.append(appearance) }
        self.appearance = appearance
        let ready = waiters.filter { $0.condition(appearance) }
        waiters.removeAll { $0.condition(appearance) }
        for waiter in ready { waiter.continuation.resume(returning: appearance) }
    }

    /// Waits until the button shows an appearance for which `condition` holds, such as a loaded service icon;
    /// returns the current one at once when it already does.
    ///
    /// - Parameter condition: What to wait for.
    /// - Returns: The first appearance that satisfies `condition`.
    @_spi(Sandbox) public func appearance(where condition: @escaping (ConnectButtonAppearance) -> Bool) async
        -> ConnectButtonAppearance
    {
        if let appearance, condition(appearance) { return appearance }
        return await withCheckedContinuation { waiters.append((condition, $0)) }
    }

    /// Acts as the user.
    ///
    /// - Parameter action: The action to send to the controller.
    @_spi(Sandbox) public func perform(_ action: ConnectButtonAction) {
        actionHandler?(action)
    }
}

@_spi(Sandbox) extension HeadlessConnectButton: ConnectButtonPresenting {}
