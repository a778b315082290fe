import Foundation

/// What the SDK requires of the `state` on the redirect that ends an activation.
///
/// Every activation sends IFTTT a fresh, random `state`. IFTTT's own SDKs never send or read one, so it is not
/// known whether ifttt.com echoes it back. A `state` never proves a redirect genuine on its own (it travels in the
/// activation URL, which other programs can read); every `complete` redirect is checked the same way, with or
/// without `state` (``UserTokenTrust``). A redirect that carries a `state` must carry the flow's exactly; this
/// policy says whether one without any may be considered at all. See <doc:Activation> for the threat model.
public enum RedirectStatePolicy: Sendable, Hashable, CaseIterable {
    /// The default: a redirect without `state` is considered too, and checked like one with it. Works whether or
    /// not the server echoes `state`.
    case verifyWhenMissing
    /// Every redirect must carry the flow's `state`; one without is refused before any check. Choose this only
    /// when you know your IFTTT server echoes `state`: otherwise no activation finishes.
    case required
}

/// Which user token an activation may hand you: one your backend vouches for (the default), or, only if you
/// say so, the token a redirect carried.
///
/// A redirect is only a signal that the activation finished: any web page or app can open your redirect URL with
/// the token of *another* IFTTT account (one that has your Connection on), with or without a `state`. With
/// ``vouched`` the token you get comes from what your app already trusts:
/// - your credential provider's ``ConnectionCredentialProvider/partnerBackend``: after each redirect the SDK asks
///   it for your signed-in user's token and finishes only when the Connection is on for that token's user;
/// - else your provider's ``ConnectionCredentialProvider/userToken`` when it has one (a re-activation): the
///   activation finishes when the Connection is on for that token's user;
/// - else your ``ConnectionConfiguration/redirectUserVerifier``, which judges the redirect's user.
///
/// With none of these, a ``vouched`` first activation finishes only through the callback the app's own web session
/// catches (a custom-scheme redirect URL: no other app or page can write it), with the token it carries once IFTTT
/// confirms it; redirects opened from outside (the IFTTT app, an email link) are refused. With an `http(s)` redirect
/// URL it fails at once with ``ConnectButtonControllerError/noPartnerBackend``.
/// <doc:Activation> has the table of attacks and what each configuration stops.
public enum UserTokenTrust: Sendable, Hashable, CaseIterable {
    /// The default: the activation hands you a token your backend, your credential provider or your verifier
    /// vouches for; a redirect with any other token is logged and the flow keeps waiting.
    case vouched
    /// For an app without a backend, chosen explicitly: when nothing vouches, a redirect's token is kept once IFTTT
    /// confirms it (it works on `/v2/me` and the Connection is on for its user). **An attacker's own real token
    /// passes those checks**, so while a first activation waits, anyone who can open your redirect URL can bind
    /// your user's app to the attacker's IFTTT account. The SDK logs a warning when such a flow starts and when it
    /// finishes (to the log handler, or standard error when there is none). When a partner backend or a user token
    /// is present it is used instead, as with ``vouched``.
    case unvouchedRedirectToken
}

/// The account an activation would finish with, handed to your ``ConnectionConfiguration/redirectUserVerifier``
/// after the SDK's own checks passed.
///
/// Its description never shows the token.
public struct RedirectedUser: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The IFTTT user token the flow would keep: the one your partner backend or credential provider vouched for,
    /// else the one the redirect carried. It works on `/v2/me`.
    public let userToken: String
    /// The IFTTT login `/v2/me` answered for ``userToken``.
    public let login: String
    /// The Connection being activated; it is now on for this user.
    public let connectionId: String

    /// Creates the value (tests).
    ///
    /// - Parameters:
    ///   - userToken: The user token.
    ///   - login: The login `/v2/me` gave for it.
    ///   - connectionId: The Connection's id.
    @_spi(Sandbox) public init(userToken: String, login: String, connectionId: String) {
        self.userToken = userToken
        self.login = login
        self.connectionId = connectionId
    }

    /// Names the login and the Connection, never the token.
    public var description: String {
        "RedirectedUser(login: \(login), connection: \(connectionId), userToken: <redacted>)"
    }

    /// Keeps the token out of `dump` and reflection.
    public var customMirror: Mirror { Mirror(self, children: ["login": login, "connectionId": connectionId]) }
}

