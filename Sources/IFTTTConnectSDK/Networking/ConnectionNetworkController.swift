import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to the Connect API: fetches, disables and enables Connections, looks up accounts, reads `/me`
/// and field options, and updates a user's configuration.
///
/// Every call has an `async` form and a completion-handler form. Status codes become typed errors:
/// 401 is ``ConnectAPIError/authenticationFailure(_:)``, other 4xx and 5xx are
/// ``ConnectAPIError/apiError(statusCode:payload:)`` with the API's code and message.
///
/// ```swift
/// let controller = ConnectionNetworkController()   // production: https://connect.ifttt.com/v2
/// let connection = try await controller.fetchConnection(for: "gx-arrive-store",
///                                                       credentialProvider: ConnectionCredentials.anonymous)
/// ```
public final class ConnectionNetworkController: Sendable {
    /// Where and how the controller sends requests.
    public struct Configuration: Sendable {
        /// The production Connect API, `https://connect.ifttt.com/v2`.
        public static let productionConnectURL = URL(string: "https://connect.ifttt.com/v2")!
        /// The production location API, `https://connectapi.ifttt.com/v1`.
        public static let productionLocationURL = URL(string: "https://connectapi.ifttt.com/v1")!

        /// The transport that sends requests.
        public var transport: any HTTPTransport
        /// The Connect API base URL, ending in `/v2`.
        public var connectBaseURL: URL
        /// The location API base URL, ending in `/v1`.
        public var locationBaseURL: URL
        /// The per-install anonymous id sent as `IFTTT-SDK-Anonymous-Id`.
        public var anonymousId: String
        /// The request timeout in whole seconds.
        public var timeout: Int
        /// The queue that runs completion handlers; `nil` runs them on a concurrency thread.
        /// The default is the main queue on Apple platforms and `nil` elsewhere.
        public var callbackQueue: DispatchQueue?
        /// Receives one line per request (method, path without query, status). Never a token or an email.
        public var logHandler: (@Sendable (String) -> Void)?

        /// Creates a configuration; every parameter has a production default.
        public init(
            transport: any HTTPTransport = URLSessionTransport(),
            connectBaseURL: URL = Configuration.productionConnectURL,
            locationBaseURL: URL = Configuration.productionLocationURL,
            anonymousId: String = AnonymousIdentifierStore.current,
            timeout: Int = 30,
            callbackQueue: DispatchQueue? = Configuration.defaultCallbackQueue,
            logHandler: (@Sendable (String) -> Void)? = nil
        ) {
            self.transport = transport
            self.connectBaseURL = connectBaseURL
            self.locationBaseURL = locationBaseURL
            self.anonymousId = anonymousId
            self.timeout = timeout
            self.callbackQueue = callbackQueue
            self.logHandler = logHandler
        }

        /// The main queue on Apple platforms, `nil` elsewhere.
        public static var defaultCallbackQueue: DispatchQueue? {
            #if canImport(Darwin)
            return .main
            #else
            return nil
            #endif
        }

        /// A configuration for a sandbox or other Connect API at `baseURL` (the server root, without `/v2`).
        public static func sandbox(_ baseURL: URL, transport: any HTTPTransport = URLSessionTransport())
            -> Configuration
        {
            Configuration(
                transport: transport,
                connectBaseURL: baseURL.appendingPathComponent("v2"),
                locationBaseURL: baseURL.appendingPathComponent("v1"))
        }
    }

    /// The result of ``start(request:completion:)`` and ``start(urlRequest:completion:)``, shaped like
    /// ConnectSDK-iOS 2.8's.
    public struct Response: Sendable {
        /// The HTTP status the API answered with, or `-1` when no response arrived (a transport failure).
        public let statusCode: Int
        /// The Connection or the error; the error's ``ConnectionNetworkError/apiError`` says what happened.
        public let result: Result<Connection, ConnectionNetworkError>

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - statusCode: The HTTP status, `-1` without a response.
        ///   - result: The Connection or the error.
        public init(statusCode: Int, result: Result<Connection, ConnectionNetworkError>) {
            self.statusCode = statusCode
            self.result = result
        }
    }

    /// The closure ``start(request:completion:)`` calls, on the main actor (2.8's name).
    public typealias CompletionHandler = @MainActor (_ response: Response) -> Void

    /// Whether an email belongs to an IFTTT account.
    public enum AccountLookup: Sendable, Hashable {
        /// An IFTTT account exists (the API answered 204).
        case existingUser
        /// No IFTTT account has this email (the API answered 404).
        case newUser
    }

    /// The configuration.
    public let configuration: Configuration

    /// Creates a controller.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    // MARK: Connections

