// Seed README, "Setup": forward redirects to the Connect Button SDK with ConnectionRedirectHandler.
import Foundation
import IFTTTConnectSDK

let groceryExpressRedirectURL = URL(string: "groceryexpress://connect_callback")!
let connectionRedirectHandler = ConnectionRedirectHandler(redirectURL: groceryExpressRedirectURL)

#if canImport(UIKit)
import UIKit

final class RedirectAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ app: UIApplication,
        open url: URL,
        options: [UIApplication.OpenURLOptionsKey: Any] = [:]
    ) -> Bool {
        if connectionRedirectHandler.handleApplicationRedirect(url: url, options: options) {
            // This is an IFTTT SDK redirect, it will take over from here
            return true
        } else {
            // This is unrelated to the IFTTT SDK
            return false
        }
    }
}
#endif

/// The same forwarding from code that has no UIKit options dictionary of its own.
func forwardRedirect(_ url: URL, options: [String: Any]) -> Bool {
    if connectionRedirectHandler.handleApplicationRedirect(url: url, options: options) {
        return true
    } else {
        return false
    }
}
