// Seed README, "Advanced / Fetching a Connection": fetch with ConnectionNetworkController and create the
// ConnectButtonController inside the completion.
import Foundation
import IFTTTConnectSDK

struct FetchCredentials: ConnectionCredentialProvider {
    var oauthCode: String { return "gx-oauth-code-alice" }
    var userToken: String? { return "sandbox-user-token-alice" }
    var inviteCode: String? { return nil }
}

#if canImport(UIKit)
import UIKit

final class FetchingViewController: UIViewController, ConnectButtonControllerDelegate {
    let connectButton = ConnectButton()
    let connectionNetworkController = ConnectionNetworkController()
    var connectButtonController: ConnectButtonController?
    let yourCredentialProvider = FetchCredentials()
    let yourUsersEmail = "alice@example.com"
    let theRedirectURLForYourIFTTTService = URL(string: "groceryexpress://connect_callback")!

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(connectButton)
        fetch(id: "gx-arrive-store")
    }

    func fetch(id: String) {
        connectionNetworkController.start(
            request: .fetchConnection(for: id, credentialProvider: yourCredentialProvider)
        ) { response in
            switch response.result {
            case .success(let connection):
                let config = ConnectionConfiguration(
                    connection: connection,
                    suggestedUserEmail: self.yourUsersEmail,
                    credentialProvider: self.yourCredentialProvider,
                    connectAuthorizationRedirectURL: self.theRedirectURLForYourIFTTTService)

                let controller = ConnectButtonController(
                    connectButton: self.connectButton,
                    connectionConfiguration: config,
                    delegate: self)

                self.connectButtonController = controller
            case .failure(let error):
                print(response.statusCode, error)
            }
        }
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

/// The same pattern from a main-actor screen object without UIKit (a headless button).
@MainActor
final class FetchingScreen {
    let connectButton = HeadlessConnectButton()
    let connectionNetworkController = ConnectionNetworkController()
    var connectButtonController: ConnectButtonController?
    let yourCredentialProvider = FetchCredentials()

    func fetch(id: String) {
        connectionNetworkController.start(
            request: .fetchConnection(for: id, credentialProvider: yourCredentialProvider)
        ) { response in
            switch response.result {
            case .success(let connection):
                let config = ConnectionConfiguration(
                    connection: connection,
                    suggestedUserEmail: "alice@example.com",
                    credentialProvider: self.yourCredentialProvider,
                    redirectURL: URL(string: "groceryexpress://connect_callback")!)
                self.connectButtonController = ConnectButtonController(
                    connectButton: self.connectButton,
                    connectionConfiguration: config,
                    delegate: nil)
            case .failure(let error):
                let status: Int = response.statusCode
                print(status, error.apiError?.statusCode ?? -1)
            }
        }
    }

    func fetchWithURLRequest(id: String) {
        let request = Connection.Request.fetchConnection(for: id, credentialProvider: yourCredentialProvider)
        connectionNetworkController.start(urlRequest: request.urlRequest) { response in
            if case .success(let connection) = response.result {
                print(connection.name, response.statusCode)
            }
        }
    }
}

/// Calling from code that is not on the main actor compiles as well; the completion still runs on the main actor.
func fetchFromAnywhere(_ controller: ConnectionNetworkController) {
    controller.start(request: .fetchConnection(for: "gx-weekly-deals", credentialProvider: FetchCredentials())) {
        response in
        print(response.statusCode)
    }
}
