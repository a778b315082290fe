// client-compat: alone (its ConnectionCredentials would shadow the SDK's in the other files of one app)
// An app with its own `ConnectionCredentials` type, as IFTTT's 2.8 example app (GroceryExpress) has: its type
// shadows the SDK's `ConnectionCredentials` inside the app's module, so the app names the SDK's by its module,
// `IFTTTConnectSDK.ConnectionCredentials` (the fix the Getting Started article gives). Both live side by side.
import Foundation
import IFTTTConnectSDK

/// The app's own credential provider, named as in the 2.8 example.
final class ConnectionCredentials: ConnectionCredentialProvider {
    private(set) var userToken: String?
    let email: String

    init(email: String) { self.email = email }

    var oauthCode: String { email }
    var inviteCode: String? { nil }

    func loginUser(with token: String) { userToken = token }
}

/// The app's type where it means its own, the SDK's where it means the SDK's.
func clientOwnCredentialsConfiguration() -> ConnectionConfiguration {
    let mine = ConnectionCredentials(email: "alice@example.com")
    mine.loginUser(with: "sandbox-user-token-alice")
    let sdks = IFTTTConnectSDK.ConnectionCredentials(snapshotOf: mine)
    let anonymous: IFTTTConnectSDK.ConnectionCredentials = .anonymous
    _ = anonymous
    return ConnectionConfiguration(
        connectionId: "gx-arrive-store", suggestedUserEmail: mine.email, credentialProvider: sdks,
        redirectURL: URL(string: "groceryexpress://connect_callback")!)
}