/// Decides whether a `complete` redirect may finish the flow waiting for it, and which token the flow keeps.
/// Pure data plus the network client; holds no reference to the controller.
///
/// With a voucher (a partner backend, or the token the flow started with), the redirect is a signal: the check
/// does not depend on what the redirect carried, so any number of redirects share one check (see
/// ``RedirectRegistry``). Without one, the redirect's own token is checked with IFTTT.
struct RedirectVerifier: Sendable {
    /// What vouches for the token the flow keeps.
    enum Voucher: Sendable, Hashable {
        /// The app's partner backend.
        case partnerBackend(PartnerBackend)
        /// The user token the credential provider had when the flow started.
        case startingToken(RedactedToken)
        /// Nothing: the redirect's token is checked with IFTTT (and by the app's verifier, when set).
        case none
    }

    /// What vouches for the kept token.
    let voucher: Voucher
    /// The Connect API client the flow uses.
    let network: ConnectionNetworkController
    /// The Connection being activated.
    let connectionId: String
    /// The invite code, for unpublished Connections.
    let inviteCode: String?
    /// The integrator's own check, if any.
    let userVerifier: (@Sendable (RedirectedUser) async -> Bool)?
    /// Whether the app chose ``UserTokenTrust/unvouchedRedirectToken``: a redirect's token may be kept when
    /// nothing else vouches for it.
    let allowsUnvouchedToken: Bool
    /// Receives one line per refusal: reasons only, never a token, a login or a `state`.
    var logHandler: (@Sendable (String) -> Void)?
    /// Where and with what the attempt completes the partner link its URL `code` claimed, when it sent one.
    var partnerLink: PartnerLink? = nil

    /// The attempt's partner link: the URL to post to and the proof whose challenge the activation URL carried.
    struct PartnerLink: Sendable {
        let url: URL
        let proof: PartnerLinkProof
    }

    /// The most distinct redirect tokens one check presents with the attempt's verifier.
    static let maximumLinkTokens = 8

    /// Whether every redirect gets the same answer, whatever it carries (a voucher decides), so that redirects
    /// arriving together can share one check.
    var isSignal: Bool { voucher != .none }

    /// Whether a redirect's token may be kept with nothing vouching for it but IFTTT's own answers.
    var acceptsUnvouchedToken: Bool { voucher == .none && userVerifier == nil && allowsUnvouchedToken }

    /// Whether nothing at all may finish the flow through an open-URL redirect: no voucher, no app verifier, and
    /// the app did not choose unvouched tokens. Only the app's own web session callback can then finish it.
    var vouchesForNothing: Bool { voucher == .none && userVerifier == nil && !allowsUnvouchedToken }

    /// This verifier for the callback the flow's own web session caught: its token is kept once IFTTT confirms it
    /// (it works on `/v2/me`, the Connection is on for its user). No other app or page can write that callback.
    func boundToWebSession() -> RedirectVerifier {
        RedirectVerifier(
            voucher: voucher, network: network, connectionId: connectionId, inviteCode: inviteCode,
            userVerifier: userVerifier, allowsUnvouchedToken: true, logHandler: logHandler, partnerLink: partnerLink)
    }

    /// Writes `line` to ``logHandler``.
    func log(_ line: String) {
        logHandler?("ConnectionRedirectHandler: \(line)")
    }

    /// Why a redirect was refused (for the log: names only).
    enum Refusal: String, Error, Sendable {
        case backendVouchesForNoToken = "the partner backend vouches for no IFTTT user token yet"
        case backendFailed = "the partner backend could not be asked"
        case noToken = "no user token to verify"
        case tokenRejected = "the token does not work on /v2/me"
        case notAUser = "the token is not a user token"
        case connectionNotOn = "the Connection is not on for the token's user"
        case integratorRefused = "the app's redirectUserVerifier refused it"
        case tooManyWaiting = "too many redirects wait for verification"
        case nothingVouches = "nothing vouches for the token: only the app's own web session may finish this activation"
    }

