// Seed README, "ConnectButtonControllerDelegate": the delegate methods, with a 2.8 app's exhaustive switches over
// ConnectButtonControllerError and ConnectionNetworkError.
import Foundation
import IFTTTConnectSDK

func message(for error: ConnectButtonControllerError) -> String {
    switch error {
    case .iftttAccountCreationFailed:
        return "Could not create your IFTTT account"
    case .networkError(let networkError):
        return message(for: networkError)
    case .canceled:
        return "Cancelled"
    case .userCancelledConfiguration:
        return "You cancelled the configuration"
    case .unknownRedirect:
        return "Unexpected redirect"
    case .unknownResponse:
        return "Unexpected response"
    case .unableToGetConnection:
        return "Could not load the Connection"
    case .iftttAppRedirectFailed:
        return "Could not open the IFTTT app"
    }
}

func message(for error: ConnectionNetworkError) -> String {
    switch error {
    case .genericError(let underlying):
        return "Network error: \(underlying.localizedDescription)"
    case .unknownResponse:
        return "Unknown response"
    }
}

/// What 2.8's internal network errors look like to an app that switches over them.
func message(for error: NetworkControllerError) -> String {
    switch error {
    case .exhaustedRetryAttempts: return "retries exhausted"
    case .invalidResponse: return "invalid response"
    case .unknownResponse: return "unknown response"
    case .cancelled: return "cancelled"
    case .authenticationFailure: return "authentication failure"
    case .invalidImageData: return "invalid image data"
    case .genericError(let error): return error.localizedDescription
    }
}

final class TokenStore {
    private(set) var token: String?
    func loginUser(with token: String) { self.token = token }
}

#if canImport(UIKit)
import UIKit

final class ConnectDelegateViewController: UIViewController, ConnectButtonControllerDelegate {
    let ourConnectionCredentials = TokenStore()

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
            // A Connection was activated and we received the user IFTTT token
            // Let's update our credential for this user
            if let token = activation.userToken {
                ourConnectionCredentials.loginUser(with: token)
            }

        case .failure(let error):
            print(message(for: error))
        }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {
        switch result {
        case .success(let updatedConnection):
            // The user disabled this Connection
            print(updatedConnection.status)

        case .failure(let error):
            // Something went wrong while disabling the Connection
            print(message(for: error))
        }
    }
}
#elseif os(Linux)
/// Without UIKit the delegate has only the two result methods.
final class HeadlessConnectDelegate: ConnectButtonControllerDelegate {
    let ourConnectionCredentials = TokenStore()

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>
    ) {
        switch result {
        case .success(let activation):
            if let token = activation.userToken {
                ourConnectionCredentials.loginUser(with: token)
            }
            print(activation.connection.name)
        case .failure(let error):
            print(message(for: error), error.apiError?.statusCode ?? -1)
        }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {
        switch result {
        case .success(let updatedConnection):
            print(updatedConnection.status)
        case .failure(let error):
            if case .networkError(let networkError) = error, networkError.isAuthenticationFailure {
                print("sign in again", networkError.apiError?.statusCode ?? -1)
            }
        }
    }
}
#endif
