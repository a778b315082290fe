import Foundation
import Security
import IFTTTConnectSDK

/// Where the example runs. By default: the local sandbox (`ifttt-connect sandbox` on the Mac, which the iOS
/// simulator reaches at `http://127.0.0.1:8080`) and its seed Connection `gx-arrive-store`. Launch arguments
/// (Product > Scheme > Edit Scheme > Arguments) change it:
///
/// - `-IFTTTSandboxURL http://192.168.1.20:8080`: another sandbox address (the URL `ifttt-connect sandbox` prints).
/// - `-IFTTTProduction YES`: production IFTTT, with your own Connection id (`productionConnectionId`) and backend
///   (`backend`).
enum AppConfiguration {
    /// Whether the app talks to production IFTTT (launch argument `-IFTTTProduction YES`).
    static var usesProduction: Bool { UserDefaults.standard.bool(forKey: "IFTTTProduction") }
    /// The sandbox's address (launch argument `-IFTTTSandboxURL`), `http://127.0.0.1:8080` by default.
    static var sandboxURL: URL {
        UserDefaults.standard.string(forKey: "IFTTTSandboxURL").flatMap(URL.init(string:))
            ?? URL(string: "http://127.0.0.1:8080")!
    }
    /// Your Connection on the IFTTT Platform, used with `-IFTTTProduction YES`.
    static let productionConnectionId = "YOUR_CONNECTION_ID"
    /// The Connection the app offers: "Show my list when I arrive at the store" (a seed Connection of the sandbox).
    static var connectionId: String { usesProduction ? productionConnectionId : "gx-arrive-store" }
    /// The redirect URL registered on the IFTTT Platform and in the sandbox's seed (the app's URL scheme is
    /// `groceryexpress`, in Info.plist). A custom scheme: the app's own web session catches it.
    static let redirectURL = URL(string: "groceryexpress://ifttt/callback")!
    /// The network and adapters of the Connect Button: the sandbox's API and activation pages, or IFTTT's.
    static var controllerConfiguration: ConnectButtonController.Configuration {
        usesProduction ? ConnectButtonController.Configuration() : .sandbox(sandboxURL)
    }
    /// Grocery Express's backend: its sign-in (`session`) and its voucher for the user's IFTTT token (`user_token`).
    /// The sandbox plays it; in production it is yours, and it asks IFTTT with `POST /v2/user_token` and the
    /// service key, which never reaches the app.
    static var backend: GroceryExpressBackend {
        GroceryExpressBackend(
            root: usesProduction
                ? URL(string: "https://api.groceryexpress.example/api")!
                : sandboxURL.appendingPathComponent("partner/grocery_express/api"))
    }

    /// Points the location synchronizer at the same IFTTT as the button. Its default is production IFTTT: without
    /// this, geofences would be fetched and crossings uploaded there with the sandbox's token (and the 401 that
    /// answers clears the saved token). Call it before `ConnectButtonController.initialize(options:)`.
    @MainActor
    static func useSynchronizerServer() {
        guard !usesProduction else { return }
        var configuration = Synchronizer.Configuration.platformDefault()
        configuration.useServer(at: sandboxURL)
        ConnectButtonController.synchronizer = Synchronizer(configuration: configuration)
    }

    /// The Connect Button's configuration with the current settings.
    static func connectionConfiguration() -> ConnectionConfiguration {
        ConnectionConfiguration(
            connectionId: connectionId, suggestedUserEmail: ExampleSettings.suggestedEmail,
            credentialProvider: GroceryExpressCredentials(), redirectURL: redirectURL,
            skipConnectionConfiguration: ExampleSettings.skipsConfiguration)
    }
}

/// The settings of IFTTT's 2.8 example: the user's email, skipping IFTTT's configuration screen, the locale and
/// the new-user flow in `UserDefaults`; Grocery Express's session and OAuth code in the Keychain
/// (``ExampleKeychain``), as every secret of the app.
enum ExampleSettings {
    private static var defaults: UserDefaults { .standard }

