import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectService

extension ConnectCommand {
    /// What vouches for the user token `connect` keeps.
    ///
    /// A redirect to the loopback receiver says only that an activation finished: any program or web page that can
    /// reach the port can send one, with any IFTTT account's real token. The partner's backend knows which partner
    /// user the program acts for and which IFTTT user that account is linked to, so the token it answers is the
    /// one kept (see the Activation article, "Whose token").
    enum Voucher: Sendable {
        /// The user's session with the partner's backend, asked at `endpoint` (`POST`, bearer session, answers
        /// `{"user_token": ...}`); `nil` is the sandbox's Grocery Express backend under the API root.
        case partnerSession(String, endpoint: URL?)
        /// The service key, the user's id on the service and their OAuth access token: IFTTT's token exchange
        /// (`POST /v2/user_token`), as a partner's backend asks it.
        case serviceKey(String, userId: String, accessToken: String)
        /// Nothing (`--unvouched`): the redirect's token is kept once IFTTT confirms it, whoever sent it.
        case unvouched

        /// `<root>/partner/grocery_express/api/user_token`: the sandbox's Grocery Express backend.
        static func sandboxPartnerBackend(_ root: URL) -> URL {
            root.appendingPathComponent("partner/grocery_express/api/user_token")
        }

        /// Whether a secret may be sent to `url`: HTTPS, or HTTP to a loopback address.
        static func isSafe(_ url: URL) -> Bool {
            let scheme = url.scheme?.lowercased()
            return scheme == "https" || (scheme == "http" && ConnectServiceClient.isLoopback(url.host ?? ""))
        }

        /// The partner backend of this voucher against the API at `root`; `nil` for ``unvouched``.
        ///
        /// - Throws: The SDK's error for a URL that would carry the secret in the clear or an empty secret.
        func partnerBackend(root: URL) throws -> PartnerBackend? {
            switch self {
            case .partnerSession(let session, let endpoint):
                return try PartnerBackend.userTokenEndpoint(
                    endpoint ?? Self.sandboxPartnerBackend(root), session: session)
            case .serviceKey(let key, let userId, let accessToken):
                return try ConnectServiceClient(serviceKey: key, baseURL: root.appendingPathComponent("v2"))
                    .partnerBackend(userId: userId, accessToken: accessToken)
            case .unvouched:
                return nil
            }
        }

        /// Names the voucher for output, without its secrets: e.g. `the partner backend at http://127.0.0.1:8080/...`.
        func summary(root: URL) -> String {
            switch self {
            case .partnerSession(_, let endpoint):
                return "the partner backend at \((endpoint ?? Self.sandboxPartnerBackend(root)).absoluteString)"
            case .serviceKey(_, let userId, _):
                return "IFTTT's token exchange for \(userId)"
            case .unvouched:
                return "none (--unvouched)"
            }
        }
    }
}
