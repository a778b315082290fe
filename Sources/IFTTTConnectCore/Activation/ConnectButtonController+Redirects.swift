import Foundation

/// Redirect handling: waiting in the ``RedirectRegistry`` for the redirect that ends an attempt, and the web
/// session whose callback goes through the same checks.
extension ConnectButtonController {
    /// Waits for the redirect carrying `nonce`, or cancels the attempt when no redirect can match.
    func awaitRedirect(_ nonce: RedirectNonce) {
        guard let matcher else {
            Task { [weak self] in self?.send(.cancel) }
            return
        }
        // Weakly held: a controller released while it waits is freed, and its entry goes with it.
        configuration.registry.register(matcher, nonce: nonce, owner: self, verifier: redirectVerifier()) {
            [weak self] outcome in
            Task { @MainActor [weak self] in self?.send(.redirectReceived(nonce, outcome)) }
        }
    }

    /// Shows the activation web page; a URL the session catches goes through the redirect checks.
    func startWebSession(_ session: UUID, url: URL) {
        let web = webSession ?? configuration.webAuthenticationSession ?? makePlatformWebSession()
        webSession = web
        let scheme = connectionConfiguration.redirectURL.scheme?.lowercased()
        let callbackScheme = (scheme == "http" || scheme == "https") ? nil : scheme
        let handler = ConnectionRedirectHandler(
            redirectURL: connectionConfiguration.redirectURL, registry: configuration.registry)
        web.start(url: url, callbackURLScheme: callbackScheme) { [weak self] result in
            switch result {
            case .callback(let callback):
                // A URL the session caught goes through the same checks as any other redirect; the page is
                // gone, so one that is refused (at once, or after verification) ends the flow.
                handler.submit(callback) { [weak self] accepted in
                    guard !accepted else { return }
                    Task { @MainActor [weak self] in self?.send(.webSessionEnded(session, .failed(.unknownRedirect))) }
                }
            case .cancelled:
                self?.send(.webSessionEnded(session, .cancelled))
            case .failed:
                self?.send(.webSessionEnded(session, .failed(.unknownResponse)))
            case .presentationAnchorUnavailable:
                // 2.8 reports session failures as unknownResponse; the log says why.
                self?.log("no presentation anchor: the activation page cannot be shown")
                self?.send(.webSessionEnded(session, .failed(.unknownResponse)))
            }
        }
    }

    /// The checks a redirect without `state` must pass for the attempt now waiting; `nil` when the
    /// configuration requires `state`.
    func redirectVerifier() -> RedirectVerifier? {
        guard connectionConfiguration.redirectStatePolicy == .verifyWhenMissing else { return nil }
        let provider = connectionConfiguration.credentialProvider
        return RedirectVerifier(
            network: configuration.networkController, connectionId: connectionConfiguration.connectionId,
            inviteCode: provider.inviteCode, startingToken: provider.userToken.flatMap { $0.isEmpty ? nil : $0 },
            knownLogin: flow.pending?.knownLogin, userVerifier: connectionConfiguration.redirectUserVerifier,
            logHandler: configuration.logHandler)
    }
}
