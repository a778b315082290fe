import Foundation

/// Supplies the codes and tokens the SDK needs to talk to IFTTT for your user.
///
/// ```swift
/// struct Credentials: ConnectionCredentialProvider {
///     var oauthCode: String { myBackend.oauthCodeForIFTTT }
///     var userToken: String? { keychain["ifttt_user_token"] }
///     var inviteCode: String? { nil }   // only for unpublished services
/// }
/// ```
///
/// As in ConnectSDK-iOS 2.8 the protocol does not require `Sendable`, so a class that holds a mutable token
/// conforms in Swift 6 mode too. The SDK reads the values where it needs them (the Connect Button's
/// controller on the main actor, each request when it is made) and keeps only those copies
/// (``ConnectionCredentials/init(snapshotOf:)``), never the provider, across threads.
///
/// **The activation's token comes from what your backend vouches for.** Give the provider a
/// ``partnerBackend`` (it has a default, `nil`, so 2.8 providers compile unchanged): after IFTTT redirects back,
/// the Connect Button asks it which IFTTT user token belongs to your signed-in user and hands you that token,
/// whatever token the redirect carried. Without one, a first activation (no ``userToken`` yet) finishes only
/// through the app's own web session, whose callback no other app or page can write (the IFTTT app hand-off and
/// email links are not used), or fails with ``ConnectButtonControllerError/noPartnerBackend`` when the redirect URL
/// is `http(s)`; see <doc:Activation>.
///
/// ```swift
/// final class Credentials: ConnectionCredentialProvider {
///     var oauthCode: String { session.iftttOAuthCode }
///     var userToken: String? { keychain["ifttt_user_token"] }
///     var inviteCode: String? { nil }
///     var partnerBackend: PartnerBackend? {
///         PartnerBackend { try await api.iftttUserToken(for: session) }
///     }
/// }
/// ```
public protocol ConnectionCredentialProvider {
    /// The OAuth code of your user on your service, so the activation flow can skip connecting your service.
    var oauthCode: String { get }
    /// The IFTTT user token for your user, when you have one. It lets the API return the user's status.
    var userToken: String? { get }
    /// The invite code of your unpublished service, or `nil` once it is published.
    var inviteCode: String? { get }
    /// Your backend, which says which IFTTT user token belongs to your signed-in user; the activation finishes
    /// with the token it vouches for. Default `nil` (2.8 providers): see ``ConnectionConfiguration/userTokenTrust``.
    var partnerBackend: PartnerBackend? { get }
}

extension ConnectionCredentialProvider {
    /// No partner backend: the default for providers written for 2.8.
    public var partnerBackend: PartnerBackend? { nil }
}

/// A ``ConnectionCredentialProvider`` that holds fixed values, and the copy the SDK keeps of any provider.
///
/// A program without an app backend of its own, but with its user's session on the partner's backend, gives
/// that backend here:
///
/// ```swift
/// let backend = try PartnerBackend.userTokenEndpoint(
///     URL(string: "http://127.0.0.1:8080/partner/grocery_express/api/user_token")!, session: "gx-access-token-dave")
/// let credentials = ConnectionCredentials(oauthCode: "", partnerBackend: backend)
/// ```
public struct ConnectionCredentials: ConnectionCredentialProvider, Sendable, Hashable, CustomStringConvertible {
    /// The OAuth code.
    public var oauthCode: String
    /// The user token.
    public var userToken: String?
    /// The invite code.
    public var inviteCode: String?
    /// The backend that vouches for the signed-in user's IFTTT user token, if any.
    public var partnerBackend: PartnerBackend?

    /// Creates credentials.
    ///
    /// - Parameters:
    ///   - oauthCode: The OAuth code of your user on your service; default empty.
    ///   - userToken: The IFTTT user token, when you have one.
    ///   - inviteCode: The invite code of an unpublished service.
    ///   - partnerBackend: The backend that vouches for the user's IFTTT user token; see ``PartnerBackend``.
    public init(
        oauthCode: String = "", userToken: String? = nil, inviteCode: String? = nil,
        partnerBackend: PartnerBackend? = nil
    ) {
        self.oauthCode = oauthCode
        self.userToken = userToken
        self.inviteCode = inviteCode
        self.partnerBackend = partnerBackend
    }

    /// A copy of a provider's current values: the one way the SDK reads a provider.
    ///
    /// - Parameter provider: The provider to read now.
    public init(snapshotOf provider: any ConnectionCredentialProvider) {
        if let fixed = provider as? ConnectionCredentials {
            self = fixed
        } else {
            self.init(
                oauthCode: provider.oauthCode, userToken: provider.userToken, inviteCode: provider.inviteCode,
                partnerBackend: provider.partnerBackend)
        }
    }

    /// Anonymous credentials: no token, no code.
    public static let anonymous = ConnectionCredentials()

    /// Says which credentials are present, never their values.
    public var description: String {
        "ConnectionCredentials(oauthCode: \(oauthCode.isEmpty ? "none" : "<redacted>"), "
            + "userToken: \(userToken?.isEmpty == false ? "<redacted>" : "none"), "
            + "inviteCode: \(inviteCode?.isEmpty == false ? "<redacted>" : "none"), "
            + "partnerBackend: \(partnerBackend?.name ?? "none"))"
    }
}
