import Combine
import IFTTTConnectSDK
import SwiftUI
import UIKit

/// Drives a `ConnectButtonView` from a `ConnectButtonController`: the controller shows its steps here, SwiftUI
/// redraws the view, and the view's taps go back to the controller. An `ObservableObject` (not `@Observable`,
/// which needs iOS 17), so the app runs on iOS 16.
@MainActor
final class ConnectButtonModel: ObservableObject, ConnectButtonPresenting, ConnectButtonControllerDelegate {
    @Published private(set) var state: ConnectButtonVisualState = .loading
    @Published private(set) var connection: Connection?
    @Published private(set) var lastError: String?
    var actionHandler: (@MainActor @Sendable (ConnectButtonAction) -> Void)?
    private var controller: ConnectButtonController?
    private var typedEmail = ""

    init(configuration: ConnectionConfiguration) {
        controller = ConnectButtonController(
            connectButton: self, connectionConfiguration: configuration, delegate: self)
    }

    func show(_ step: ConnectButtonStep, connection: Connection?, suggestedEmail: String) {
        if let connection { self.connection = connection }
        state = ConnectButtonVisualState(step: step, email: typedEmail.isEmpty ? suggestedEmail : typedEmail)
    }

    func tap() { actionHandler?(.toggle) }

    func confirm(email: String) {
        typedEmail = email
        actionHandler?(.confirmEmail(email))
    }

    func footerTapped(_ action: ConnectButtonAppearance.Footer.Action) {
        if action == .retry { actionHandler?(.footerTapped) }
    }

    // MARK: ConnectButtonControllerDelegate

    func presentingViewController(for connectButtonController: ConnectButtonController) -> UIViewController {
        keyWindow?.rootViewController ?? UIViewController()
    }

    func webAuthenticationPresentationAnchor() -> UIWindow {
        keyWindow ?? UIWindow()
    }

    /// The window SwiftUI shows the app in.
    private var keyWindow: UIWindow? {
        let windows = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }.flatMap(\.windows)
        return windows.first(where: \.isKeyWindow) ?? windows.first
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>
    ) {
        switch result {
        case .success(let activation):
            GroceryExpressCredentials.save(userToken: activation.userToken)
            ConnectButtonController.update(with: GroceryExpressCredentials())
            ConnectButtonController.activate(connections: [activation.connection.id])
            lastError = nil
        case .failure(let error):
            lastError = "\(error)"
        }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {
        if case .failure(let error) = result { lastError = "\(error)" }
    }
}
