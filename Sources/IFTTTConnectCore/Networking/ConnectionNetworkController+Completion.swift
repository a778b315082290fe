import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The completion-handler forms of the controller's calls (ConnectSDK-iOS 2.8's style), each a thin wrapper
/// that runs the `async` form in a task and delivers its result on ``ConnectionNetworkController/Configuration/callbackQueue``
/// (or, for `start(request:completion:)` and `start(urlRequest:completion:)`, on the main actor).
extension ConnectionNetworkController {
    /// Sends a ``Connection/Request`` and calls `completion` once with the ``Response`` on the main actor, as
    /// ConnectSDK-iOS 2.8 did, so the completion can create a ``ConnectButtonController`` or update UI.
    /// Cancel the returned task to cancel the request.
    ///
    /// ```swift
    /// controller.start(request: .fetchConnection(for: "gx-arrive-store", credentialProvider: credentials)) { response in
    ///     switch response.result {
    ///     case .success(let connection): print(connection.name, response.statusCode)
    ///     case .failure(let error): print(error.apiError?.statusCode ?? -1, error)
    ///     }
    /// }
    /// ```
    ///
    /// Where the result is stored as 2.8's `URLSessionDataTask` (`var task: URLSessionDataTask?`), the
    /// data-task form is used instead.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - completion: Called once, on the main actor.
    /// - Returns: The task that runs the request.
    @discardableResult
    @_spi(Sandbox) public func start(request: Connection.Request, completion: @escaping CompletionHandler) -> Task<
        Void, Never
    > {
        let apiRequest = request.apiRequest
        return task(build: { () throws(ConnectAPIError) in try self.httpRequest(for: apiRequest) }, completion)
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
    @_spi(Sandbox) public func start(urlRequest: URLRequest, completion: @escaping CompletionHandler) -> Task<
        Void, Never
    > {
        let request = Self.httpRequest(from: urlRequest, timeout: configuration.timeout)
        return task(build: { () throws(ConnectAPIError) in try Self.required(request) }, completion)
    }

    /// Sends a ``Connection/Request`` as ConnectSDK-iOS 2.8 did: the request runs as a data task of the SDK's
    /// `URLSession`, cancelling it completes with ``ConnectAPIError/cancelled``, and `completion` runs once, on the
    /// main actor, with the ``Response``.
    ///
    /// ```swift
    /// task = controller.start(request: .fetchConnection(for: "gx-arrive-store", credentialProvider: credentials)) {
    ///     response in
    ///     if case .success(let connection) = response.result { print(connection.name, response.statusCode) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - completion: Called once, on the main actor.
    /// - Returns: The running data task (`nil` only when the SDK was set up without `URLSession`, in its tests).
    @_disfavoredOverload @discardableResult
    public func start(request: Connection.Request, completion: @escaping ConnectionResponseClosure)
        -> URLSessionDataTask?
    {
        let apiRequest = request.apiRequest
        return dataTask(build: { () throws(ConnectAPIError) in try self.httpRequest(for: apiRequest) }, completion)
    }

    /// Sends a `URLRequest` you built (for example from ``Connection/Request/urlRequest``) and decodes the
    /// Connection in the answer, as ConnectSDK-iOS 2.8 did; see ``start(request:completion:)``.
    ///
    /// - Parameters:
    ///   - urlRequest: The request; it needs a URL.
    ///   - completion: Called once, on the main actor.
    /// - Returns: The running data task, or `nil` when the request has no URL.
    @_disfavoredOverload @discardableResult
    public func start(urlRequest: URLRequest, completion: @escaping ConnectionResponseClosure) -> URLSessionDataTask? {
        let request = Self.httpRequest(from: urlRequest, timeout: configuration.timeout)
        return dataTask(build: { () throws(ConnectAPIError) in try Self.required(request) }, completion)
    }

    private static func required(_ request: HTTPRequest?) throws(ConnectAPIError) -> HTTPRequest {
        guard let request else { throw .invalidRequest("the URLRequest has no URL") }
        return request
    }

    private func task(
        build: @escaping @Sendable () throws(ConnectAPIError) -> HTTPRequest,
        _ completion: @escaping CompletionHandler
    ) -> Task<Void, Never> {
        Task {
            let response: Response
            do throws(ConnectAPIError) {
                let request = try build()
                let result: Result<HTTPResponse, ConnectAPIError>
                do throws(ConnectAPIError) {
                    result = .success(try await self.configuration.transport.send(request))
                } catch {
                    result = .failure(error)
                }
                response = self.response(from: result, of: request)
            } catch {
                response = Response(statusCode: -1, result: .failure(ConnectionNetworkError(error)))
            }
            await MainActor.run { completion(response) }
        }
    }

    private func dataTask(
        build: @escaping @Sendable () throws(ConnectAPIError) -> HTTPRequest,
        _ completion: @escaping CompletionHandler
    ) -> URLSessionDataTask? {
        guard let transport = configuration.transport as? URLSessionTransport else {
            _ = task(build: build, completion)
            return nil
        }
        let request: HTTPRequest
        do throws(ConnectAPIError) {
            request = try build()
        } catch {
            let response = Response(statusCode: -1, result: .failure(ConnectionNetworkError(error)))
            Task { @MainActor in completion(response) }
            return nil
        }
        return transport.dataTask(for: request) { result in
            let response = self.response(from: result, of: request)
            Task { @MainActor in completion(response) }
        }
    }

    /// The 2.8 ``Response`` of a request's outcome: the status as answered, the Connection or the typed error.
    private func response(from result: Result<HTTPResponse, ConnectAPIError>, of request: HTTPRequest) -> Response {
        do throws(ConnectAPIError) {
            let http = try checked(result, of: request, loggablePath: request.url.path, method: request.method)
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
    @_spi(Sandbox) public func fetchConnection(
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
    @_spi(Sandbox) public func disconnectConnection(
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
    @_spi(Sandbox) public func enableConnection(
        with id: String, credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<Connection, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in
                try await self.enableConnection(with: id, credentialProvider: credentialProvider)
            }, completion)
    }

    /// Completion-handler form of ``lookUpAccount(email:)``.
    @discardableResult
    @_spi(Sandbox) public func lookUpAccount(
        email: String,
        completion: @escaping @Sendable (Result<AccountLookup, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        run({ () async throws(ConnectAPIError) in try await self.lookUpAccount(email: email) }, completion)
    }

    /// Completion-handler form of ``fetchUser(credentialProvider:)``.
    @discardableResult
    @_spi(Sandbox) public func fetchUser(
        credentialProvider: any ConnectionCredentialProvider,
        completion: @escaping @Sendable (Result<User, ConnectAPIError>) -> Void
    ) -> Task<Void, Never> {
        let credentialProvider = ConnectionCredentials(snapshotOf: credentialProvider)
        return run(
            { () async throws(ConnectAPIError) in try await self.fetchUser(credentialProvider: credentialProvider) },
            completion)
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
