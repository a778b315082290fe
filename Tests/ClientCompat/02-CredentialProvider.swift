// swift-format-ignore-file
// The seed README's snippet, kept as written (block comments included).
// Seed README, "ConnectionCredentialProvider": a struct provider as in the README, and the class-based
// provider holding a mutable token that 2.8 apps use (it must compile in Swift 6 mode too).
import Foundation
import IFTTTConnectSDK
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let theOAuthCodeForYourService = "gx-oauth-code-alice"
let yourAppsKeychain: [String: String] = ["key_for_ifttt_token": "sandbox-user-token-alice"]

struct Credentials: ConnectionCredentialProvider {
    /*
      Provides the partner's OAuth code for a service
      during authentication with a `Connection`.
    */
    var oauthCode: String {
        return theOAuthCodeForYourService
    }

    /*
      Provides the service's token associated with IFTTT.
    */
    var userToken: String? {
        return yourAppsKeychain["key_for_ifttt_token"]
    }

    /*
      Provides the invite code for testing an unpublished
      `Connection`'s services with the IFTTT platform.
    */
    var inviteCode: String? {
        return """
            Invite code from platform.ifttt.com or nil if your service is published
            """
    }
}

/// The class-based provider of the Grocery Express example: the token changes when the user logs in or out.
final class ConnectionCredentials28: ConnectionCredentialProvider {
    private(set) var userToken: String?
    let oauthCode: String
    var inviteCode: String? { return nil }

    init(oauthCode: String, userToken: String? = nil) {
        self.oauthCode = oauthCode
        self.userToken = userToken
    }

    func loginUser(with token: String) {
        userToken = token
    }

    func logout() {
        userToken = nil
    }
}

func useCredentialProviders() {
    let credentials = ConnectionCredentials28(oauthCode: theOAuthCodeForYourService)
    credentials.loginUser(with: "sandbox-user-token-alice")
    let fetch = Connection.Request.fetchConnection(for: "gx-arrive-store", credentialProvider: credentials)
    let disconnect = Connection.Request.disconnectConnection(with: "gx-arrive-store", credentialProvider: Credentials())
    let urlRequests: [URLRequest] = [fetch.urlRequest, disconnect.urlRequest]
    print(urlRequests.count, credentials.userToken ?? "none")
    credentials.logout()
}
