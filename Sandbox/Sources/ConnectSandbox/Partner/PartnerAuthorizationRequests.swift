import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The partner's pushed authorization requests (RFC 9126): IFTTT's activation pages hand the partner the whole
/// authorization request over the back channel (an in-process call here: the sandbox plays both sides) and send the
/// browser to the partner's sign-in page with only an opaque `request_uri`. So nothing in the sign-in URL can be
/// edited, and the page can name the IFTTT account being connected, which came with the request and not from the
/// URL.
///
/// In memory, like the activation flows: a restart ends flows in progress. A request expires after ``lifetime`` and
/// is used once (the code it led to is issued). Each flow has at most one: pushing again replaces the flow's own
/// (issue 30, hole 7: one flow posting authorize 10,000 times evicted other users' requests), so there are never more
/// than there are flows; at most ``capacity`` are kept, the oldest go first.
final class PartnerAuthorizationRequests: Sendable {
    /// One pushed request.
    struct Pushed: Sendable, Equatable {
        /// The service whose sign-in page serves it.
        let serviceId: String
        /// Where the partner sends the browser back: IFTTT's registered `/access/api/{connection_id}/partner_callback`.
        let redirectURI: String
        /// IFTTT's `state` for this flow, returned with the code.
        let state: String
        /// The flow's PKCE challenge (S256), which the issued code is bound to.
        let codeChallenge: String
        /// The IFTTT account being connected, as the page names it (login and e-mail address).
        let iftttAccount: String
        let expires: Date
    }

    /// How long the user has to sign in at the partner.
    static let lifetime: TimeInterval = 10 * 60
    static let capacity = 10_000
    /// The prefix of every `request_uri` (RFC 9126 §2.2).
    static let uriPrefix = "urn:ietf:params:oauth:request_uri:"

    private struct Table {
        var requests: [String: Pushed] = [:]
        /// The flow each request belongs to.
        var flows: [String: String] = [:]
    }

    private let table = NIOLockedValueBox(Table())

    /// Stores a request of flow `flow`, replacing that flow's earlier one, and returns its `request_uri`; `nil` when
    /// `redirectURI` is not IFTTT's registered one.
    func push(
        flow: String, serviceId: String, redirectURI: String, state: String, codeChallenge: String,
        iftttAccount: String, now: Date
    ) -> String? {
        guard Self.isRegistered(redirectURI), !state.isEmpty, !codeChallenge.isEmpty else { return nil }
        let uri = Self.uriPrefix + WebActivationSessions.randomId()
        let pushed = Pushed(
            serviceId: serviceId, redirectURI: redirectURI, state: state, codeChallenge: codeChallenge,
            iftttAccount: iftttAccount, expires: now.addingTimeInterval(Self.lifetime))
        table.withLockedValue { table in
            for (old, owner) in table.flows where owner == flow { table.requests.removeValue(forKey: old) }
            table.requests = table.requests.filter { $0.value.expires > now }
            if table.requests.count >= Self.capacity,
                let oldest = table.requests.min(by: { $0.value.expires < $1.value.expires })
            {
                table.requests.removeValue(forKey: oldest.key)
            }
            table.flows = table.flows.filter { table.requests[$0.key] != nil }
            table.requests[uri] = pushed
            table.flows[uri] = flow
        }
        return uri
    }

    /// How many requests are kept (tests of the bound).
    var count: Int { table.withLockedValue { $0.requests.count } }

    /// The live request `uri` for `serviceId`.
    func request(_ uri: String, serviceId: String, now: Date) -> Pushed? {
        table.withLockedValue { $0.requests[uri] }.flatMap { $0.serviceId == serviceId && $0.expires > now ? $0 : nil }
    }

    /// Uses up request `uri` (its code has been issued).
    func consume(_ uri: String) {
        table.withLockedValue { table in
            table.requests.removeValue(forKey: uri)
            table.flows.removeValue(forKey: uri)
        }
    }

    /// Whether `uri` is IFTTT's registered redirect URI: `/access/api/{connection_id}/partner_callback`.
    static func isRegistered(_ uri: String) -> Bool {
        let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
        return uri.hasPrefix("/access/api/") && parts.count == 5 && parts[4] == "partner_callback"
            && !parts[3].isEmpty
            && !uri.contains("?") && !uri.contains("#") && !uri.contains("\\")
    }
}

/// Proof Key for Code Exchange (RFC 7636), method S256: the challenge is the unpadded base64url SHA-256 of the
/// verifier.
enum PKCE {
    /// A new verifier: 32 random bytes as 64 hex characters (within RFC 7636's 43 to 128 unreserved characters).
    static func verifier() -> String {
        WebActivationSessions.randomId() + WebActivationSessions.randomId()
    }

    /// The S256 challenge of `verifier`.
    static func challenge(_ verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `verifier` is the one `challenge` was made from.
    static func matches(verifier: String, challenge: String) -> Bool {
        Self.challenge(verifier) == challenge
    }
}
