// Seed README, "Configuration skipping": skip IFTTT's configuration screen and configure in your own UI.
import Foundation
import IFTTTConnectSDK

struct SkippingCredentials: ConnectionCredentialProvider {
    var oauthCode: String { return "gx-oauth-code-alice" }
    var userToken: String? { return "sandbox-user-token-alice" }
    var inviteCode: String? { return nil }
}

func makeSkippingConfiguration() -> ConnectionConfiguration {
    return ConnectionConfiguration(
        connectionId: "gx-store-visits",
        suggestedUserEmail: "alice@example.com",
        credentialProvider: SkippingCredentials(),
        redirectURL: URL(string: "groceryexpress://connect_callback")!,
        skipConnectionConfiguration: true)
}