    /// Sends a ``Connection/Request`` and decodes the Connection the API returns.
    public func start(request: Connection.Request) async throws(ConnectAPIError) -> Connection {
        let response = try await send(request.apiRequest)
        return try decodeConnection(response)
    }

    /// Fetches a Connection; with a user token the user's status and configuration are included.
    public func fetchConnection(for id: String, credentialProvider: any ConnectionCredentialProvider)
        async throws(ConnectAPIError) -> Connection
    {
        try await start(request: .fetchConnection(for: id, credentialProvider: credentialProvider))
    }

    /// Turns a Connection off for the user and returns it as it now is.
    public func disconnectConnection(with id: String, credentialProvider: any ConnectionCredentialProvider)
        async throws(ConnectAPIError) -> Connection
    {
        try await start(request: .disconnectConnection(with: id, credentialProvider: credentialProvider))
    }

    /// Turns a disabled Connection back on for the user and returns it as it now is.
    public func enableConnection(with id: String, credentialProvider: any ConnectionCredentialProvider)
        async throws(ConnectAPIError) -> Connection
    {
        try await start(request: .enableConnection(with: id, credentialProvider: credentialProvider))
    }

    /// Replaces the user's configuration of a Connection and returns it as it now is.
    public func updateUserConnection(
        with id: String, update: UserConnectionUpdate,
        credentialProvider: any ConnectionCredentialProvider
    ) async throws(ConnectAPIError) -> Connection {
        try await start(
            request: .updateUserConnection(with: id, update: update, credentialProvider: credentialProvider))
    }

    // MARK: Users

