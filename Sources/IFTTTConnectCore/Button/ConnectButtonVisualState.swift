import Foundation

/// What the Connect Button shows: one case per visual state of the button, independent of how the
/// activation flow got there.
///
/// `ConnectButtonAppearance`'s initializer
/// turns a state into everything a renderer draws.
@_spi(Sandbox) public enum ConnectButtonVisualState: Sendable, Hashable {
    /// The Connection is loading; the label pulses.
    case loading
    /// The Connection could not be loaded; the footer offers a retry.
    case loadingFailed
    /// Ready to connect: the knob, with the service's icon, sits on the left.
    case connect
    /// The knob slid right; the pill takes the service's colour while the flow starts.
    case slideToConnect
    /// The email step: an email field and a confirm button. `isInvalid` shows the invalid-email footer.
    case enterEmail(email: String, isInvalid: Bool)
    /// The user's account is being looked up.
    case verifying
    /// A new IFTTT account will be set up for `email`.
    case creatingAccount(email: String)
    /// The web flow is about to open on the service's page.
    case continueToService
    /// The user came back from the web flow; the Connection is being turned on.
    case connecting
    /// The Connection is on: a checkmark is drawn.
    case checkmark
    /// The Connection is on: the knob sits on the right.
    case connected
    /// The Connection is being turned off.
    case disconnecting
    /// The Connection was turned off.
    case disconnected

    /// One example of every state, in flow order (used by galleries, snapshots and benchmarks).
    @_spi(Sandbox) public static let allExamples: [ConnectButtonVisualState] = [
        .loading, .loadingFailed, .connect, .slideToConnect, .enterEmail(email: "jane@example.com", isInvalid: false),
        .enterEmail(email: "jane@", isInvalid: true), .verifying, .creatingAccount(email: "jane@example.com"),
        .continueToService, .connecting, .checkmark, .connected, .disconnecting, .disconnected,
    ]

    /// A short, file-name-safe name, such as `"enter-email"` or `"enter-email-invalid"`.
    @_spi(Sandbox) public var name: String {
        switch self {
        case .loading: return "loading"
        case .loadingFailed: return "loading-failed"
        case .connect: return "connect"
        case .slideToConnect: return "slide-to-connect"
        case .enterEmail(_, let invalid): return invalid ? "enter-email-invalid" : "enter-email"
        case .verifying: return "verifying"
        case .creatingAccount: return "creating-account"
        case .continueToService: return "continue-to-service"
        case .connecting: return "connecting"
        case .checkmark: return "checkmark"
        case .connected: return "connected"
        case .disconnecting: return "disconnecting"
        case .disconnected: return "disconnected"
        }
    }
}