    /// The outcome that finishes the flow (a `complete` with the token to keep), or why `outcome` may not.
    /// Only `complete` outcomes are checked here.
    ///
    /// When the attempt's URL carried a `code`, the redirect's token (and `linkTokens`, those of the redirects a
    /// signal check answers) is first presented with the attempt's verifier, so the partner link the code claimed is
    /// made before anything asks for the user's token (``PartnerLinkProof``).
    func check(_ outcome: RedirectOutcome, linkTokens: [String] = []) async -> Result<RedirectOutcome, Refusal> {
        guard case .complete(let redirected) = outcome else { return .success(outcome) }
        if let partnerLink {
            var tokens: [String] = []
            for token in [redirected?.value].compactMap({ $0 }) + linkTokens
            where !token.isEmpty && !tokens.contains(token) && tokens.count < Self.maximumLinkTokens {
                tokens.append(token)
            }
            for token in tokens { await completePartnerLink(partnerLink, token: token) }
        }
        let token: String
        switch voucher {
        case .partnerBackend(let backend):
            do {
                guard let vouched = try await backend.userToken() else { return .failure(.backendVouchesForNoToken) }
                token = vouched
            } catch {
                let detail = (error as? ConnectAPIError).map(\.description) ?? String(describing: type(of: error))
                log("\(backend.name): \(detail)")
                return .failure(.backendFailed)
            }
        case .startingToken(let starting):
            token = starting.value
        case .none:
            guard userVerifier != nil || allowsUnvouchedToken else { return .failure(.nothingVouches) }
            guard let value = redirected?.value else { return .failure(.noToken) }
            token = value
        }
        if voucher == .none || userVerifier != nil {
            switch await login(of: token) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let login):
                guard await connectionIsOn(token: token) else { return .failure(.connectionNotOn) }
                if let userVerifier,
                    await !userVerifier(RedirectedUser(userToken: token, login: login, connectionId: connectionId))
                {
                    return .failure(.integratorRefused)
                }
            }
        } else {
            guard await connectionIsOn(token: token) else { return .failure(.connectionNotOn) }
        }
        return .success(.complete(userToken: RedactedToken(value: token)))
    }

    /// Presents `token` with the attempt's verifier (`POST .../partner_link`, form `code_verifier`); the answer does
    /// not matter here (404: nothing was claimed for that pair, as on a server that does not bind codes).
    private func completePartnerLink(_ link: PartnerLink, token: String) async {
        let body = "code_verifier=" + APIRequest.percentEncode(link.proof.verifier)
        let request = HTTPRequest(
            method: "POST", url: link.url,
            headers: ["Authorization": "Bearer " + token, "Content-Type": "application/x-www-form-urlencoded"],
            body: Data(body.utf8))
        do throws(ConnectAPIError) {
            _ = try await network.send(
                request, loggablePath: "/" + connectionId + "/partner_link", method: "POST",
                acceptedStatuses: [204, 404], secrets: [token, link.proof.verifier])
        } catch {
            log("the partner link could not be completed: \(error)")
        }
    }

    /// The login `/v2/me` gives for `token`, when it is a user token.
    private func login(of token: String) async -> Result<String, Refusal> {
        let user: User
        do throws(ConnectAPIError) {
            user = try await network.fetchUser(
                credentialProvider: ConnectionCredentials(userToken: token, inviteCode: inviteCode))
        } catch {
            return .failure(.tokenRejected)
        }
        guard user.authenticationLevel == .user, let login = user.login, !login.isEmpty else {
            return .failure(.notAUser)
        }
        return .success(login)
    }

    /// Whether the Connection fetched with `token` is on for its user: `user_status` is `enabled`, or the user
    /// connection is `pending` (configuration skipped).
    private func connectionIsOn(token: String) async -> Bool {
        let credentials = ConnectionCredentials(userToken: token, inviteCode: inviteCode)
        guard
            let connection = try? await network.fetchConnection(for: connectionId, credentialProvider: credentials),
            connection.id == connectionId
        else { return false }
        return connection.status == .enabled || connection.userConnection?.isPending == true
    }
}
