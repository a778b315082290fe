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
    /// Grocery Express's own backend: `POST` with the user's session answers `{"user_token": "..."}` (or `null`
    /// before the user connected IFTTT). It asks IFTTT with `POST /v2/user_token` and the service key, which never
    /// reaches the app.
    static let partnerBackendURL = URL(string: "https://api.groceryexpress.example/ifttt/user_token")!
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
    /// The signed-in user's session with Grocery Express's backend, saved at sign-in.
    var session: String? { UserDefaults.standard.string(forKey: "gx_session") }
    /// Grocery Express's backend vouches for the user's IFTTT token: an activation finishes with the token it
    /// returns, never with one a redirect carried (another app or page can open the redirect URL too).
    var partnerBackend: PartnerBackend? {
        guard let session else { return nil }
        return try? PartnerBackend.userTokenEndpoint(AppConfiguration.partnerBackendURL, session: session)
    }

    /// Saves the token IFTTT returned when the user connected.
    static func save(userToken: String?) {
        UserDefaults.standard.set(userToken, forKey: tokenKey)
    }
}
