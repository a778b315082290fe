import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// Server-side calls to the Connect API authenticated with your service key, for a partner backend.
///
/// The service key is a secret of your backend: never ship it in an app. The client refuses to send it
/// anywhere but HTTPS or a loopback address, and never puts it in a description, log line or error.
///
/// ```swift
/// let client = try ConnectServiceClient(serviceKey: ProcessInfo.processInfo.environment["IFTTT_SERVICE_KEY"]!)
/// let token = try await client.exchangeUserToken(userId: "gx-user-1001", accessToken: oauthAccessToken)
/// ```
public struct ConnectServiceClient: Sendable, CustomStringConvertible {
    /// Why a service call failed.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// The base URL is neither HTTPS nor loopback HTTP, so the service key would travel in the clear.
        case insecureBaseURL(host: String)
        /// The service key is empty.
        case missingServiceKey
        /// The Connect API call failed.
        case network(ConnectAPIError)
        /// The response was not the payload the call expects (a `user_token`, a Connection, field options, ...).
        case unexpectedResponse(ConnectDecodingError)

        /// A one-line description without secrets.
        public var description: String {
            switch self {
            case .insecureBaseURL(let host): return "Refusing to send the service key to \(host) over plain HTTP"
            case .missingServiceKey: return "The service key is empty"
            case .network(let error): return error.description
            case .unexpectedResponse(let error): return "Unexpected response: \(error)"
            }
        }
    }

    let serviceKey: String
    let controller: ConnectionNetworkController

    /// Creates a client. `baseURL` is the Connect API's `/v2` URL (production by default).
    /// `logHandler` receives one line per request (method, path without query, status); never the key,
    /// a user token or a user id.
    /// - Throws: ``Error/insecureBaseURL(host:)`` for plain HTTP to a non-loopback host, ``Error/missingServiceKey``.
    public init(
        serviceKey: String, baseURL: URL = URL(string: "https://connect.ifttt.com/v2")!,
        logHandler: (@Sendable (String) -> Void)? = nil
    ) throws(Error) {
        try self.init(
            serviceKey: serviceKey, baseURL: baseURL, transport: URLSessionTransport(), logHandler: logHandler)
    }

    /// Creates a client that sends through `transport`.
    @_spi(Sandbox) public init(
        serviceKey: String, baseURL: URL, transport: any HTTPTransport,
        logHandler: (@Sendable (String) -> Void)? = nil
    ) throws(Error) {
        guard !serviceKey.isEmpty else { throw .missingServiceKey }
        let scheme = baseURL.scheme?.lowercased()
        let host = baseURL.host ?? ""
        guard scheme == "https" || (scheme == "http" && Self.isLoopback(host)) else {
            throw .insecureBaseURL(host: host)
        }
        self.serviceKey = serviceKey
        self.controller = ConnectionNetworkController(
            configuration: .init(
                transport: transport, connectBaseURL: baseURL,
                // A backend is not an app install: no per-install id file is created or sent.
                anonymousId: ConnectServiceClient.backendAnonymousId,
                callbackQueue: nil, logHandler: logHandler))
    }

    /// The `IFTTT-SDK-Anonymous-Id` a backend sends: a fixed value, since a server is not an app install.
    @_spi(Sandbox) public static let backendAnonymousId = "server"

    /// Whether `host` is a loopback address (`localhost`, `127.0.0.0/8`, `::1`).
    @_spi(Sandbox) public static func isLoopback(_ host: String) -> Bool {
        LoopbackHost.contains(host)
    }

    /// Exchanges your user's OAuth access token for their IFTTT user token
    /// (`POST /v2/user_token?user_id=...&access_token=...` with `IFTTT-Service-Key`).
    /// - Parameters:
    ///   - userId: the user's id on your service.
    ///   - accessToken: the OAuth access token IFTTT holds for that user.
    public func exchangeUserToken(userId: String, accessToken: String) async throws(Error) -> String {
        let data: Data
        do {
            data = try await controller.sendServiceRequest(
                method: "POST", path: ["user_token"],
                query: [("user_id", userId), ("access_token", accessToken)],
                serviceKey: serviceKey)
        } catch {
            throw .network(error)
        }
        return try Self.nonEmptyString("user_token", in: data)
    }

    /// The non-empty string member `key` of a JSON object answer, or ``Error/unexpectedResponse(_:)``.
    static func nonEmptyString(_ key: String, in data: Data) throws(Error) -> String {
        do throws(ConnectDecodingError) {
            let json = try JSONParser().parse(data)
            guard let value = json[key]?.stringValue, !value.isEmpty else {
                throw ConnectDecodingError(path: "$", reason: .missingKey(key))
            }
            return value
        } catch {
            throw .unexpectedResponse(error)
        }
    }

    /// The `PartnerBackend` of a program that is its own partner backend: it holds the service
    /// key and its user's OAuth access token, and asks IFTTT with ``exchangeUserToken(userId:accessToken:)``.
    ///
    /// IFTTT answers 404 while the partner account is linked to no IFTTT user; the backend then vouches for no
    /// token (`nil`), so an activation keeps waiting until the user has connected. Other failures are thrown.
    ///
    /// ```swift
    /// let client = try ConnectServiceClient(serviceKey: serviceKey)
    /// let credentials = ConnectionCredentials(
    ///     oauthCode: oauthCode,
    ///     partnerBackend: client.partnerBackend(userId: "gx-user-1003", accessToken: accessToken))
    /// ```
    ///
    /// - Parameters:
    ///   - userId: the user's id on your service.
    ///   - accessToken: the OAuth access token IFTTT holds for that user.
    /// - Returns: The backend; its name is `"IFTTT token exchange"`.
    public func partnerBackend(userId: String, accessToken: String) -> PartnerBackend {
        let client = self
        return PartnerBackend(name: "IFTTT token exchange") { () async throws(Error) -> String? in
            do throws(Error) {
                return try await client.exchangeUserToken(userId: userId, accessToken: accessToken)
            } catch {
                if case .network(let network) = error, network.statusCode == 404 { return nil }
                throw error
            }
        }
    }

    /// Names the API base URL; the key is never shown.
    public var description: String {
        "ConnectServiceClient(baseURL: \(controller.configuration.connectBaseURL.absoluteString), serviceKey: <redacted>)"
    }
}
