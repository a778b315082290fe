import Foundation
#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || IFTTT_APPLE_STUB_CHECK)
import AuthenticationServices
#endif
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// Receives the results of the Connect Button's flows. Each activation and each deactivation reports
/// exactly once.
@MainActor
public protocol ConnectButtonControllerDelegate: AnyObject {
    /// An activation finished. On success, save ``ConnectionActivation/userToken`` for your credential provider.
    ///
    /// - Parameters:
    ///   - connectButtonController: The controller.
    ///   - result: The activation, or why it failed.
    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>)

    /// A deactivation finished.
    ///
    /// - Parameters:
    ///   - connectButtonController: The controller.
    ///   - result: The Connection, now disabled, or why turning it off failed.
    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>)

    #if canImport(UIKit) && !os(watchOS)
    /// The view controller that contains the Connect Button (2.8: it presented Safari before iOS 13; the About
    /// page is presented from it).
    ///
    /// - Parameter connectButtonController: The controller.
    /// - Returns: The view controller that shows the button.
    func presentingViewController(for connectButtonController: ConnectButtonController) -> UIViewController
    #endif

    #if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || IFTTT_APPLE_STUB_CHECK)
    /// The window that shows the activation web page (`ASWebAuthenticationSession`; `UIWindow` on iOS).
    ///
    /// - Returns: The window that contains the Connect Button.
    func webAuthenticationPresentationAnchor() -> ASPresentationAnchor
    #endif
}
