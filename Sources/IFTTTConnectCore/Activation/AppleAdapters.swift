// Thin adapters to Apple frameworks, written against Apple's documentation. They are not compiled on Linux.
import Foundation

#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Opens URLs with `UIApplication`.
@MainActor
@_spi(Sandbox) public final class UIApplicationURLOpener: URLOpener {
    /// Creates the opener.
    public init() {}

    /// `UIApplication.shared.canOpenURL(_:)`.
    ///
    /// - Parameter url: The URL.
    /// - Returns: Whether an installed app handles it.
    public func canOpen(_ url: URL) -> Bool {
        UIApplication.shared.canOpenURL(url)
    }

    /// `UIApplication.shared.open(_:options:)`.
    ///
    /// - Parameter url: The URL.
    /// - Returns: Whether it was opened.
    public func open(_ url: URL) async -> Bool {
        await UIApplication.shared.open(url, options: [:])
    }
}
#endif

#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || IFTTT_APPLE_STUB_CHECK)
import AuthenticationServices

/// Shows the activation page in an `ASWebAuthenticationSession` (shared cookies, not ephemeral).
@MainActor
@_spi(Sandbox)
public final class SystemWebAuthenticationSession: NSObject, WebAuthenticationSession,
    ASWebAuthenticationPresentationContextProviding
{
    private let anchor: @MainActor () -> ASPresentationAnchor?
    private var session: ASWebAuthenticationSession?

    /// Creates a session that presents over the window `anchor` returns.
    ///
    /// - Parameter anchor: Returns the window, or `nil` when there is none.
    public init(anchor: @escaping @MainActor () -> ASPresentationAnchor?) {
        self.anchor = anchor
    }

    /// Starts an `ASWebAuthenticationSession` for `url`.
    ///
    /// - Parameters:
    ///   - url: The web activation URL.
    ///   - callbackURLScheme: The custom scheme the session catches, or `nil`.
    ///   - completion: Called once when the session ends by itself.
    public func start(
        url: URL, callbackURLScheme: String?, completion: @escaping @MainActor (WebAuthenticationSessionResult) -> Void
    ) {
        guard anchor() != nil else {
            completion(.presentationAnchorUnavailable)
            return
        }
        // `@Sendable` keeps the handler nonisolated: in Swift 6 a closure written here would otherwise be inferred
        // main-actor isolated, and AuthenticationServices does not promise to call it on the main thread.
        let session = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackURLScheme) {
            @Sendable [weak self] callbackURL, error in
            let result: WebAuthenticationSessionResult
            if let callbackURL {
                result = .callback(callbackURL)
            } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                result = .cancelled
            } else {
                result = .failed
            }
            Task { @MainActor in
                guard let self, self.session != nil else { return }
                self.session = nil
                completion(result)
            }
        }
        session.presentationContextProvider = self
        session.prefersEphemeralWebBrowserSession = false
        self.session = session
        if !session.start() {
            self.session = nil
            completion(.failed)
        }
    }

    /// Cancels the session without calling its completion.
    public func dismiss() {
        let session = self.session
        self.session = nil
        session?.cancel()
    }

    /// The window from the anchor closure.
    ///
    /// - Parameter session: The session.
    /// - Returns: The window.
    public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() ?? ASPresentationAnchor() }
    }
}
#endif
