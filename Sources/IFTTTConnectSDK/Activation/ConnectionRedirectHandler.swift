import Foundation

/// Receives the redirects that end an activation and hands each one to the flow that waits for it.
///
/// Forward the URLs your app is opened with; the handler returns `true` only for a redirect that belongs to
/// an activation in progress, and `false` for everything else, so your own deep links on the same scheme
/// still reach your app:
///
/// ```swift
/// let redirectHandler = ConnectionRedirectHandler(redirectURL: URL(string: "groceryexpress://ifttt/callback")!)
///
/// func application(_ app: UIApplication, open url: URL,
///                  options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
///     if redirectHandler.handleApplicationRedirect(url: url, options: options) {
///         return true   // the Connect Button takes over from here
///     }
///     return handleMyOwnDeepLink(url)
/// }
/// ```
///
/// A URL is accepted only when all of these hold:
/// - its scheme, host, port and path equal the redirect URL's exactly (no case folding, no percent-decoding);
/// - a ``ConnectButtonController`` configured with this redirect URL waits for a redirect;
/// - its `state` equals the 128-bit random value that flow sent to IFTTT (each value works once);
/// - its query is a redirect IFTTT sends: one `state`, a known `next_step`, and a `user_token` only with
///   `next_step=complete`, at most 4,096 bytes in all.
///
/// Refused URLs change nothing: the waiting flow keeps waiting.
public final class ConnectionRedirectHandler: Sendable {
    /// The redirect URL, the same one given to ``ConnectionConfiguration``.
    public let redirectURL: URL
    private let matcher: RedirectURLMatcher?
    private let registry: RedirectRegistry

    /// Creates a handler for `redirectURL`, which must be the URL in your ``ConnectionConfiguration``.
    /// A URL with a query or fragment, or without a scheme, can never match anything.
    public convenience init(redirectURL: URL) {
        self.init(redirectURL: redirectURL, registry: .shared)
    }

    init(redirectURL: URL, registry: RedirectRegistry) {
        self.redirectURL = redirectURL
        self.matcher = RedirectURLMatcher(redirectURL: redirectURL)
        self.registry = registry
    }

    /// Hands `url` to the activation that waits for it.
    ///
    /// - Parameters:
    ///   - url: The URL the app was opened with.
    ///   - options: The options the system passed with it. They are not trusted and not used; the `state`
    ///     check is what proves where a redirect comes from.
    /// - Returns: `true` when the URL was an expected redirect and the SDK took it; `false` otherwise, with
    ///   nothing changed.
    @discardableResult
    public func handleApplicationRedirect<Key: Hashable>(url: URL, options: [Key: Any]) -> Bool {
        handleApplicationRedirect(url: url)
    }

    /// Hands `url` to the activation that waits for it; see ``handleApplicationRedirect(url:options:)``.
    ///
    /// - Parameter url: The URL the app (or the loopback receiver) received.
    /// - Returns: `true` when the SDK took the URL, `false` with nothing changed otherwise.
    @discardableResult
    public func handleApplicationRedirect(url: URL) -> Bool {
        guard let matcher else { return false }
        return registry.accept(url, for: matcher)
    }
}
