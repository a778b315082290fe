import Foundation

/// How a web authentication session ended by itself.
@_spi(Sandbox) public enum WebAuthenticationSessionResult: Sendable, Hashable {
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
@_spi(Sandbox) public protocol WebAuthenticationSession: AnyObject, Sendable {
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

/// Hands the browser a URL with no secret in it for an activation URL that has some (its `state`, the
/// email, the partner's OAuth code).
///
/// Whatever is passed to another program, such as `xdg-open`, can be read by every local user in its command line
/// (`/proc/PID/cmdline`); a launch pad keeps the activation URL in this process and gives out a short-lived,
/// single-use URL that leads to it (RFC 8252, §8.1: another program on the machine must not get what belongs to
/// the flow). `LoopbackRedirectReceiver` of IFTTTConnectDesktop is the launch pad of desktop programs.
@_spi(Sandbox) public protocol BrowserLaunchPad: AnyObject, Sendable {
    /// A URL without secrets that leads the browser to `url`, or `nil` when none can be made (the launch pad
    /// stopped, or `url` is not `http` or `https`).
    ///
    /// - Parameter url: The activation URL.
    /// - Returns: The URL to open in the browser instead.
    func launchURL(for url: URL) -> URL?
}

/// Opens the web page in the system browser through a ``URLOpener`` and never ends by itself: the flow
/// finishes when the redirect reaches a ``ConnectionRedirectHandler`` (for example through a
/// `LoopbackRedirectReceiver` of IFTTTConnectDesktop) or is cancelled.
///
/// With a ``BrowserLaunchPad`` the opener gets the launch pad's secret-free URL, never the activation URL.
/// Without one, the activation URL goes to the opener as it is, and ``SystemBrowserURLOpener`` refuses it
/// (a command line is readable by every local user): the session then ends with
/// ``WebAuthenticationSessionResult/failed``.
@MainActor
@_spi(Sandbox) public final class BrowserWebAuthenticationSession: WebAuthenticationSession {
    private let opener: any URLOpener
    private let launchPad: (any BrowserLaunchPad)?

    /// Creates a session that opens pages with `opener`: the URL `launchPad` gives for each activation URL, or
    /// the activation URL itself without a launch pad.
    ///
    /// - Parameters:
    ///   - opener: The opener; the default opens the system browser.
    ///   - launchPad: Turns the activation URL into one without secrets, e.g. a `LoopbackRedirectReceiver`;
    ///     `nil` (the default) opens the activation URL itself.
    public init(opener: any URLOpener = SystemBrowserURLOpener(), launchPad: (any BrowserLaunchPad)? = nil) {
        self.opener = opener
        self.launchPad = launchPad
    }

    /// Opens `url`, or the launch pad's URL for it; calls `completion` with
    /// ``WebAuthenticationSessionResult/failed`` only if it could not.
    ///
    /// - Parameters:
    ///   - url: The web activation URL.
    ///   - callbackURLScheme: Ignored: a browser cannot hand the redirect back.
    ///   - completion: Called only when opening failed.
    public func start(
        url: URL, callbackURLScheme: String?, completion: @escaping @MainActor (WebAuthenticationSessionResult) -> Void
    ) {
        let opener = self.opener
        let target: URL?
        if let launchPad {
            target = launchPad.launchURL(for: url)
        } else {
            target = url
        }
        Task { @MainActor in
            guard let target, await opener.open(target) else {
                completion(.failed)
                return
            }
        }
    }

    /// Does nothing: a browser tab cannot be closed from here.
    public func dismiss() {}
}
