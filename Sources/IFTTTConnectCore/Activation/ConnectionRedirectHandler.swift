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
/// A URL is taken only when all of these hold:
/// - it is printable ASCII as written, and its scheme, authority (host and port as written: `host:/` and
///   `host:080` are not `host` and `host:80`) and path equal the redirect URL's exactly (no case folding, no
///   percent-decoding);
/// - a ``ConnectButtonController`` configured with this redirect URL waits for a redirect;
/// - its query is a redirect IFTTT sends: at most one `state`, a known `next_step`, and a `user_token` only
///   with `next_step=complete`, at most 4,096 bytes in all;
/// - it carries that flow's `state` (the 128-bit random value the flow sent), **or** it carries no `state` and
///   the flow's ``ConnectionConfiguration/redirectStatePolicy`` is `RedirectStatePolicy/verifyWhenMissing`
///   (the default).
///
/// A taken `next_step=complete` redirect is a signal, with or without `state`: it finishes the flow only once the
/// token the flow keeps is vouched for (``UserTokenTrust``: your partner backend says which token is your user's,
/// and the Connection is on for that user). Until then, and if the check fails, the flow keeps waiting. A `state`
/// that does not match is never checked: the URL is refused. Refused URLs change nothing: the waiting flow keeps
/// waiting. <doc:Activation> describes what each configuration protects against.
public final class ConnectionRedirectHandler: Sendable {
    /// The redirect URL, the same one given to ``ConnectionConfiguration``.
    @_spi(Sandbox) public let redirectURL: URL
    private let matcher: RedirectURLMatcher?
    private let registry: RedirectRegistry

    /// Creates a handler for `redirectURL`, which must be the URL in your ``ConnectionConfiguration``.
    /// A URL with a query or fragment, or without a scheme, can never match anything.
    public convenience init(redirectURL: URL) {
        self.init(redirectURL: redirectURL, registry: .shared)
    }

    package init(redirectURL: URL, registry: RedirectRegistry) {
        self.redirectURL = redirectURL
        self.matcher = RedirectURLMatcher(redirectURL: redirectURL)
        self.registry = registry
    }

    /// Hands `url` to the activation that waits for it.
    ///
    /// - Parameters:
    ///   - url: The URL the app was opened with.
    ///   - options: The options the system passed with it. They are not trusted and not used; what your partner
    ///     backend vouches for decides whether a redirect finishes the activation.
    /// - Returns: `true` when the URL was an expected redirect and the SDK took it (a `complete` redirect: took
    ///   it for its check); `false` otherwise, with nothing changed.
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
        submit(url) { _ in }
    }

    /// Hands a redirect you hold as text (typed or pasted by your user, read from a socket) to the activation
    /// that waits for it. The text is checked as written, before Foundation parses it: a non-ASCII host such as
    /// `１２７.０.０.１`, which `URL(string:)` would turn into `127.0.0.1`, is refused.
    ///
    /// - Parameter urlString: The redirect URL as received.
    /// - Returns: `true` when the SDK took the URL, `false` with nothing changed otherwise.
    @discardableResult
    public func handleApplicationRedirect(urlString: String) -> Bool {
        submit(text: urlString) { _ in }
    }

    /// Hands `url` to the waiting activation and reports, once, whether it finished it: at once for an `error`
    /// or `user_cancelled_configuration` redirect, when its check ends for a `complete` one.
    ///
    /// - Returns: Whether the URL was taken (see ``handleApplicationRedirect(url:)``).
    @discardableResult
    package func submit(_ url: URL, verdict: @escaping @Sendable (Bool) -> Void) -> Bool {
        guard let matcher else {
            verdict(false)
            return false
        }
        return registry.submit(url, for: matcher, verdict: verdict)
    }

    /// The text form of ``submit(_:verdict:)``: the redirect is checked as written.
    @discardableResult
    package func submit(text: String, verdict: @escaping @Sendable (Bool) -> Void) -> Bool {
        guard let matcher else {
            verdict(false)
            return false
        }
        return registry.submit(text: text, for: matcher, verdict: verdict)
    }
}
