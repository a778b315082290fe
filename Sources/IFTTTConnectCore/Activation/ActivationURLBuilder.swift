import Foundation

/// Who the activation is for, once known.
enum ActivationUser: Sendable, Hashable {
    /// Identified by email; `isNew` when IFTTT has no account for it (the lookup answered 404).
    case email(String, isNew: Bool)
    /// Identified by the user token (`/me`), by IFTTT login.
    case username(String)

    var isNew: Bool {
        if case .email(_, let isNew) = self { return isNew }
        return false
    }
}

/// The fixed facts a flow needs to build its URLs (spec §2.5, §2.6).
struct ActivationURLBuilder: Sendable, Hashable {
    /// `ifttt-handoff-v1://connections`.
    static let productionAppHandoffBaseURL = URL(string: "ifttt-handoff-v1://connections")!
    /// `https://ifttt.com/access/api`.
    static let productionWebActivationBaseURL = URL(string: "https://ifttt.com/access/api")!
    /// The mail apps offered to existing users, in the order the web flow lists them.
    static let mailAppSchemes = [
        "message://", "googlegmail://", "ms-outlook://", "ymail://", "airmail://", "readdle-spark://",
    ]

    var connectionId: String
    var redirectURL: URL
    var skipConfiguration: Bool
    var localeIdentifier: String
    var anonymousId: String
    var sdkVersion: String = SDKInfo.version
    var platform: String = SDKInfo.platform
    var appHandoffBaseURL: URL = Self.productionAppHandoffBaseURL
    var webActivationBaseURL: URL = Self.productionWebActivationBaseURL

    /// The credentials' parts that go into URLs, read when the user starts a flow. No user token.
    struct Credentials: Sendable, Hashable, CustomStringConvertible {
        var oauthCode: String
        var inviteCode: String?
        /// Binds `oauthCode` to this attempt: the URL carries its challenge next to `code` (``PartnerLinkProof``).
        var linkProof: PartnerLinkProof? = nil
        var description: String { "Credentials(<redacted>)" }

        /// `code`, then its `code_challenge` and `code_challenge_method=S256` when the attempt holds a proof.
        var codeItems: [(String, String)] {
            guard !oauthCode.isEmpty else { return [] }
            var items = [("code", oauthCode)]
            if let linkProof {
                items.append(("code_challenge", linkProof.challenge))
                items.append(("code_challenge_method", "S256"))
            }
            return items
        }
    }

    /// The hand-off URL for the IFTTT app: common items, `code`, the user, `action=activation`.
    func appHandoffURL(user: ActivationUser?, credentials: Credentials, state: RedirectNonce) -> URL {
        var items = commonItems(credentials: credentials, state: state)
        items += credentials.codeItems
        if let user { items.append(userItem(user)) }
        items.append(("action", "activation"))
        return url(base: appHandoffBaseURL, items: items)
    }

    /// The web activation URL: common items, the user, `sdk_create_account` or the mail apps, `code`.
    func webActivationURL(
        user: ActivationUser, credentials: Credentials, state: RedirectNonce, installedMailApps: [String]
    ) -> URL {
        var items = commonItems(credentials: credentials, state: state)
        items.append(userItem(user))
        if user.isNew {
            items.append(("sdk_create_account", "true"))
        } else {
            for scheme in installedMailApps { items.append(("available_email_app_schemes[]", scheme)) }
        }
        items += credentials.codeItems
        return url(base: webActivationBaseURL, items: items)
    }

    private func commonItems(credentials: Credentials, state: RedirectNonce) -> [(String, String)] {
        var items: [(String, String)] = [
            ("sdk_return_to", redirectURL.absoluteString),
            ("sdk_version", sdkVersion),
            ("sdk_platform", platform),
            ("sdk_anonymous_id", anonymousId),
            ("locale", localeIdentifier),
        ]
        if skipConfiguration { items.append(("skip_config", "true")) }
        if let invite = credentials.inviteCode, !invite.isEmpty { items.append(("invite_code", invite)) }
        items.append(("state", state.value))
        return items
    }

    private func userItem(_ user: ActivationUser) -> (String, String) {
        switch user {
        case .email(let email, _): return ("email", email)
        case .username(let login): return ("username", login)
        }
    }

    /// Appends the Connection id as a path segment and the query, percent-encoding everything but RFC 3986
    /// unreserved characters (so `+` is `%2B` and `[]` is `%5B%5D`).
    private func url(base: URL, items: [(String, String)]) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += "/" + APIRequest.percentEncode(connectionId)
        text +=
            "?"
            + items.map { APIRequest.percentEncode($0.0) + "=" + APIRequest.percentEncode($0.1) }.joined(separator: "&")
        return URL(string: text) ?? base
    }
}
