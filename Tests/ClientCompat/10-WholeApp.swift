// A whole small 2.8 app in one file, as the 2.8 Grocery Express example is organised: credentials kept in a
// class, redirect forwarding, analytics preference and localization logging at launch, and a screen that
// fetches its Connection and creates the ConnectButtonController inside the completion.
import Foundation
import IFTTTConnectSDK

final class AppCredentials: ConnectionCredentialProvider {
    @MainActor static let shared = AppCredentials()
    private(set) var userToken: String?
    var oauthCode: String { return "gx-oauth-code-alice" }
    var inviteCode: String? { return nil }

    func loginUser(with token: String) { userToken = token }
    func logout() { userToken = nil }
}

enum AppSettings {
    static let redirectURL = URL(string: "groceryexpress://connect_callback")!
    static let connectionId = "gx-arrive-store"
    static let email = "alice@example.com"
}

func launchConnectSDK(allowsAnalytics: Bool) -> ConnectionRedirectHandler {
    ConnectButtonController.analyticsEnabled = allowsAnalytics
    ConnectButtonController.localizationLoggingEnabled = false
    return ConnectionRedirectHandler(redirectURL: AppSettings.redirectURL)
}

func userMessage(for error: ConnectButtonControllerError) -> String? {
    switch error {
    case .canceled, .userCancelledConfiguration:
        return nil
    case .iftttAccountCreationFailed, .unknownRedirect, .unknownResponse, .unableToGetConnection,
        .iftttAppRedirectFailed:
        return "Something went wrong. Please try again."
    case .networkError(let networkError):
        switch networkError {
        case .genericError:
            return networkError.isAuthenticationFailure ? "Please sign in again." : "Check your connection."
        case .unknownResponse:
            return "Something went wrong. Please try again."
        }
    }
}

#if canImport(UIKit)
import UIKit

final class WholeAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    var redirectHandler: ConnectionRedirectHandler?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        redirectHandler = launchConnectSDK(allowsAnalytics: UserDefaults.standard.bool(forKey: "analytics"))
        return true
    }

    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool
    {
        return redirectHandler?.handleApplicationRedirect(url: url, options: options) ?? false
    }
}

final class ConnectionViewController: UIViewController, ConnectButtonControllerDelegate {
    private let connectButton = ConnectButton()
    private let networkController = ConnectionNetworkController()
    private var connectButtonController: ConnectButtonController?

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(connectButton)
        let request = Connection.Request.fetchConnection(
            for: AppSettings.connectionId, credentialProvider: AppCredentials.shared)
        networkController.start(request: request) { response in
            switch response.result {
            case .success(let connection):
                let configuration = ConnectionConfiguration(
                    connection: connection,
                    suggestedUserEmail: AppSettings.email,
                    credentialProvider: AppCredentials.shared,
                    redirectURL: AppSettings.redirectURL)
                self.connectButtonController = ConnectButtonController(
                    connectButton: self.connectButton,
                    connectionConfiguration: configuration,
                    delegate: self)
            case .failure:
                let configuration = ConnectionConfiguration(
                    connectionId: AppSettings.connectionId,
                    suggestedUserEmail: AppSettings.email,
                    credentialProvider: AppCredentials.shared,
                    redirectURL: AppSettings.redirectURL)
                self.connectButtonController = ConnectButtonController(
                    connectButton: self.connectButton,
                    connectionConfiguration: configuration,
                    delegate: self)
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
    ) {
        switch result {
        case .success(let activation):
            if let token = activation.userToken { AppCredentials.shared.loginUser(with: token) }
        case .failure(let error):
            if let text = userMessage(for: error) { print(text) }
        }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {
        if case .failure(let error) = result, let text = userMessage(for: error) { print(text) }
    }
}
#endif
