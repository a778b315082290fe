import Foundation

/// What a redirect back from IFTTT says about the activation (spec §2.7).
enum RedirectOutcome: Sendable, Hashable {
    /// `next_step=complete`, with the user token when the server sent one.
    case complete(userToken: RedactedToken?)
    /// `next_step=error`; `accountCreation` when `error_type=account_creation`.
    case error(accountCreation: Bool)
    /// `next_step=user_cancelled_configuration`.
    case userCancelledConfiguration
}

/// Parses and checks a redirect URL against the configured redirect URL. Pure and strict: anything that is
/// not exactly a redirect IFTTT would send is refused.
struct RedirectURLMatcher: Sendable, Hashable {
    /// The longest redirect URL accepted, in UTF-8 bytes.
    static let maximumLength = 4096
    /// The most query items accepted.
    static let maximumQueryItems = 16
    /// The longest user token accepted.
    static let maximumTokenLength = 1024

    let scheme: String
    /// The authority exactly as written in the configured URL (`host:port`, with user info if any), `nil`
    /// when the URL has none. Compared byte for byte, so `host:/` or `host:080` never equal `host/` or `host:80`.
    let authority: String?
    let user: String?
    let password: String?
    let host: String?
    let port: Int?
    let path: String

    /// Creates a matcher for `redirectURL`; `nil` when the URL has no scheme or has a query or fragment.
    init?(redirectURL: URL) {
        guard let parts = URLComponents(url: redirectURL, resolvingAgainstBaseURL: false),
            let scheme = parts.scheme, !scheme.isEmpty,
            parts.percentEncodedQuery == nil, parts.percentEncodedFragment == nil
        else { return nil }
        self.scheme = scheme
        authority = Self.writtenAuthority(of: redirectURL.absoluteString)
        user = parts.percentEncodedUser
        password = parts.percentEncodedPassword
        host = parts.percentEncodedHost
        port = parts.port
        path = parts.percentEncodedPath
    }

    /// A redirect that matched the configured URL: its `state` (`nil` when the server sent none) and its outcome.
    struct Candidate: Sendable, Hashable {
        let state: String?
        let outcome: RedirectOutcome
    }

    /// The authority of `text` as written: what follows `scheme://` up to the first `/`, `?` or `#`; `nil`
    /// when there is no `//`.
    static func writtenAuthority(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let afterSlashes = rest.dropFirst(2)
        let end = afterSlashes.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterSlashes.endIndex
        return String(afterSlashes[..<end])
    }

    /// Returns the state and outcome of `url` when it is a well-formed redirect to the configured URL; see
    /// ``candidate(forText:)``, which reads `url.absoluteString`.
    ///
    /// A `URL` made by `URL(string:)` from text with a non-ASCII host already holds that host mapped to ASCII
    /// (Foundation applies UTS #46, as browsers do: `http://１２７.０.０.１:8123/cb` becomes
    /// `http://127.0.0.1:8123/cb`, and the two `URL` values are equal), so only text shows what was written.
    func candidate(for url: URL) -> Candidate? {
        candidate(forText: url.absoluteString)
    }

    /// Returns the state and outcome of `text` when it is, as written, a well-formed redirect to the configured
    /// URL: printable ASCII only (a URI; so no full-width or other non-ASCII host that Foundation would map to
    /// ASCII), same scheme, authority as written, user, host, port and path byte for byte (no case folding, no
    /// percent-decoding, no port normalisation), no fragment, a bounded query with at most one non-empty
    /// `state` and a known `next_step`, and `user_token` only with `next_step=complete`.
    func candidate(forText text: String) -> Candidate? {
        guard text.utf8.count <= Self.maximumLength,
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            Self.writtenAuthority(of: text) == authority,
            let parts = URLComponents(string: text),
            parts.scheme == scheme, parts.percentEncodedUser == user, parts.percentEncodedPassword == password,
            parts.percentEncodedHost == host, parts.port == port, parts.percentEncodedPath == path,
            parts.percentEncodedFragment == nil,
            let items = parts.percentEncodedQueryItems, !items.isEmpty, items.count <= Self.maximumQueryItems
        else { return nil }
        var values: [String: String] = [:]
        for item in items {
            // Parameter names are compared as sent: `%73tate` or `State` is not `state`.
            guard ["state", "next_step", "user_token", "error_type"].contains(item.name) else { continue }
            guard values[item.name] == nil, let raw = item.value, let value = raw.removingPercentEncoding,
                !value.isEmpty, value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else { return nil }
            values[item.name] = value
        }
        let state = values["state"]
        let outcome: RedirectOutcome
        switch values["next_step"] {
        case "complete":
            guard values["error_type"] == nil else { return nil }
            if let token = values["user_token"] {
                guard token.utf8.count <= Self.maximumTokenLength else { return nil }
                outcome = .complete(userToken: RedactedToken(value: token))
            } else {
                outcome = .complete(userToken: nil)
            }
        case "error":
            guard values["user_token"] == nil else { return nil }
            outcome = .error(accountCreation: values["error_type"] == "account_creation")
        case "user_cancelled_configuration":
            guard values["user_token"] == nil, values["error_type"] == nil else { return nil }
            outcome = .userCancelledConfiguration
        default:
            return nil
        }
        return Candidate(state: state, outcome: outcome)
    }
}
