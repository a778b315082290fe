// Seed README, "Localization": show the Connect Button in another locale; 2.8's localization logging hooks.
import Foundation
import IFTTTConnectSDK

struct LocalizationCredentials: ConnectionCredentialProvider {
    var oauthCode: String { return "" }
    var userToken: String? { return nil }
    var inviteCode: String? { return nil }
}

func setUpLocalizationLogging() {
    ConnectButtonController.localizationLoggingEnabled = true
    ConnectButtonController.localizationLoggingHandler = { message in
        print("IFTTT localization:", message)
    }
}

#if canImport(UIKit)
import UIKit

final class LocalizedViewController: UIViewController, ConnectButtonControllerDelegate {
    let connectButton = ConnectButton()
    var controller: ConnectButtonController?

    func show(connection: Connection) {
        let locale = Locale(identifier: "es-419")
        let config = ConnectionConfiguration(
            connection: connection,
            suggestedUserEmail: "alice@example.com",
            credentialProvider: LocalizationCredentials(),
            connectAuthorizationRedirectURL: URL(string: "groceryexpress://connect_callback")!)
        let controller = ConnectButtonController(
            connectButton: self.connectButton,
            connectionConfiguration: config,
            locale: locale,
            delegate: self)
        self.controller = controller
    }

    func presentingViewController(for connectButtonController: ConnectButtonController) -> UIViewController {
        return self
    }

    func webAuthenticationPresentationAnchor() -> UIWindow {
        return view.window ?? UIWindow()
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>
    ) {}

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {}
}
#endif

@MainActor
func makeLocalizedController(connection: Connection) -> ConnectButtonController {
    let locale = Locale(identifier: "es-419")
    let config = ConnectionConfiguration(
        connection: connection,
        suggestedUserEmail: "alice@example.com",
        credentialProvider: LocalizationCredentials(),
        connectAuthorizationRedirectURL: URL(string: "groceryexpress://connect_callback")!)
    let defaultLocale: Locale = ConnectButtonController.determineLocale()
    print(defaultLocale.identifier)
    return ConnectButtonController(
        connectButton: HeadlessConnectButton(),
        connectionConfiguration: config,
        locale: locale,
        delegate: nil)
}
