import Foundation

/// How a web authentication session ended by itself.
public enum WebAuthenticationSessionResult: Sendable, Hashable {
    /// The session caught a redirect to the callback scheme and returned its URL.
    case callback(URL)
    /// The user closed the session.
    case cancelled
    /// The session failed.
    case failed
    /// The session could not be shown because no presentation anchor was available.
    case presentationAnchorUnavailable
}

/// Shows the activation web page (spec §2.6). On iOS and macOS the default is
/// `ASWebAuthenticationSession`; elsewhere it is ``BrowserWebAuthenticationSession``.
@MainActor
public protocol WebAuthenticationSession: AnyObject, Sendable {
    /// Shows `url` and calls `completion` at most once if the session ends by itself.
    ///
    /// - Parameters:
    ///   - url: The web activation URL.
    ///   - callbackURLScheme: The redirect URL's scheme when it is a custom scheme the session may catch;
    ///     `nil` for `http` and `https` redirects.
    ///   - completion: Called when the session ends without ``dismiss()``.
    func start(
        url: URL, callbackURLScheme: String?, completion: @escaping @MainActor (WebAuthenticationSessionResult) -> Void)
    /// Closes the session after the redirect arrived another way. `completion` is not called afterwards.
    func dismiss()
}

/// Opens the web page in the system browser through a ``URLOpener`` and never ends by itself: the flow
/// finishes when the redirect reaches a ``ConnectionRedirectHandler`` (for example through a
/// `LoopbackRedirectReceiver` of IFTTTConnectDesktop) or is cancelled.
@MainActor
public final class BrowserWebAuthenticationSession: WebAuthenticationSession {
    private let opener: any URLOpener

    /// Creates a session that opens pages with `opener`.
    ///
    /// - Parameter opener: The opener; the default opens the system browser.
    public init(opener: any URLOpener = SystemBrowserURLOpener()) {
        self.opener = opener
    }

    /// Opens `url`; calls `completion` with ``WebAuthenticationSessionResult/failed`` only if it could not.
    ///
    /// - Parameters:
    ///   - url: The web activation URL.
    ///   - callbackURLScheme: Ignored: a browser cannot hand the redirect back.
    ///   - completion: Called only when opening failed.
    public func start(
        url: URL, callbackURLScheme: String?, completion: @escaping @MainActor (WebAuthenticationSessionResult) -> Void
    ) {
        let opener = self.opener
        Task { @MainActor in
            if await !opener.open(url) { completion(.failed) }
        }
    }

    /// Does nothing: a browser tab cannot be closed from here.
    public func dismiss() {}
}
