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
/// conforms in Swift 6 mode too. The SDK reads the three values where it needs them (the Connect Button's
/// controller on the main actor, each request when it is made) and keeps only those copies
/// (``ConnectionCredentials/init(snapshotOf:)``), never the provider, across threads.
public protocol ConnectionCredentialProvider {
    /// The OAuth code of your user on your service, so the activation flow can skip connecting your service.
    var oauthCode: String { get }
    /// The IFTTT user token for your user, when you have one. It lets the API return the user's status.
    var userToken: String? { get }
    /// The invite code of your unpublished service, or `nil` once it is published.
    var inviteCode: String? { get }
}

/// A ``ConnectionCredentialProvider`` that holds fixed values.
public struct ConnectionCredentials: ConnectionCredentialProvider, Sendable, Hashable, CustomStringConvertible {
    /// The OAuth code.
    public var oauthCode: String
    /// The user token.
    public var userToken: String?
    /// The invite code.
    public var inviteCode: String?

    /// Creates credentials.
    public init(oauthCode: String = "", userToken: String? = nil, inviteCode: String? = nil) {
        self.oauthCode = oauthCode
        self.userToken = userToken
        self.inviteCode = inviteCode
    }

    /// A copy of a provider's current values.
    ///
    /// - Parameter provider: The provider to read now.
    public init(snapshotOf provider: any ConnectionCredentialProvider) {
        if let fixed = provider as? ConnectionCredentials {
            self = fixed
        } else {
            self.init(oauthCode: provider.oauthCode, userToken: provider.userToken, inviteCode: provider.inviteCode)
        }
    }

    /// Anonymous credentials: no token, no code.
    public static let anonymous = ConnectionCredentials()

    /// Says which credentials are present, never their values.
    public var description: String {
        "ConnectionCredentials(oauthCode: \(oauthCode.isEmpty ? "none" : "<redacted>"), "
            + "userToken: \(userToken?.isEmpty == false ? "<redacted>" : "none"), "
            + "inviteCode: \(inviteCode?.isEmpty == false ? "<redacted>" : "none"))"
    }
}
