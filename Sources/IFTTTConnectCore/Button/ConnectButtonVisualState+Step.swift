import Foundation

extension ConnectButtonVisualState {
    /// The look of an activation flow step: the pure mapping from the controller's ``ConnectButtonStep`` to
    /// what the button shows. `email` is the address the user typed or was suggested (shown in the email
    /// field and in the "creating account" footer).
    @_spi(Sandbox) public init(step: ConnectButtonStep, email: String) {
        switch step {
        case .loading: self = .loading
        case .loadingFailed: self = .loadingFailed
        case .initial: self = .connect
        case .enterEmail(let invalid): self = .enterEmail(email: email, isInvalid: invalid)
        case .verifyingUser: self = .verifying
        case .creatingAccount: self = .creatingAccount(email: email)
        case .continueToService: self = .continueToService
        case .appHandoff, .waitingForRedirect: self = .connecting
        case .activationComplete: self = .checkmark
        case .connected: self = .connected
        case .disconnecting: self = .disconnecting
        case .disconnected: self = .disconnected
        }
    }
}
