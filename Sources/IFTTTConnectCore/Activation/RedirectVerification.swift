import Foundation

/// What the SDK requires of the `state` on the redirect that ends an activation.
///
/// Every activation sends IFTTT a fresh, random `state`. IFTTT's own SDKs never send or read one, so it is not
/// known whether ifttt.com echoes it back. A redirect that carries a `state` must always match the flow's
/// exactly; this policy says what happens to a redirect that carries none. See <doc:Activation> for the
/// threat model.
public enum RedirectStatePolicy: Sendable, Hashable, CaseIterable {
    /// The default: a redirect without `state` can still finish the waiting flow, but only after the SDK
    /// verified its token with IFTTT (the token works on `/v2/me`; the Connection is now on for that user;
    /// the user is the one the flow started with, when known; and your
    /// ``ConnectionConfiguration/redirectUserVerifier`` agrees, when set). Works whether or not the server
    /// echoes `state`.
    case verifyWhenMissing
    /// Every redirect must carry the flow's `state`; one without is refused. Choose this only when you know
    /// your IFTTT server echoes `state`: it is then the strongest setting, otherwise no activation finishes.
    case required
}

/// The account a redirect without `state` names, handed to your
/// ``ConnectionConfiguration/redirectUserVerifier`` after the SDK's own checks passed.
///
/// Its description never shows the token.
public struct RedirectedUser: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The IFTTT user token the redirect carried. It works on `/v2/me`.
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
    public init(userToken: String, login: String, connectionId: String) {
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

/// Checks a redirect that carries no `state` before it may finish the flow waiting for it (see
/// ``RedirectStatePolicy/verifyWhenMissing``). Pure data plus the network client; holds no reference to the
/// controller.
struct RedirectVerifier: Sendable {
    /// The Connect API client the flow uses.
    let network: ConnectionNetworkController
    /// The Connection being activated.
    let connectionId: String
    /// The invite code, for unpublished Connections.
    let inviteCode: String?
    /// The token the credential provider had when the flow started, if any.
    let startingToken: String?
    /// The login of the user the flow started with (`/v2/me` of ``startingToken``), if known.
    let knownLogin: String?
    /// The integrator's own check, if any.
    let userVerifier: (@Sendable (RedirectedUser) async -> Bool)?
    /// Receives one line per refusal: reasons only, never a token, a login or a `state`.
    var logHandler: (@Sendable (String) -> Void)?

    /// Writes `line` to ``logHandler``.
    func log(_ line: String) {
        logHandler?("ConnectionRedirectHandler: \(line)")
    }

    /// Why a redirect was refused (for the log: names only).
    enum Refusal: String, Sendable {
        case noToken = "no user token to verify"
        case tokenRejected = "the token does not work on /v2/me"
        case notAUser = "the token is not a user token"
        case otherUser = "the token belongs to another user than the one the flow started with"
        case connectionNotOn = "the Connection is not on for the token's user"
        case connectionUnreadable = "the Connection could not be read with the token"
        case integratorRefused = "the app's redirectUserVerifier refused it"
    }

    /// `nil` when `outcome` may finish the flow, else why not. Only `complete` outcomes are verified here.
    func verify(_ outcome: RedirectOutcome) async -> Refusal? {
        guard case .complete(let redirected) = outcome else { return nil }
        guard let token = redirected?.value else {
            // `complete` without a token: only the starting user's own token can show the Connection is on.
            guard let startingToken else { return .noToken }
            return await connectionIsOn(token: startingToken) ? nil : .connectionNotOn
        }
        let user: User
        do throws(ConnectAPIError) {
            user = try await network.fetchUser(
                credentialProvider: ConnectionCredentials(userToken: token, inviteCode: inviteCode))
        } catch {
            return .tokenRejected
        }
        guard user.authenticationLevel == .user, let login = user.login, !login.isEmpty else { return .notAUser }
        if let knownLogin, knownLogin != login { return .otherUser }
        guard await connectionIsOn(token: token) else { return .connectionNotOn }
        if let userVerifier,
            await !userVerifier(RedirectedUser(userToken: token, login: login, connectionId: connectionId))
        {
            return .integratorRefused
        }
        return nil
    }

    /// Whether the Connection fetched with `token` is on for its user: `user_status` is `enabled`, or the user
    /// connection is `pending` (configuration skipped).
    private func connectionIsOn(token: String) async -> Bool {
        let credentials = ConnectionCredentials(userToken: token, inviteCode: inviteCode)
        let request = Connection.Request.fetchConnection(for: connectionId, credentialProvider: credentials).apiRequest
        guard let response = try? await network.send(request),
            let json = try? JSONParser().parse(response.body),
            json["id"]?.stringValue == connectionId
        else { return false }
        if json["user_status"]?.stringValue == Connection.Status.enabled.rawValue { return true }
        return json["user_connection"]?["pending"]?.boolValue == true
    }
}
