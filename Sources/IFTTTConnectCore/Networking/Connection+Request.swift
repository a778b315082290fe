import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Connection {
    /// A Connect API request about one Connection, as ``ConnectionNetworkController/start(request:completion:)``
    /// sends it.
    ///
    /// ```swift
    /// let request = Connection.Request.fetchConnection(for: "gx-arrive-store", credentialProvider: credentials)
    /// controller.start(request: request) { response in print(response.statusCode) }
    /// ```
    public struct Request: Sendable {
        /// What the request does.
        @_spi(Sandbox) public enum Action: Sendable, Hashable {
            /// `GET /connections/{id}`.
            case fetch
            /// `POST /connections/{id}/disable`.
            case disable
            /// `POST /connections/{id}/enable`.
            case enable
            /// `PUT /connections/{id}/user_connection`.
            case updateUserConnection(UserConnectionUpdate)
        }

        /// The Connection id.
        @_spi(Sandbox) public let connectionId: String
        /// What the request does.
        @_spi(Sandbox) public let action: Action
        /// The credentials sent with it, as the provider gave them when the request was made.
        @_spi(Sandbox) public let credentials: ConnectionCredentials

        /// The credentials sent with it (user token and invite code): a snapshot of the provider's values
        /// taken when the request was made, so a request can cross threads whatever the provider is.
        @_spi(Sandbox) public var credentialProvider: any ConnectionCredentialProvider { credentials }

        /// Creates a request; the provider's values are read now.
        @_spi(Sandbox) public init(
            connectionId: String, action: Action, credentialProvider: any ConnectionCredentialProvider
        ) {
            self.connectionId = connectionId
            self.action = action
            self.credentials = ConnectionCredentials(snapshotOf: credentialProvider)
        }

        /// The request as a `URLRequest` for the production Connect API (`https://connect.ifttt.com/v2`),
        /// with the headers the SDK sends (`Authorization`, `IFTTT-Invite-Code`, `IFTTT-SDK-Version`,
        /// `IFTTT-SDK-Platform`, `IFTTT-SDK-Anonymous-Id`), as ConnectSDK-iOS 2.8 built it. Send it with
        /// ``ConnectionNetworkController/start(urlRequest:completion:)`` or your own session. An empty
        /// Connection id, which names no Connection, gives a request for the `connections` collection.
        public var urlRequest: URLRequest {
            let base = ConnectionNetworkController.Configuration.productionConnectURL
            let http =
                (try? ConnectionNetworkController.httpRequest(
                    for: apiRequest, baseURL: base,
                    anonymousId: AnonymousIdentifierStore.current, timeout: 60))
                ?? HTTPRequest(method: apiRequest.method, url: base.appendingPathComponent("connections"))
            var request = URLRequest(url: http.url)
            request.httpMethod = http.method
            for (name, value) in http.headers.sorted(by: { $0.key < $1.key }) {
                request.setValue(value, forHTTPHeaderField: name)
            }
            request.httpBody = http.body
            return request
        }

        /// Fetches a Connection, with the user's status when the provider has a user token.
        public static func fetchConnection(for id: String, credentialProvider: any ConnectionCredentialProvider)
            -> Request
        {
            Request(connectionId: id, action: .fetch, credentialProvider: credentialProvider)
        }

        /// Turns a Connection off for the user (needs a user token).
        public static func disconnectConnection(with id: String, credentialProvider: any ConnectionCredentialProvider)
            -> Request
        {
            Request(connectionId: id, action: .disable, credentialProvider: credentialProvider)
        }

        /// Turns a disabled Connection back on for the user (needs a user token).
        @_spi(Sandbox) public static func enableConnection(
            with id: String, credentialProvider: any ConnectionCredentialProvider
        ) -> Request {
            Request(connectionId: id, action: .enable, credentialProvider: credentialProvider)
        }

        var apiRequest: APIRequest {
            let base = ["connections", connectionId]
            switch action {
            case .fetch:
                return APIRequest(method: "GET", path: base, credentials: credentials)
            case .disable:
                return APIRequest(method: "POST", path: base + ["disable"], credentials: credentials)
            case .enable:
                return APIRequest(method: "POST", path: base + ["enable"], credentials: credentials)
            case .updateUserConnection(let update):
                return APIRequest(
                    method: "PUT", path: base + ["user_connection"], credentials: credentials,
                    body: Data(update.jsonValue.serialized().utf8))
            }
        }
    }
}

/// A request to the Connect API before the controller's configuration turns it into an ``HTTPRequest``.
struct APIRequest: Sendable {
    var method: String
    var path: [String]
    var query: [(String, String)] = []
    var userToken: String?
    var inviteCode: String?
    var serviceKey: String?
    var body: Data?
    var sdkHeaders = true

    init(
        method: String, path: [String], query: [(String, String)] = [],
        credentials: (any ConnectionCredentialProvider)? = nil,
        body: Data? = nil, sdkHeaders: Bool = true
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.userToken = credentials?.userToken.flatMap { $0.isEmpty ? nil : $0 }
        self.inviteCode = credentials?.inviteCode.flatMap { $0.isEmpty ? nil : $0 }
        self.body = body
        self.sdkHeaders = sdkHeaders
    }

    /// The path for logs: segments only, no query (which may hold an email).
    var loggablePath: String { "/" + path.joined(separator: "/") }

    /// Every secret the request carries, for redaction.
    var secrets: [String] {
        [userToken, inviteCode, serviceKey].compactMap { $0 }.filter { $0.count >= 4 }
            + query.map(\.1).filter { $0.count >= 8 }
    }

    /// Builds the URL under `base`, percent-encoding every path segment and query item strictly
    /// (RFC 3986 unreserved characters only, so `+`, `&`, `/` and `=` are always encoded).
    func url(relativeTo base: URL) throws(ConnectAPIError) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        for segment in path {
            guard !segment.isEmpty, segment != ".", segment != ".." else {
                throw .invalidRequest("empty or relative path segment")
            }
            text += "/" + APIRequest.percentEncode(segment)
        }
        if !query.isEmpty {
            text +=
                "?"
                + query.map { APIRequest.percentEncode($0.0) + "=" + APIRequest.percentEncode($0.1) }
                .joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw .invalidRequest("could not build a URL") }
        return url
    }

    static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    static func percentEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
