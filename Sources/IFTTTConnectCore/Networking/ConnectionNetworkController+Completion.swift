import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The completion-handler forms of the controller's calls (ConnectSDK-iOS 2.8's style), each a thin wrapper
/// that runs the `async` form in a task and delivers its result on ``ConnectionNetworkController/Configuration/callbackQueue``
/// (or, for ``ConnectionNetworkController/start(request:completion:)``, on the main actor).
extension ConnectionNetworkController {
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

    func response(for build: () throws(ConnectAPIError) -> HTTPRequest) async -> Response {
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

    func run<T: Sendable>(
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

    func deliver<T: Sendable>(_ value: T, to completion: @escaping @Sendable (T) -> Void) {
        if let queue = configuration.callbackQueue {
            queue.async { completion(value) }
        } else {
            completion(value)
        }
    }
}
