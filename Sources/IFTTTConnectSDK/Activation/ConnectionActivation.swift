import Foundation

/// A finished activation: the Connection, now enabled, and the IFTTT user token when IFTTT sent one.
///
/// Save ``userToken`` (for example in the Keychain) and return it from your
/// ``ConnectionCredentialProvider`` next time.
public struct ConnectionActivation: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The IFTTT user token for your service, when the redirect carried one.
    public let userToken: String?
    /// The Connection, with its status set to ``Connection/Status/enabled``.
    public let connection: Connection

    /// Creates an activation.
    ///
    /// - Parameters:
    ///   - userToken: The user token, if any.
    ///   - connection: The activated Connection.
    public init(userToken: String?, connection: Connection) {
        self.userToken = userToken
        self.connection = connection
    }

    /// Names the Connection and says whether a token is present, never its value.
    public var description: String {
        "ConnectionActivation(connection: \(connection.id), userToken: \(userToken == nil ? "none" : "<redacted>"))"
    }

    /// Keeps the token out of `dump` and reflection.
    public var customMirror: Mirror {
        Mirror(self, children: ["connection": connection.id, "hasUserToken": userToken != nil])
    }
}

/// Why an activation or deactivation did not finish.
///
/// Descriptions never contain a user token, a `state` value or an email address.
public enum ConnectButtonControllerError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// IFTTT could not create an account for the user (`next_step=error&error_type=account_creation`).
    case iftttAccountCreationFailed
    /// A Connect API request failed: the Connection, the user lookup or the disconnect.
    case networkError(ConnectionNetworkError)
    /// The user or the app cancelled the flow (closed the web session, or called
    /// ``ConnectButtonController/cancelActivation()``).
    case canceled
    /// The user cancelled on the configuration screen (`next_step=user_cancelled_configuration`).
    case userCancelledConfiguration
    /// The redirect reported an error this SDK does not know (`next_step=error` with another `error_type`).
    case unknownRedirect
    /// The web session ended in an unexpected way, or `/me` answered without a login.
    case unknownResponse
    /// The Connection could not be loaded, after the retries.
    case unableToGetConnection
    /// The IFTTT app could not be opened.
    case iftttAppRedirectFailed
    /// The email given to ``ConnectButtonController/connect(email:)`` is not one valid address.
    case invalidEmail
    /// The controller cannot start this now: the Connection is not loaded, or a flow is already running.
    case notReady
    /// The web session could not be shown because no presentation anchor was available.
    case presentationAnchorUnavailable

    /// A one-line description.
    public var description: String {
        switch self {
        case .iftttAccountCreationFailed: return "IFTTT could not create an account for the user"
        case .networkError(let error): return "A Connect API request failed: \(error)"
        case .canceled: return "The activation was cancelled"
        case .userCancelledConfiguration: return "The user cancelled the Connection's configuration"
        case .unknownRedirect: return "The activation ended with an error this SDK does not know"
        case .unknownResponse: return "The activation ended unexpectedly"
        case .unableToGetConnection: return "The Connection could not be loaded"
        case .iftttAppRedirectFailed: return "The IFTTT app could not be opened"
        case .invalidEmail: return "The email address is not valid"
        case .notReady: return "The Connect Button cannot start this now"
        case .presentationAnchorUnavailable: return "No window was available to show the activation page"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