    /// The email pre-filled in the button (`alice@example.com`: the sandbox's demo user, password `alice-password`).
    static var email: String {
        get { defaults.string(forKey: "gx_email") ?? "alice@example.com" }
        set { defaults.set(newValue, forKey: "gx_email") }
    }
    /// Whether IFTTT skips its configuration screen (`skip_config=true`).
    static var skipsConfiguration: Bool {
        get { defaults.bool(forKey: "gx_skip_config") }
        set { defaults.set(newValue, forKey: "gx_skip_config") }
    }
    /// The locale sent to IFTTT and used by the button (`""`: the device's).
    static var localeIdentifier: String {
        get { defaults.string(forKey: "gx_locale") ?? "" }
        set { defaults.set(newValue, forKey: "gx_locale") }
    }
    /// Whether each activation uses a fresh address (`alice+<time>@example.com`), so IFTTT offers to create an account.
    static var forcesNewUserFlow: Bool {
        get { defaults.bool(forKey: "gx_new_user") }
        set { defaults.set(newValue, forKey: "gx_new_user") }
    }
    /// Grocery Express's session of the signed-in user (`""`: signed out), from the sign-in screen; sign-out ends
    /// it at the backend. In the Keychain.
    static var partnerSession: String {
        get { ExampleKeychain.string("gx_session") ?? "" }
        set { ExampleKeychain.set(newValue, for: "gx_session") }
    }
    /// The signed-in user's Grocery Express login, for the settings screen.
    static var partnerLogin: String {
        get { defaults.string(forKey: "gx_login") ?? "" }
        set { defaults.set(newValue, forKey: "gx_login") }
    }
    /// The OAuth code Grocery Express issued IFTTT for the signed-in user (`""`: none), from the sign-in screen.
    static var partnerOAuthCode: String {
        get { ExampleKeychain.string("gx_oauth_code") ?? "" }
        set { ExampleKeychain.set(newValue, for: "gx_oauth_code") }
    }
    /// Whether the user is signed in to Grocery Express; the app shows its sign-in screen until then.
    static var isSignedIn: Bool { !partnerSession.isEmpty }

    /// Keeps what signing in to Grocery Express gave the app.
    static func signIn(_ account: GroceryExpressBackend.Account) {
        partnerSession = account.session
        partnerLogin = account.login
        partnerOAuthCode = account.oauthCode ?? ""
    }

    /// Signs out of Grocery Express: ends the session at the backend, forgets it and the IFTTT user token (it was
    /// that user's), and stops the location synchronization, as 2.8 asks of an app whose user logs out
    /// (`deactivate()`).
    static func signOut() {
        let session = partnerSession
        if !session.isEmpty { Task { await AppConfiguration.backend.signOut(session: session) } }
        partnerSession = ""
        partnerLogin = ""
        partnerOAuthCode = ""
        GroceryExpressCredentials.save(userToken: nil)
        ConnectButtonController.deactivate()
    }

    /// The locale to use.
    static var locale: Locale {
        localeIdentifier.isEmpty ? ConnectButtonController.determineLocale() : Locale(identifier: localeIdentifier)
    }

    /// The email for the next activation: ``email``, made unique for the new-user flow.
    static var suggestedEmail: String {
        guard forcesNewUserFlow, let at = email.firstIndex(of: "@") else { return email }
        return String(email[..<at]) + "+\(Int(Date().timeIntervalSince1970))" + String(email[at...])
    }
}

/// What the SDK needs to know about the signed-in user. The IFTTT user token is kept in the Keychain.
struct GroceryExpressCredentials: ConnectionCredentialProvider {
    private static let tokenKey = "ifttt_user_token"

    /// The OAuth code your service issues IFTTT for the signed-in user, from your backend (here: the sign-in's
    /// answer). The sandbox's code works once; afterwards, or with none, IFTTT's page asks the user to sign in to
    /// Grocery Express instead.
    var oauthCode: String { ExampleSettings.partnerOAuthCode }
    /// The IFTTT user token saved after the first activation.
    var userToken: String? { ExampleKeychain.string(Self.tokenKey) }
    /// Published services need no invite code.
    var inviteCode: String? { nil }
    /// Grocery Express's backend vouches for the user's IFTTT token while the user is signed in to Grocery Express:
    /// the activation then finishes with the token it returns. Without it (as a 2.8 app without a backend; also
    /// with a sandbox on your network, as the SDK sends a session only over HTTPS or to this machine), the
    /// activation finishes through the app's own web session instead (see the SDK's migration article).
    var partnerBackend: PartnerBackend? {
        let session = ExampleSettings.partnerSession
        guard !session.isEmpty else { return nil }
        return AppConfiguration.backend.partnerBackend(session: session)
    }

    /// Saves the token IFTTT returned when the user connected.
    static func save(userToken: String?) {
        ExampleKeychain.set(userToken, for: tokenKey)
    }
}

/// The app's secrets (Grocery Express's session and OAuth code, the IFTTT user token) as generic passwords in the
/// Keychain, on this device only and readable after its first unlock (the location upload runs in the background).
enum ExampleKeychain {
    private static let service = "com.example.GroceryExpress"

    /// The value stored for `key`, if any.
    static func string(_ key: String) -> String? {
        var query = item(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data else {
            return nil
        }
        return String(data: data, encoding: .utf8)
    }

    /// Stores `value` for `key`; `nil` or `""` deletes it.
    static func set(_ value: String?, for key: String) {
        _ = SecItemDelete(item(key) as CFDictionary)
        guard let value, !value.isEmpty else { return }
        var add = item(key)
        add[kSecValueData as String] = Data(value.utf8)
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        _ = SecItemAdd(add as CFDictionary, nil)
    }

    private static func item(_ key: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: key,
        ]
    }
}
