import Foundation

/// The parameters of a web activation, as the SDK sends them in the URL of `GET /access/api/{connection_id}`
/// (spec §2.6) and as the pages carry them from form to form in hidden fields.
struct WebActivationParameters: Sendable, Equatable {
    /// The names carried from page to page, in the order the SDK sends them.
    static let carriedNames = [
        "sdk_return_to", "sdk_version", "sdk_platform", "sdk_anonymous_id", "locale", "skip_config", "invite_code",
        "state", "email", "username", "sdk_create_account", "available_email_app_schemes[]", "code", "action",
    ]

    /// The custom URL schemes registered for apps of the sandbox's services; `sdk_return_to` may use one of them
    /// (besides loopback `http` URLs on any port).
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

    /// `sdk_return_to`, when it is a URL the sandbox may redirect to: `http` on a loopback host
    /// (`127.0.0.1`, `localhost`, `[::1]`) with any port, or a ``registeredAppSchemes`` scheme; never with a
    /// fragment or user info.
    var returnURL: URLComponents? {
        guard let text = value("sdk_return_to"), let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
              parts.fragment == nil, parts.user == nil, parts.password == nil
        else { return nil }
        if scheme == "http" {
            guard let host = parts.host?.lowercased(), ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) else {
                return nil
            }
            return parts
        }
        return Self.registeredAppSchemes.contains(scheme) ? parts : nil
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
        s.addingPercentEncoding(withAllowedCharacters: CharacterSet(
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

/// Who signed in on the activation pages, keyed by an unguessable id the pages carry in the hidden field
/// `activation_session`. In memory: a restart of the sandbox ends flows in progress.
final class WebActivationSessions: Sendable {
    /// One signed-in flow.
    struct Session: Sendable {
        var userId: String
        var connectionId: String
        var partnerAuthorized = false
    }

    private let sessions = LockedValue<[String: Session]>([:])

    /// Starts a session and returns its id (128 random bits, hex).
    func start(userId: String, connectionId: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        sessions.withLock { $0[id] = Session(userId: userId, connectionId: connectionId) }
        return id
    }

    /// The session `id` of `connectionId`.
    func session(_ id: String?, connectionId: String) -> Session? {
        guard let id, !id.isEmpty else { return nil }
        return sessions.withLock { $0[id] }.flatMap { $0.connectionId == connectionId ? $0 : nil }
    }

    /// Records that the partner service was authorized in session `id`.
    func markAuthorized(_ id: String) {
        sessions.withLock { $0[id]?.partnerAuthorized = true }
    }

    /// Ends session `id`.
    func end(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }
}
