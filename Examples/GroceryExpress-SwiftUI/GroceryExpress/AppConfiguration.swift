import Foundation
import IFTTTConnectSDK

/// Grocery Express's IFTTT settings, as registered on the IFTTT Platform.
enum AppConfiguration {
    /// The Connection the app offers: "Show my list when I arrive at the store".
    static let connectionId = "gx-arrive-store"
    /// The redirect URL registered on the IFTTT Platform (the app's URL scheme is `groceryexpress`).
    static let redirectURL = URL(string: "groceryexpress://ifttt/callback")!
    /// The signed-in user's email on Grocery Express, pre-filled in the Connect Button.
    static let userEmail = "alice@example.com"
}

/// What the SDK needs to know about the signed-in user. A production app keeps the IFTTT token in the Keychain;
/// the example keeps it in `UserDefaults` to stay short.
struct GroceryExpressCredentials: ConnectionCredentialProvider {
    private static let tokenKey = "ifttt_user_token"

    /// The OAuth code your service issues for IFTTT (from your backend).
    var oauthCode: String { "gx-oauth-code-alice" }
    /// The IFTTT user token saved after the first activation.
    var userToken: String? { UserDefaults.standard.string(forKey: Self.tokenKey) }
    /// Published services need no invite code.
    var inviteCode: String? { nil }

    /// Saves the token IFTTT returned when the user connected.
    static func save(userToken: String?) {
        UserDefaults.standard.set(userToken, forKey: tokenKey)
    }
}
