import IFTTTConnectSDK
import SwiftUI

@main
struct GroceryExpressApp: App {
    /// Hands IFTTT's redirect back to the Connect Button that waits for it.
    private let redirectHandler = ConnectionRedirectHandler(redirectURL: AppConfiguration.redirectURL)
    /// Whether the user is signed in to Grocery Express: its sign-in screen until then, and again after signing out.
    @State private var signedIn = ExampleSettings.isSignedIn

    init() {
        // Location: the App's initializer runs before launch finishes, so a geofence crossing that launched the
        // app is recorded. enableSDKBackgroundProcess registers the SDK's background task (see Info.plist).
        // The synchronizer talks to the same sandbox as the button (its default is production IFTTT).
        AppConfiguration.useSynchronizerServer()
        ConnectButtonController.initialize(
            options: InitializerOptions(
                enableSDKBackgroundProcess: true,
                showPermissionsPrompts: true))
        ConnectButtonController.setup(with: GroceryExpressCredentials(), lifecycleSynchronizationOptions: .all)
        if GroceryExpressCredentials().userToken != nil {
            ConnectButtonController.activate(connections: [AppConfiguration.connectionId])
        }
    }

    var body: some Scene {
        WindowGroup {
            NavigationStack {
                if signedIn {
                    ConnectScreen(onSignOut: { signedIn = false })
                } else {
                    SignInScreen(onSignIn: { signedIn = true })
                }
            }
            .id(signedIn)
            .onOpenURL { url in
                _ = redirectHandler.handleApplicationRedirect(url: url)
            }
        }
    }
}
