import Foundation

/// Your backend's answer to one question: which IFTTT user token belongs to the user signed in to your app?
///
/// A redirect back from IFTTT only says that an activation finished; anyone who can open your redirect URL
/// can send one, with the token of any IFTTT account. Your backend knows who is signed in to your app and can
/// ask IFTTT which IFTTT user that account is linked to (`POST /v2/user_token` with your service key and your
/// user's OAuth access token). When your ``ConnectionCredentialProvider`` gives a partner backend, the Connect
/// Button asks it after each redirect and finishes only when it vouches for a token whose user has the
/// Connection on; that token is the one the activation hands you. See <doc:Activation>.
///
/// ```swift
/// let backend = PartnerBackend(name: "grocery express api") {
///     try await GroceryAPI.shared.iftttUserToken()   // your endpoint; nil until the user connected IFTTT
/// }
/// ```
///
/// A backend that answers `POST` with the user's session as a bearer token and `{"user_token": "..."}`
/// (or `{"user_token": null}`) is ready-made: ``userTokenEndpoint(_:session:)``.
/// `ConnectServiceClient.partnerBackend(userId:accessToken:)` (IFTTTConnectService) is the form for a program
/// that holds the service key itself.
public struct PartnerBackend: Sendable, Hashable, CustomStringConvertible {
    /// A name for logs and descriptions (never a secret).
    public let name: String
    private let id = UUID()
    private let fetch: @Sendable () async throws -> String?

    /// Creates a partner backend from the call that asks it.
    ///
    /// - Parameters:
    ///   - name: A name for logs; default `"partner backend"`.
    ///   - userToken: Returns the IFTTT user token your backend holds for the signed-in user, or `nil` when that
    ///     user has not connected IFTTT (yet). Throw when the backend cannot be asked. Called after each redirect
    ///     while a flow waits, one call at a time per flow.
    public init(name: String = "partner backend", userToken: @escaping @Sendable () async throws -> String?) {
        self.name = name
        self.fetch = userToken
    }

    /// Asks the backend for the signed-in user's IFTTT user token.
    ///
    /// - Returns: The token, or `nil` when the backend vouches for none (an empty token counts as none).
    /// - Throws: What the backend's call throws.
    @_spi(Sandbox) public func userToken() async throws -> String? {
        guard let token = try await fetch(), !token.isEmpty else { return nil }
        return token
    }

    /// A backend reached over HTTP: `POST url` with `Authorization: Bearer <session>`, answered by
    /// `{"user_token": "<token>"}`, or `{"user_token": null}` while the user has not connected IFTTT.
    ///
    /// This is the shape of the sandbox's Grocery Express backend
    /// (`<sandbox>/partner/grocery_express/api/user_token`, sessions such as `gx-access-token-alice`). 401 and
    /// other 4xx/5xx answers are ``ConnectAPIError``s, and so is a body without a `user_token` member; the
    /// session never appears in them.
    ///
    /// - Parameters:
    ///   - url: The endpoint; HTTPS, or HTTP to a loopback address.
    ///   - session: The signed-in user's session with your backend.
    /// - Returns: The backend.
    /// - Throws: ``ConnectAPIError/invalidRequest(_:)`` for an empty session or a URL that would send it in the
    ///   clear to another machine.
    public static func userTokenEndpoint(_ url: URL, session: String) throws(ConnectAPIError) -> PartnerBackend {
        try userTokenEndpoint(url, session: session, transport: URLSessionTransport())
    }

    /// ``userTokenEndpoint(_:session:)`` sending through `transport`.
    @_spi(Sandbox) public static func userTokenEndpoint(
        _ url: URL, session: String, transport: any HTTPTransport
    ) throws(ConnectAPIError) -> PartnerBackend {
        guard !session.isEmpty else { throw .invalidRequest("the partner session is empty") }
        let scheme = url.scheme?.lowercased()
        guard scheme == "https" || (scheme == "http" && LoopbackHost.contains(url.host ?? "")) else {
            throw .invalidRequest("the partner backend must be HTTPS or a loopback HTTP URL")
        }
        let network = ConnectionNetworkController(
            configuration: .init(transport: transport, anonymousId: "partner-backend", callbackQueue: nil))
        let request = HTTPRequest(
            method: "POST", url: url, headers: ["Accept": "application/json", "Authorization": "Bearer \(session)"])
        return PartnerBackend(name: url.host.map { "partner backend at \($0)" } ?? "partner backend") {
            () async throws(ConnectAPIError) -> String? in
            let response = try await network.send(request, loggablePath: url.path, method: "POST")
            do throws(ConnectDecodingError) {
                let json = try JSONParser().parse(response.body)
                switch json["user_token"] {
                case .string(let token)?: return token
                case .null?: return nil
                default: throw ConnectDecodingError(path: "$", reason: .missingKey("user_token"))
                }
            } catch {
                throw .invalidResponse(statusCode: response.statusCode, error)
            }
        }
    }

    /// Two values are equal when they were made by the same initializer call.
    public static func == (lhs: PartnerBackend, rhs: PartnerBackend) -> Bool { lhs.id == rhs.id }

    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Names the backend.
    public var description: String { "PartnerBackend(\(name))" }
}

/// Which hosts are this machine, for the checks that refuse to send a secret in the clear to another one.
package enum LoopbackHost {
    /// Whether `host` is `localhost`, `::1` or in `127.0.0.0/8` (brackets around an IPv6 address are ignored).
    package static func contains(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h == "::1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
