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
    @_spi(Sandbox) public init(userToken: String?, connection: Connection) {
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
    /// The redirect cannot be used: it reported an error this SDK does not know (`next_step=error` with another
    /// `error_type`), or nothing would vouch for the token it carries (``noPartnerBackend``; the log says which).
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
    @_spi(Sandbox) public static func networkError(_ error: ConnectAPIError) -> ConnectButtonControllerError {
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

    /// Nothing can vouch for the user token a first activation would hand you, and no channel binds it to the flow:
    /// the credential provider has neither a ``ConnectionCredentialProvider/partnerBackend`` nor a user token, no
    /// ``ConnectionConfiguration/redirectUserVerifier`` is set, ``ConnectionConfiguration/userTokenTrust`` is
    /// ``UserTokenTrust/vouched``, and the redirect URL is an `http` or `https` URL, which reaches the app through a
    /// path other programs can write to (a universal link, a loopback receiver) instead of the app's own web
    /// session. The activation fails before anything opens.
    ///
    /// It is ``unknownRedirect`` (2.8's case for "the redirect cannot be used"), so a 2.8 `switch` shows it as an
    /// unknown error, never as a network error; the controller's log names the fix when it is created and again at
    /// the tap. A redirect URL with the app's own scheme (`groceryexpress://...`) needs no voucher: the app's web
    /// session catches it (see <doc:Activation>). Otherwise give the provider your backend
    /// (<doc:MigratingFrom28#A-first-activation-without-a-partner-backend>).
    public static let noPartnerBackend = ConnectButtonControllerError.unknownRedirect

    static let invalidEmailReason = "the email address is not valid"
    static let notReadyReason = "the Connect Button cannot start this now"

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
            default: return "A Connect API request failed: \(error)"
            }
        case .canceled: return "The activation was cancelled"
        case .userCancelledConfiguration: return "The user cancelled the Connection's configuration"
        case .unknownRedirect:
            return "The activation's redirect cannot be used: IFTTT named an error this SDK does not know, or nothing "
                + "vouches for the token it would carry (the log says which)"
        case .unknownResponse: return "The activation ended unexpectedly"
        case .unableToGetConnection: return "The Connection could not be loaded"
        case .iftttAppRedirectFailed: return "The IFTTT app could not be opened"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
