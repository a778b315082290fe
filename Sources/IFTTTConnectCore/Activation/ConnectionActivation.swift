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
/// The cases are exactly those of ConnectSDK-iOS 2.8, so a 2.8 app's exhaustive `switch` compiles. Detail
/// that 2.8 did not have travels inside ``networkError(_:)-enum.case`` (a ``ConnectionNetworkError`` carrying a
/// ``ConnectAPIError``) and is readable with ``apiError``. Descriptions never contain a user token, a `state`
/// value or an email address.
public enum ConnectButtonControllerError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// IFTTT could not create an account for the user (`next_step=error&error_type=account_creation`).
    case iftttAccountCreationFailed
    /// A Connect API request failed (the Connection, the user lookup or the disconnect), or a request could
    /// not be made (see ``invalidEmail`` and ``notReady``).
    case networkError(ConnectionNetworkError)
    /// The user or the app cancelled the flow (closed the web session, or called
    /// ``ConnectButtonController/cancelActivation()``).
    case canceled
    /// The user cancelled on the configuration screen (`next_step=user_cancelled_configuration`).
    case userCancelledConfiguration
    /// The redirect reported an error this SDK does not know (`next_step=error` with another `error_type`).
    case unknownRedirect
    /// The web session ended in an unexpected way (including when no window was available to show it), or
    /// `/me` answered without a login.
    case unknownResponse
    /// The Connection could not be loaded, after the retries.
    case unableToGetConnection
    /// The IFTTT app could not be opened.
    case iftttAppRedirectFailed

    /// A Connect API failure given as the detailed error.
    ///
    /// - Parameter error: The detailed error.
    /// - Returns: ``networkError(_:)-enum.case`` carrying it.
    public static func networkError(_ error: ConnectAPIError) -> ConnectButtonControllerError {
        .networkError(ConnectionNetworkError(error))
    }

    /// The email given to ``ConnectButtonController/connect(email:)`` is not one valid address: a
    /// ``networkError(_:)-enum.case`` whose ``apiError`` is ``ConnectAPIError/invalidRequest(_:)``, since the account
    /// lookup cannot be made with it.
    public static let invalidEmail = ConnectButtonControllerError.networkError(
        ConnectAPIError.invalidRequest(ConnectButtonControllerError.invalidEmailReason))

    /// ``ConnectButtonController/connect(email:)`` or ``ConnectButtonController/disconnect()`` cannot start
    /// now (the Connection is not loaded, already in the other state, or a flow is running): a
    /// ``networkError(_:)-enum.case`` whose ``apiError`` is ``ConnectAPIError/invalidRequest(_:)``.
    public static let notReady = ConnectButtonControllerError.networkError(
        ConnectAPIError.invalidRequest(ConnectButtonControllerError.notReadyReason))

    /// Nothing can vouch for the user token a first activation would hand you: the credential provider has neither
    /// a ``ConnectionCredentialProvider/partnerBackend`` nor a user token, no
    /// ``ConnectionConfiguration/redirectUserVerifier`` is set, and ``ConnectionConfiguration/userTokenTrust`` is
    /// ``UserTokenTrust/vouched``. The activation fails before anything opens: a
    /// ``networkError(_:)-enum.case`` whose ``apiError`` is ``ConnectAPIError/invalidRequest(_:)``. Give the
    /// provider your backend (see <doc:Activation>), or choose ``UserTokenTrust/unvouchedRedirectToken``.
    public static let noPartnerBackend = ConnectButtonControllerError.networkError(
        ConnectAPIError.invalidRequest(ConnectButtonControllerError.noPartnerBackendReason))

    static let invalidEmailReason = "the email address is not valid"
    static let notReadyReason = "the Connect Button cannot start this now"
    static let noPartnerBackendReason = "no partner backend vouches for the user token"

    /// The detailed error inside ``networkError(_:)-enum.case``, when there is one.
    public var apiError: ConnectAPIError? {
        guard case .networkError(let error) = self else { return nil }
        return error.apiError
    }

    /// A one-line description.
    public var description: String {
        switch self {
        case .iftttAccountCreationFailed: return "IFTTT could not create an account for the user"
        case .networkError(let error):
            switch error.apiError {
            case .invalidRequest(Self.invalidEmailReason)?: return "The email address is not valid"
            case .invalidRequest(Self.notReadyReason)?: return "The Connect Button cannot start this now"
            case .invalidRequest(Self.noPartnerBackendReason)?:
                return "No partner backend vouches for the user token: give the credential provider a partnerBackend, "
                    + "or set ConnectionConfiguration.userTokenTrust"
            default: return "A Connect API request failed: \(error)"
            }
        case .canceled: return "The activation was cancelled"
        case .userCancelledConfiguration: return "The user cancelled the Connection's configuration"
        case .unknownRedirect: return "The activation ended with an error this SDK does not know"
        case .unknownResponse: return "The activation ended unexpectedly"
        case .unableToGetConnection: return "The Connection could not be loaded"
        case .iftttAppRedirectFailed: return "The IFTTT app could not be opened"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
