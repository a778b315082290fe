import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ConnectSDK-iOS 2.8's JSON request helper: sends a `URLRequest` through the SDK's transport and hands back the
/// status, the headers and the body, whatever the status (only failures below HTTP are errors).
///
/// ```swift
/// let network = JSONNetworkController()
/// network.json(urlRequest: URLRequest(url: URL(string: "https://connect.ifttt.com/v2/me")!)) { result in
///     if case .success(let response) = result, response.isValidResponse {
///         print(String(decoding: response.body, as: UTF8.self))
///     }
/// }
/// ```
///
/// In 2.8 it was the superclass of ``ConnectionNetworkController``; here it is a class of its own, and
/// `ConnectionNetworkController/json(urlRequest:completionHandler:)` forwards to one with the same
/// configuration. Apps that fetch Connections prefer the `async` calls of ``ConnectionNetworkController``.
public final class JSONNetworkController: Sendable {
    /// The closure ``json(urlRequest:completionHandler:)`` calls once, on the main actor, with the response or the
    /// ``ConnectAPIError`` that kept it from arriving.
    public typealias CompletionClosure = @MainActor (Result<Response, any Error>) -> Void

    /// 2.8's name of the response: the SDK's ``HTTPResponse`` (status, headers, body). A status in `200..<300`
    /// is a success; 401 means IFTTT refused the user token.
    public typealias Response = HTTPResponse

    /// Where and how requests are sent: the transport, the timeout and the log handler are used.
    @_spi(Sandbox) public var configuration: ConnectionNetworkController.Configuration { controller.configuration }

    private let controller: ConnectionNetworkController

    /// Creates a controller.
    ///
    /// - Parameter configuration: The transport, timeout and log handler; production defaults.
    public init(configuration: ConnectionNetworkController.Configuration = .init()) {
        controller = ConnectionNetworkController(configuration: configuration)
    }

    /// Sends `urlRequest` and returns the response, whatever its status.
    ///
    /// - Parameter urlRequest: The request; it needs a URL. Its timeout is used when it is between 1 s and 1 h,
    ///   the configuration's otherwise.
    /// - Returns: The response.
    /// - Throws: ``ConnectAPIError/invalidRequest(_:)`` without a URL, or the transport's failure (timeout,
    ///   cancellation, no connection, a body over the transport's limit).
    @_spi(Sandbox) public func json(urlRequest: URLRequest) async throws(ConnectAPIError) -> Response {
        let request = try Self.request(from: urlRequest, timeout: configuration.timeout)
        let result: Result<HTTPResponse, ConnectAPIError>
        do throws(ConnectAPIError) {
            result = .success(try await configuration.transport.send(request))
        } catch {
            result = .failure(error)
        }
        return try response(from: result, of: request)
    }

    /// Sends `urlRequest` and calls `completionHandler` once, on the main actor, with the response whatever its
    /// status, or with the ``ConnectAPIError`` that kept it from arriving (as 2.8 did, with the SDK's typed
    /// errors).
    ///
    /// - Parameters:
    ///   - urlRequest: The request; it needs a URL.
    ///   - completionHandler: Called once, on the main actor; `nil` sends without telling anyone.
    /// - Returns: The running `URLSessionDataTask` (cancel it to cancel the request, which then completes with
    ///   ``ConnectAPIError/cancelled``), or `nil` when the request has no URL.
    @discardableResult
    public func json(urlRequest: URLRequest, completionHandler: CompletionClosure?) -> URLSessionDataTask? {
        let complete: @Sendable (Result<Response, ConnectAPIError>) -> Void = { result in
            guard let completionHandler else { return }
            Task { @MainActor in completionHandler(result.mapError { $0 as any Error }) }
        }
        let request: HTTPRequest
        do throws(ConnectAPIError) {
            request = try Self.request(from: urlRequest, timeout: configuration.timeout)
        } catch {
            complete(.failure(error))
            return nil
        }
        guard let transport = configuration.transport as? URLSessionTransport else {
            Task {
                do throws(ConnectAPIError) {
                    complete(.success(try await self.json(urlRequest: urlRequest)))
                } catch {
                    complete(.failure(error))
                }
            }
            return nil
        }
        return transport.dataTask(for: request) { result in
            do throws(ConnectAPIError) {
                complete(.success(try self.response(from: result, of: request)))
            } catch {
                complete(.failure(error))
            }
        }
    }

    private static func request(from urlRequest: URLRequest, timeout: Int) throws(ConnectAPIError) -> HTTPRequest {
        guard let request = ConnectionNetworkController.httpRequest(from: urlRequest, timeout: timeout) else {
            throw .invalidRequest("the URLRequest has no URL")
        }
        return request
    }

    /// Logs the request's outcome (method, path and status, as every SDK request) and accepts every status.
    private func response(from result: Result<HTTPResponse, ConnectAPIError>, of request: HTTPRequest)
        throws(ConnectAPIError) -> Response
    {
        try controller.checked(
            result, of: request, loggablePath: request.url.path, method: request.method,
            acceptedStatuses: Self.everyStatus)
    }

    private static let everyStatus = Set(0...999)
}

extension ConnectionNetworkController {
    /// ConnectSDK-iOS 2.8's `JSONNetworkController.json(urlRequest:completionHandler:)`, which this controller
    /// inherited in 2.8: sends `urlRequest` with this controller's configuration and hands back the response
    /// whatever its status; see ``JSONNetworkController/json(urlRequest:completionHandler:)``.
    ///
    /// - Parameters:
    ///   - urlRequest: The request; it needs a URL.
    ///   - completionHandler: Called once, on the main actor.
    /// - Returns: The running data task, or `nil` when the request has no URL.
    @discardableResult
    public func json(
        urlRequest: URLRequest, completionHandler: JSONNetworkController.CompletionClosure?
    ) -> URLSessionDataTask? {
        JSONNetworkController(configuration: configuration).json(
            urlRequest: urlRequest, completionHandler: completionHandler)
    }
}

extension HTTPResponse {
    /// The body as JSON, or `nil` when it is empty or not JSON (read with the SDK's bounded parser).
    @_spi(Sandbox) public var json: JSONValue? { try? JSONParser().parse(body) }
    /// Whether the status is in `200..<300`.
    @_spi(Sandbox) public var isValidResponse: Bool { (200..<300).contains(statusCode) }
    /// Whether the status is 401, IFTTT's answer to a missing or rejected user token.
    @_spi(Sandbox) public var isAuthenticationFailure: Bool { statusCode == 401 }
}
