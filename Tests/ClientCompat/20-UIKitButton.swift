// 2.8 client code for the UIKit Connect Button, as the 2.8 README shows it: a ConnectButton from a storyboard or
// `ConnectButton()`, its style, the controller built from it, `controller.button`, the 2.8 delegate with
// `presentingViewController(for:)` and a `UIWindow` anchor, and `Service.brandColor` as a `UIColor`.
// Compiled by scripts/check-apple.sh against the Apple stubs, in Swift 5 and Swift 6 modes.
import Foundation
import IFTTTConnectSDK
#if canImport(UIKit)
import UIKit

final class UIKitButton28ViewController: UIViewController, ConnectButtonControllerDelegate {
    var connectButton: ConnectButton!
    private var connectButtonController: ConnectButtonController?

    override func viewDidLoad() {
        super.viewDidLoad()
        let button = ConnectButton()
        button.style = .dynamic
        let framed = ConnectButton(frame: CGRect(x: 0, y: 0, width: 329, height: 70))
        framed.style = .dark
        let style: ConnectButton.Style = .light
        framed.style = style
        view.addSubview(button)
        connectButton = button

        let configuration = ConnectionConfiguration(
            connectionId: "gx-arrive-store",
            suggestedUserEmail: "alice@example.com",
            credentialProvider: ConnectionCredentials(oauthCode: "code"),
            redirectURL: URL(string: "groceryexpress://ifttt")!)
        let controller = ConnectButtonController(
            connectButton: self.connectButton,
            connectionConfiguration: configuration,
            delegate: self)
        let sameButton: ConnectButton = controller.button
        precondition(sameButton === connectButton)
        connectButtonController = controller
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
    ) {
        if case .success(let activation) = result, let token = activation.userToken {
            print(token.isEmpty)
        }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {}
}

/// `Service.brandColor` is a `UIColor` on UIKit, as in 2.8.
func uikitButton28BackgroundColor(for connection: Connection) -> UIColor {
    let service: Connection.Service = connection.services[0]
    return service.brandColor
}
#endif