    /// Looks up whether `email` has an IFTTT account. 204 means an existing user and 404 a new user;
    /// any other answer is an error, never "new user".
    public func lookUpAccount(email: String) async throws(ConnectAPIError) -> AccountLookup {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidRequest("empty email") }
        let response = try await send(
            APIRequest(method: "GET", path: ["account", "find"], query: [("email", trimmed)]),
            acceptedStatuses: [204, 404])
        switch response.statusCode {
        case 204: return .existingUser
        case 404: return .newUser
        default: throw .apiError(statusCode: response.statusCode, payload: APIErrorPayload(data: response.body))
        }
    }

    /// Reads who the credentials authenticate as (`GET /v2/me`).
    public func fetchUser(credentialProvider: any ConnectionCredentialProvider) async throws(ConnectAPIError) -> User {
        let response = try await send(APIRequest(method: "GET", path: ["me"], credentials: credentialProvider))
        do throws(ConnectDecodingError) {
            return try User.decode(from: response.body)
        } catch {
            throw .invalidResponse(statusCode: response.statusCode, error)
        }
    }

    /// Fetches the options of a step's fields, such as the stores a `COLLECTION_SELECT` offers.
    public func fetchFieldOptions(
        connectionId: String, step: Connection.Step,
        credentialProvider: any ConnectionCredentialProvider
    ) async throws(ConnectAPIError) -> FieldOptions {
        try await fetchFieldOptions(
            path: ["connections", connectionId, step.kind.pathSegment, step.qualifiedTypeId, "field_options"],
            credentialProvider: credentialProvider)
    }

    /// Fetches the options of a feature's own fields.
    public func fetchFieldOptions(
        connectionId: String, feature: Connection.Feature,
        credentialProvider: any ConnectionCredentialProvider
    ) async throws(ConnectAPIError) -> FieldOptions {
        try await fetchFieldOptions(
            path: ["connections", connectionId, "features", feature.id, "field_options"],
            credentialProvider: credentialProvider)
    }

    private func fetchFieldOptions(path: [String], credentialProvider: any ConnectionCredentialProvider)
        async throws(ConnectAPIError) -> FieldOptions
    {
        let response = try await send(APIRequest(method: "GET", path: path, credentials: credentialProvider))
        do throws(ConnectDecodingError) {
            return try FieldOptions.decode(from: response.body)
        } catch {
            throw .invalidResponse(statusCode: response.statusCode, error)
        }
    }

    // MARK: Completion handlers

    /// Sends a ``Connection/Request`` and calls `completion` once with the ``Response`` on the main actor, as
    /// ConnectSDK-iOS 2.8 did, so the completion can create a ``ConnectButtonController`` or update UI.
    /// Cancel the returned task to cancel the request.
    ///
    /// ```swift
    /// controller.start(request: .fetchConnection(for: "gx-arrive-store", credentialProvider: credentials)) { response in
    ///     switch response.result {
    ///     case .success(let connection): print(connection.name, response.statusCode)
    ///     case .failure(let error): print(error.statusCode ?? -1, error)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - completion: Called once, on the main actor.
    /// - Returns: The task that runs the request.
    @discardableResult
    public func start(request: Connection.Request, completion: @escaping CompletionHandler) -> Task<Void, Never> {
        let apiRequest = request.apiRequest
        return Task {
            let response = await self.response(for: { () throws(ConnectAPIError) in
                try self.httpRequest(for: apiRequest)
            })
            await MainActor.run { completion(response) }
        }
    }

    /// Sends a `URLRequest` you built (for example from ``Connection/Request/urlRequest``) through the
    /// controller's transport and decodes the Connection in the answer; `completion` runs once on the main
    /// actor. Status codes are checked as for every other call.
    ///
    /// - Parameters:
    ///   - urlRequest: The request; it needs a URL.
    ///   - completion: Called once, on the main actor.
    /// - Returns: The task that runs the request.
    @discardableResult
    public func start(urlRequest: URLRequest, completion: @escaping CompletionHandler) -> Task<Void, Never> {
        let request = Self.httpRequest(from: urlRequest, timeout: configuration.timeout)
        return Task {
            let response = await self.response(for: { () throws(ConnectAPIError) in
                guard let request else { throw .invalidRequest("the URLRequest has no URL") }
                return request
            })
            await MainActor.run { completion(response) }
        }
    }

    private func response(for build: () throws(ConnectAPIError) -> HTTPRequest) async -> Response {
        do throws(ConnectAPIError) {
            let request = try build()
            let http = try await send(request, loggablePath: request.url.path, method: request.method)
            return Response(statusCode: http.statusCode, result: .success(try decodeConnection(http)))
        } catch {
            return Response(statusCode: error.statusCode ?? -1, result: .failure(ConnectionNetworkError(error)))
        }
    }

    static func httpRequest(from urlRequest: URLRequest, timeout: Int) -> HTTPRequest? {
        guard let url = urlRequest.url else { return nil }
        let seconds = urlRequest.timeoutInterval
        return HTTPRequest(
            method: urlRequest.httpMethod ?? "GET", url: url, headers: urlRequest.allHTTPHeaderFields ?? [:],
            body: urlRequest.httpBody,
            timeout: seconds.isFinite && seconds >= 1 && seconds < 60 * 60 ? Int(seconds) : timeout)
    }

    /// Completion-handler form of ``fetchConnection(for:credentialProvider:)``.
    @discardableResult
    public func fetchConnection(
        for id: String, credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<Connection, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in
                try await self.fetchConnection(for: id, credentialProvider: credentialProvider)
            }, completion)
    }

    /// Completion-handler form of ``disconnectConnection(with:credentialProvider:)``.
    @discardableResult
    public func disconnectConnection(
        with id: String, credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<Connection, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in
                try await self.disconnectConnection(with: id, credentialProvider: credentialProvider)
            }, completion)
    }

    /// Completion-handler form of ``enableConnection(with:credentialProvider:)``.
    @discardableResult
    public func enableConnection(
        with id: String, credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<Connection, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in
                try await self.enableConnection(with: id, credentialProvider: credentialProvider)
            }, completion)
    }

    /// Completion-handler form of ``updateUserConnection(with:update:credentialProvider:)``.
    @discardableResult
    public func updateUserConnection(
        with id: String, update: UserConnectionUpdate, credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<Connection, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in
                try await self.updateUserConnection(with: id, update: update, credentialProvider: credentialProvider)
            }, completion)
    }

    /// Completion-handler form of ``lookUpAccount(email:)``.
    @discardableResult
    public func lookUpAccount(
        email: String,
        completion: @escaping @Sendable (Result<AccountLookup, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        run({ () async throws(ConnectAPIError) in try await self.lookUpAccount(email: email) }, completion)
    }

    /// Completion-handler form of ``fetchUser(credentialProvider:)``.
    @discardableResult
    public func fetchUser(
        credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<User, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in try await self.fetchUser(credentialProvider: credentialProvider) },
            completion)
    }

    /// Completion-handler form of ``fetchFieldOptions(connectionId:step:credentialProvider:)``.
    @discardableResult
    public func fetchFieldOptions(
        connectionId: String, step: Connection.Step, credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<FieldOptions, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in
                try await self.fetchFieldOptions(
                    connectionId: connectionId, step: step, credentialProvider: credentialProvider)
            }, completion)
    }

    private func run<T: Sendable>(
        _ operation: @escaping @Sendable () async throws(ConnectAPIError) -> T,
        _ completion: @escaping @Sendable (Result<T, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        Task {
            let result: Result<T, ConnectAPIError>
            do throws(ConnectAPIError) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            deliver(result, to: completion)
        }
    }

    private func deliver<T: Sendable>(_ value: T, to completion: @escaping @Sendable (T) -> Void) {
        if let queue = configuration.callbackQueue {
            queue.async { completion(value) }
        } else {
            completion(value)
        }
    }

    // MARK: Sending

    /// Sends an API request and maps non-accepted statuses to typed errors.
    func send(_ request: APIRequest, acceptedStatuses: Set<Int> = []) async throws(ConnectAPIError) -> HTTPResponse {
        let httpRequest = try httpRequest(for: request)
        return try await send(
            httpRequest, loggablePath: request.loggablePath, method: request.method,
            acceptedStatuses: acceptedStatuses, secrets: request.secrets)
    }

    private func send(
        _ httpRequest: HTTPRequest, loggablePath: String, method: String, acceptedStatuses: Set<Int> = [],
        secrets: [String]? = nil
    ) async throws(ConnectAPIError) -> HTTPResponse {
        let secrets = secrets ?? Self.secrets(of: httpRequest)
        let response: HTTPResponse
        do throws(ConnectAPIError) {
            response = try await configuration.transport.send(httpRequest)
        } catch {
            configuration.logHandler?("\(method) \(loggablePath) failed: \(error)")
            throw error
        }
        configuration.logHandler?("\(method) \(loggablePath) -> \(response.statusCode)")
        if acceptedStatuses.contains(response.statusCode) { return response }
        switch response.statusCode {
        case 200..<300 where acceptedStatuses.isEmpty:
            return response
        case 401:
            throw .authenticationFailure(redacted(APIErrorPayload(data: response.body), secrets))
        default:
            throw .apiError(
                statusCode: response.statusCode, payload: redacted(APIErrorPayload(data: response.body), secrets))
        }
    }

    /// The secrets a caller-built request carries in its headers, for redaction.
    private static func secrets(of request: HTTPRequest) -> [String] {
        request.headers.compactMap { name, value -> String? in
            switch name.lowercased() {
            case "authorization":
                return value.hasPrefix("Bearer ") ? String(value.dropFirst(7)) : value
            case "ifttt-invite-code", "ifttt-service-key":
                return value
            default:
                return nil
            }
        }.filter { $0.count >= 4 }
    }

    func httpRequest(for request: APIRequest) throws(ConnectAPIError) -> HTTPRequest {
        try Self.httpRequest(
            for: request, baseURL: configuration.connectBaseURL, anonymousId: configuration.anonymousId,
            timeout: configuration.timeout)
    }

    static func httpRequest(for request: APIRequest, baseURL: URL, anonymousId: String, timeout: Int)
        throws(ConnectAPIError) -> HTTPRequest
    {
        var headers: [String: String] = ["Accept": "application/json"]
        if request.sdkHeaders {
            headers["IFTTT-SDK-Version"] = SDKInfo.version
            headers["IFTTT-SDK-Platform"] = SDKInfo.platform
            headers["IFTTT-SDK-Anonymous-Id"] = anonymousId
        }
        if let token = request.userToken { headers["Authorization"] = "Bearer \(token)" }
        if let invite = request.inviteCode { headers["IFTTT-Invite-Code"] = invite }
        if let key = request.serviceKey { headers["IFTTT-Service-Key"] = key }
        if request.body != nil { headers["Content-Type"] = "application/json" }
        return HTTPRequest(
            method: request.method, url: try request.url(relativeTo: baseURL),
            headers: headers, body: request.body, timeout: timeout)
    }

    private func decodeConnection(_ response: HTTPResponse) throws(ConnectAPIError) -> Connection {
        do throws(ConnectDecodingError) {
            return try Connection.decode(from: response.body)
        } catch {
            throw .invalidResponse(statusCode: response.statusCode, error)
        }
    }

    /// Removes any secret of the request that a server echoed into an error message.
    private func redacted(_ payload: APIErrorPayload?, _ secrets: [String]) -> APIErrorPayload? {
        guard let payload else { return nil }
        guard !secrets.isEmpty else { return payload }
        func clean(_ text: String) -> String {
            secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
        }
        return APIErrorPayload(
            code: clean(payload.code), message: clean(payload.message),
            details: payload.details.map { .init(parameter: $0.parameter.map(clean), message: clean($0.message)) })
    }
}

extension ConnectionNetworkController {
    /// Sends a service-key request for the server-side toolkit and returns the body of a 2xx response.
    /// The key goes only into the `IFTTT-Service-Key` header; errors and logs never contain it.
    package func sendServiceRequest(
        method: String, path: [String], query: [(String, String)] = [],
        serviceKey: String, body: Data? = nil
    ) async throws(ConnectAPIError) -> Data {
        var request = APIRequest(method: method, path: path, query: query, body: body)
        request.serviceKey = serviceKey
        return try await send(request).body
    }
}
