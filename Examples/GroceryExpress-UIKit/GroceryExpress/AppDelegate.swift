import IFTTTConnectSDK
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    /// Hands IFTTT's redirect back to the Connect Button that waits for it.
    private let redirectHandler = ConnectionRedirectHandler(redirectURL: AppConfiguration.redirectURL)

    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // Location: start before launch finishes, so a geofence crossing that launched the app is recorded.
        // enableSDKBackgroundProcess registers com.ifttt.ifttt.synchronization_scheduler (see Info.plist).
        // The synchronizer talks to the same sandbox as the button (its default is production IFTTT).
        AppConfiguration.useSynchronizerServer()
        ConnectButtonController.synchronizationLoggingEnabled = true
        ConnectButtonController.initialize(
            options: InitializerOptions(
                enableSDKBackgroundProcess: true,
                showPermissionsPrompts: true))
        ConnectButtonController.setup(with: GroceryExpressCredentials(), lifecycleSynchronizationOptions: .all)
        if GroceryExpressCredentials().userToken != nil {
            ConnectButtonController.activate(connections: [AppConfiguration.connectionId])
        }
        ConnectButtonController.authenticationFailureHandler = {
            GroceryExpressCredentials.save(userToken: nil)
        }
        return true
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        self.window = window
        showHome()
        window.makeKeyAndVisible()
        return true
    }

    /// Grocery Express's sign-in while the user is signed out of it, else the Connect screen; again after signing in
    /// or out.
    private func showHome() {
        let home: UIViewController =
            ExampleSettings.isSignedIn
            ? ConnectViewController(onSignOut: { [weak self] in self?.showHome() })
            : SignInViewController(onSignIn: { [weak self] in self?.showHome() })
        window?.rootViewController = UINavigationController(rootViewController: home)
    }

    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool
    {
        redirectHandler.handleApplicationRedirect(url: url, options: options)
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        ConnectButtonController.didReceiveSilentRemoteNotification(backgroundFetchCompletion: completionHandler)
    }
}
