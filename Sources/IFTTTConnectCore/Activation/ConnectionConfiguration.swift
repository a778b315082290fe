import Foundation

/// Which Connection the Connect Button activates, for whom, and where IFTTT sends the user back.
///
/// ```swift
/// let configuration = ConnectionConfiguration(connectionId: "gx-arrive-store",
///                                             suggestedUserEmail: "user@example.com",
///                                             credentialProvider: credentials,
///                                             redirectURL: URL(string: "groceryexpress://ifttt/callback")!)
/// ```
public struct ConnectionConfiguration {
    /// The Connection's id.
    public let connectionId: String
    /// The Connection when it was fetched beforehand; the controller then skips loading.
    public let connection: Connection?
    /// The email your user has on your service, pre-filled in the email step.
    public let suggestedUserEmail: String
    /// The codes and tokens for IFTTT.
    public let credentialProvider: any ConnectionCredentialProvider
    /// The redirect URL registered on the IFTTT Platform: a custom scheme, a universal link, or a loopback
    /// `http://127.0.0.1:PORT/path` URL. It must have no query and no fragment.
    public let redirectURL: URL
    /// Whether IFTTT skips its configuration screen (`skip_config=true`); the user's Connection then stays
    /// pending until your backend updates it with the service key (`ConnectServiceClient.updateUserConnection(connectionId:userId:update:)`
    /// of the IFTTTConnectService product).
    public let skipConnectionConfiguration: Bool
    /// Which user token an activation may hand you. Default ``UserTokenTrust/vouched``: one your credential
    /// provider's ``ConnectionCredentialProvider/partnerBackend`` vouches for (or its ``ConnectionCredentialProvider/userToken``,
    /// or what your ``redirectUserVerifier`` accepts); with none of them a first activation finishes only through the
    /// app's own web session (a custom-scheme redirect URL), else fails at once with
    /// ``ConnectButtonControllerError/noPartnerBackend``. ``UserTokenTrust/unvouchedRedirectToken`` is the explicit
    /// choice of an app without a backend; read its warning first.
    public var userTokenTrust: UserTokenTrust = .vouched
    /// Whether a redirect without `state` is considered at all. Default ``RedirectStatePolicy/verifyWhenMissing``:
    /// it is checked like one with `state`. Set ``RedirectStatePolicy/required`` when you know your IFTTT server
    /// echoes `state`.
    public var redirectStatePolicy: RedirectStatePolicy = .verifyWhenMissing
    /// Your own check of the user an activation would finish with, run after the SDK's checks passed and before
    /// the flow accepts the redirect; return `false` to refuse it (the flow keeps waiting). Default `nil`.
    ///
    /// Without a ``ConnectionCredentialProvider/partnerBackend`` it is what vouches for the redirect's token: ask
    /// your backend which IFTTT user your signed-in user is linked to (`POST /v2/user_token` with your service
    /// key) and compare it with ``RedirectedUser/login``:
    ///
    /// ```swift
    /// configuration.redirectUserVerifier = { redirected in
    ///     await myBackend.iftttLogin(for: currentUser) == redirected.login
    /// }
    /// ```
    public var redirectUserVerifier: (@Sendable (RedirectedUser) async -> Bool)?

    /// Creates a configuration for a Connection the controller loads itself.
    ///
    /// - Parameters:
    ///   - connectionId: The Connection's id.
    ///   - suggestedUserEmail: The user's email on your service.
    ///   - credentialProvider: The codes and tokens for IFTTT.
    ///   - redirectURL: The redirect URL registered on the IFTTT Platform.
    ///   - skipConnectionConfiguration: Whether IFTTT skips its configuration screen; default `false`.
    public init(
        connectionId: String, suggestedUserEmail: String, credentialProvider: any ConnectionCredentialProvider,
        redirectURL: URL, skipConnectionConfiguration: Bool = false
    ) {
        self.connectionId = connectionId
        self.connection = nil
        self.suggestedUserEmail = suggestedUserEmail
        self.credentialProvider = credentialProvider
        self.redirectURL = redirectURL
        self.skipConnectionConfiguration = skipConnectionConfiguration
    }

    /// Creates a configuration for a Connection you fetched already; the button skips its loading step.
    ///
    /// - Parameters:
    ///   - connection: The Connection.
    ///   - suggestedUserEmail: The user's email on your service.
    ///   - credentialProvider: The codes and tokens for IFTTT.
    ///   - redirectURL: The redirect URL registered on the IFTTT Platform.
    ///   - skipConnectionConfiguration: Whether IFTTT skips its configuration screen; default `false`.
    public init(
        connection: Connection, suggestedUserEmail: String, credentialProvider: any ConnectionCredentialProvider,
        redirectURL: URL, skipConnectionConfiguration: Bool = false
    ) {
        self.connectionId = connection.id
        self.connection = connection
        self.suggestedUserEmail = suggestedUserEmail
        self.credentialProvider = credentialProvider
        self.redirectURL = redirectURL
        self.skipConnectionConfiguration = skipConnectionConfiguration
    }

    /// Creates a configuration for a Connection the controller loads itself, with the redirect URL under the
    /// label the ConnectSDK-iOS README uses; the same as ``init(connectionId:suggestedUserEmail:credentialProvider:redirectURL:skipConnectionConfiguration:)``.
    ///
    /// - Parameters:
    ///   - connectionId: The Connection's id.
    ///   - suggestedUserEmail: The user's email on your service.
    ///   - credentialProvider: The codes and tokens for IFTTT.
    ///   - connectAuthorizationRedirectURL: The redirect URL registered on the IFTTT Platform.
    ///   - skipConnectionConfiguration: Whether IFTTT skips its configuration screen; default `false`.
    public init(
        connectionId: String, suggestedUserEmail: String, credentialProvider: any ConnectionCredentialProvider,
        connectAuthorizationRedirectURL: URL, skipConnectionConfiguration: Bool = false
    ) {
        self.init(
            connectionId: connectionId, suggestedUserEmail: suggestedUserEmail, credentialProvider: credentialProvider,
            redirectURL: connectAuthorizationRedirectURL, skipConnectionConfiguration: skipConnectionConfiguration)
    }

    /// Creates a configuration for a Connection you fetched already, with the redirect URL under the label the
    /// ConnectSDK-iOS README uses; the same as ``init(connection:suggestedUserEmail:credentialProvider:redirectURL:skipConnectionConfiguration:)``.
    ///
    /// - Parameters:
    ///   - connection: The Connection.
    ///   - suggestedUserEmail: The user's email on your service.
    ///   - credentialProvider: The codes and tokens for IFTTT.
    ///   - connectAuthorizationRedirectURL: The redirect URL registered on the IFTTT Platform.
    ///   - skipConnectionConfiguration: Whether IFTTT skips its configuration screen; default `false`.
    public init(
        connection: Connection, suggestedUserEmail: String, credentialProvider: any ConnectionCredentialProvider,
        connectAuthorizationRedirectURL: URL, skipConnectionConfiguration: Bool = false
    ) {
        self.init(
            connection: connection, suggestedUserEmail: suggestedUserEmail, credentialProvider: credentialProvider,
            redirectURL: connectAuthorizationRedirectURL, skipConnectionConfiguration: skipConnectionConfiguration)
    }
}
