// Seed README, "ConnectionConfiguration": configure the Connection, the user and the redirect URL.
import Foundation
import IFTTTConnectSDK

struct ConfigurationCredentials: ConnectionCredentialProvider {
    var oauthCode: String { return "gx-oauth-code-alice" }
    var userToken: String? { return nil }
    var inviteCode: String? { return nil }
}

func makeConnectionConfigurations(connection: Connection) -> [ConnectionConfiguration] {
    let redirectURL = URL(string: "groceryexpress://connect_callback")!
    let byId = ConnectionConfiguration(
        connectionId: "gx-arrive-store",
        suggestedUserEmail: "alice@example.com",
        credentialProvider: ConfigurationCredentials(),
        redirectURL: redirectURL)
    let byConnection = ConnectionConfiguration(
        connection: connection,
        suggestedUserEmail: "alice@example.com",
        credentialProvider: ConfigurationCredentials(),
        redirectURL: redirectURL,
        skipConnectionConfiguration: false)
    let readme = ConnectionConfiguration(
        connection: connection,
        suggestedUserEmail: "alice@example.com",
        credentialProvider: ConfigurationCredentials(),
        connectAuthorizationRedirectURL: redirectURL)
    let id: String = byId.connectionId
    let email: String = byConnection.suggestedUserEmail
    let url: URL = readme.redirectURL
    let skip: Bool = readme.skipConnectionConfiguration
    let provider: ConnectionCredentialProvider = byId.credentialProvider
    print(id, email, url, skip, provider.userToken ?? "none", byConnection.connection?.id ?? "none")
    return [byId, byConnection, readme]
}
