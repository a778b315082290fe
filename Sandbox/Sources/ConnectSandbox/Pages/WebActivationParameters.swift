import Foundation
import NIOConcurrencyHelpers

/// The parameters of a web activation, as the SDK sends them in the URL of `GET /access/api/{connection_id}`
/// (spec §2.6) and as the pages carry them from form to form in hidden fields.
struct WebActivationParameters: Sendable, Equatable {
    /// The names carried from page to page, in the order the SDK sends them.
    static let carriedNames = [
        "sdk_return_to", "sdk_version", "sdk_platform", "sdk_anonymous_id", "locale", "skip_config", "invite_code",
        "state", "email", "username", "sdk_create_account", "available_email_app_schemes[]", "code", "action",
        "code_challenge", "code_challenge_method",
    ]

    /// The custom URL schemes the pages' `form-action` policy lets the final redirect go to (besides loopback `http`
    /// on any port): those of the demo seed's registered redirect URLs.
    static let registeredAppSchemes: Set<String> = ["groceryexpress"]

    /// The carried name/value pairs, in order; names outside ``carriedNames`` are dropped.
    let items: [(name: String, value: String)]

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.items.map(\.name) == rhs.items.map(\.name) && lhs.items.map(\.value) == rhs.items.map(\.value)
    }

    init(pairs: [(String, String)]) {
        items = pairs.filter { Self.carriedNames.contains($0.0) }.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`.
    func value(_ name: String) -> String? { items.first { $0.name == name }?.value }

    /// `sdk_return_to` as an absolute URL without fragment or user info; whether it is registered for the
    /// Connection's service is checked when the flow starts (``RedirectRegistration``).
    var returnURL: URLComponents? {
        guard let text = value("sdk_return_to"), let parts = URLComponents(string: text), parts.scheme != nil,
            parts.fragment == nil, parts.user == nil, parts.password == nil
        else { return nil }
        return parts
    }

    /// Whether the user chose to skip the configuration page (`skip_config=true`).
    var skipsConfiguration: Bool { value("skip_config") == "true" }

    /// Whether the SDK found no account for the e-mail address (`sdk_create_account=true`).
    var createsAccount: Bool { value("sdk_create_account") == "true" }

    /// The redirect to `sdk_return_to` with `items` appended to its query; with `echoState`, the `state` of the
    /// activation URL (if it had one) comes last, as sent.
    func redirect(_ items: [(String, String)], echoState: Bool) -> String? {
        guard var parts = returnURL else { return nil }
        var query = parts.percentEncodedQuery.map { [$0] } ?? []
        var all = items
        if echoState, let state = value("state"), !state.isEmpty { all.append(("state", state)) }
        for (name, value) in all { query.append(Self.encode(name) + "=" + Self.encode(value)) }
        parts.percentEncodedQuery = query.joined(separator: "&")
        return parts.string
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func encode(_ s: String) -> String {
        s.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? s
    }

    /// Parses `application/x-www-form-urlencoded` text (a query string or a form body): `+` is a space.
    static func parseForm(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// Parses a query string as the SDK builds it: a `+` stays a `+` (the SDK encodes it as `%2B`, but clients
    /// that leave it raw in e-mail addresses mean a plus).
    static func parseQuery(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let raw = parts.count > 1 ? String(parts[1]) : ""
            return (name, raw.removingPercentEncoding ?? raw)
        }
    }
}

/// A form submitted to one of the activation pages: its fields in order.
struct SubmittedForm: Sendable {
    let fields: [(String, String)]

    init(body: Data) {
        fields = WebActivationParameters.parseForm(String(decoding: body, as: UTF8.self))
    }

    /// The first value of `name`.
    subscript(name: String) -> String? { fields.first { $0.0 == name }?.1 }

    /// Every value of `name`.
    func all(_ name: String) -> [String] { fields.filter { $0.0 == name }.map(\.1) }

    /// The flow parameters carried in the hidden fields.
    var parameters: WebActivationParameters { WebActivationParameters(pairs: fields) }
}

/// The activation flows in progress, keyed by an unguessable id the pages carry in the hidden field
/// `activation_session`. A flow starts at `GET /access/api/{connection_id}`, and its parameters (`sdk_return_to`,
/// `state`, `code`, `skip_config`, ...) are stored then: later form posts cannot change them, whatever their hidden
/// fields say. A flow belongs to the browser that started it (``BrowserBinding``) and, once someone signs in, to
/// that IFTTT user: another user cannot sign in to it. In memory: a restart of the sandbox ends flows in progress.
/// Flows expire after ``lifetime``; at most ``capacityPerSource`` per source and ``capacity`` overall are kept.
final class WebActivationSessions: Sendable {
    /// One flow.
    struct Session: Sendable {
        let id: String
        let connectionId: String
        /// The parameters of the activation URL, as the flow started.
        let parameters: WebActivationParameters
        /// The browser that started the flow (``BrowserBinding``).
        let browser: String
        /// Who started it (``RequestSource``): the bound on flows is per source.
        var source: String = "unknown"
        /// The `state` of the partner sign-in (OAuth) leg, bound to this flow.
        let partnerState: String
        /// The PKCE verifier of the partner sign-in leg: a code the partner issues is bound to its challenge.
        let codeVerifier: String
        let started: Date
        /// The activation URL's partner `code`, when this flow holds it: a URL code is claimed by the first browser
        /// whose flow presents it, and another browser's flow with the same code goes through the partner's sign-in
        /// instead (a code read from a command line, history or a shared link works for nobody else).
        var urlCode: String? = nil
        /// The activation URL's `code_challenge` (method `S256`) that binds ``urlCode`` to the app that built the
        /// URL: the code only claims its partner link until that app presents the verifier with the flow's user
        /// token. Without one, a URL code is not used (the partner's own sign-in decides).
        var urlCodeChallenge: String? = nil
        /// The IFTTT user who signed in (or created an account), once known; it never changes afterwards.
        var userId: String?
        var partnerAuthorized = false
    }

    /// What signing in to a flow did.
    enum SignIn: Sendable {
        case signedIn(Session)
        /// The flow has another user, or is past the sign-in step: nothing changed.
        case refused
        /// The flow is gone (expired or ended).
        case gone
    }

    static let lifetime: TimeInterval = 30 * 60
    static let capacity = 10_000
    /// Flows kept per source (``RequestSource``): a source's next flow replaces its own oldest, so nobody's flood of
    /// anonymous `GET`s evicts another user's flow (issue 30, hole 7).
    static let capacityPerSource = 64

    private struct State {
        var sessions: [String: Session] = [:]
        /// The URL codes claimed by a browser: code → (browser, when the claim ends).
        var claims: [String: (browser: String, until: Date)] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// 128 random bits, hex.
    static func randomId() -> String {
        var generator = SystemRandomNumberGenerator()
        return PasswordHash.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Starts a flow in `browser`, from `source`, with the parameters of its activation URL.
    ///
    /// At most ``capacityPerSource`` flows per source: the source's oldest goes first. At ``capacity`` overall, the
    /// oldest flow of the source holding the most goes: a flood displaces only the flooder's flows.
    func start(
        connectionId: String, parameters: WebActivationParameters, browser: String, source: String = "unknown",
        now: Date
    ) -> Session {
        var session = Session(
            id: Self.randomId(), connectionId: connectionId, parameters: parameters, browser: browser,
            partnerState: Self.randomId(), codeVerifier: PKCE.verifier(), started: now)
        session.source = source
        return state.withLockedValue { state in
            state.sessions = state.sessions.filter { now.timeIntervalSince($0.value.started) < Self.lifetime }
            state.claims = state.claims.filter { $0.value.until > now }
            let own = state.sessions.values.filter { $0.source == source }
            if own.count >= Self.capacityPerSource, let oldest = own.min(by: { $0.started < $1.started }) {
                state.sessions.removeValue(forKey: oldest.id)
            } else if state.sessions.count >= Self.capacity {
                let counts = Dictionary(grouping: state.sessions.values, by: \.source)
                if let largest = counts.max(by: { $0.value.count < $1.value.count }),
                    let oldest = largest.value.min(by: { $0.started < $1.started })
                {
                    state.sessions.removeValue(forKey: oldest.id)
                }
            }
            if let code = parameters.value("code"), !code.isEmpty {
                if let claim = state.claims[code], claim.browser != browser {
                    session.urlCode = nil
                } else {
                    state.claims[code] = (browser, now.addingTimeInterval(Self.lifetime))
                    session.urlCode = code
                    session.urlCodeChallenge = Self.challenge(parameters)
                }
            }
            state.sessions[session.id] = session
            return session
        }
    }

    private static let base64URLCharacters = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The URL's PKCE challenge, when it is one: `code_challenge_method=S256` and 43 base64url characters (RFC 7636).
    static func challenge(_ parameters: WebActivationParameters) -> String? {
        guard parameters.value("code_challenge_method") == "S256", let challenge = parameters.value("code_challenge"),
            challenge.utf8.count == 43, challenge.utf8.allSatisfy(base64URLCharacters.contains)
        else { return nil }
        return challenge
    }

    /// The live flow `id` of `connectionId`, started in `browser`.
    func session(_ id: String?, connectionId: String, browser: String?, now: Date) -> Session? {
        guard let id, !id.isEmpty else { return nil }
        return state.withLockedValue { $0.sessions[id] }.flatMap { Self.live($0, connectionId, browser, now) }
    }

    /// The live flow of `connectionId`, started in `browser`, whose partner sign-in `state` is `state`.
    func session(partnerState state: String, connectionId: String, browser: String?, now: Date) -> Session? {
        guard !state.isEmpty else { return nil }
        return self.state.withLockedValue { $0.sessions.values.first { $0.partnerState == state } }.flatMap {
            Self.live($0, connectionId, browser, now)
        }
    }

    private static func live(_ session: Session, _ connectionId: String, _ browser: String?, _ now: Date) -> Session? {
        guard session.connectionId == connectionId, session.browser == browser,
            now.timeIntervalSince(session.started) < lifetime
        else { return nil }
        return session
    }

    /// Records who signed in to flow `id`, unless the flow already has another user or is past the sign-in step.
    func signIn(_ id: String, userId: String) -> SignIn {
        state.withLockedValue { state in
            guard var session = state.sessions[id] else { return .gone }
            guard !session.partnerAuthorized, session.userId == nil || session.userId == userId else {
                return .refused
            }
            session.userId = userId
            state.sessions[id] = session
            return .signedIn(session)
        }
    }

    /// Records that the partner service was authorized in flow `id`.
    func markAuthorized(_ id: String) {
        state.withLockedValue { $0.sessions[id]?.partnerAuthorized = true }
    }

    /// Ends flow `id`.
    func end(_ id: String) {
        _ = state.withLockedValue { $0.sessions.removeValue(forKey: id) }
    }
}
