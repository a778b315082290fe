import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP request as the SDK's networking layer describes it.
@_spi(Sandbox) public struct HTTPRequest: Sendable, Hashable {
    /// The method, such as `GET`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields in the order they are set.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// The timeout in whole seconds (URLSession on Linux truncates fractions).
    public var timeout: Int

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: Int = 30) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// An HTTP response: status, headers and the whole body.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public var statusCode: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    @_spi(Sandbox) public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}

/// The network port of the SDK: sends one request and returns the response, whatever its status.
///
/// Implementations throw ``ConnectAPIError`` for transport failures (``ConnectAPIError/timedOut``,
/// ``ConnectAPIError/cancelled``, ``ConnectAPIError/transport(code:description:)``,
/// ``ConnectAPIError/responseTooLarge(limit:)``). Tests can pass their own transport.
@_spi(Sandbox) public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response without following redirects.
    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse
}

/// The default transport, built on an ephemeral `URLSession` that never follows redirects, so that an
/// `Authorization` header is never carried to another origin.
@_spi(Sandbox) public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    /// The largest response body accepted, in bytes.
    public let maximumResponseBytes: Int

    /// Creates a transport. `maximumResponseBytes` defaults to 8 MiB.
    public init(maximumResponseBytes: Int = 8 * 1024 * 1024) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Accept": "application/json"]
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
        self.maximumResponseBytes = maximumResponseBytes
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request`; redirects come back as 3xx responses.
    public func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let data: Data
        let response: URLResponse
        do {
            try Task.checkCancellation()
            (data, response) = try await session.data(for: Self.urlRequest(for: request))
        } catch {
            throw ConnectAPIError(transportError: error)
        }
        return try httpResponse(data, response)
    }

    /// Starts `request` as a `URLSessionDataTask` of this transport's session (the 2.8 calls that return the
    /// task); `completion` runs once, on the session's queue, with what ``send(_:)`` returns or throws.
    /// Cancelling the task completes with ``ConnectAPIError/cancelled``.
    package func dataTask(
        for request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, ConnectAPIError>) -> Void
    ) -> URLSessionDataTask {
        let task = session.dataTask(with: Self.urlRequest(for: request)) { data, response, error in
            if let error {
                completion(.failure(ConnectAPIError(transportError: error)))
                return
            }
            do throws(ConnectAPIError) {
                completion(.success(try self.httpResponse(data ?? Data(), response)))
            } catch {
                completion(.failure(error))
            }
        }
        task.resume()
        return task
    }

    private static func urlRequest(for request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = TimeInterval(max(1, request.timeout))
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    private func httpResponse(_ data: Data, _ response: URLResponse?) throws(ConnectAPIError) -> HTTPResponse {
        guard let http = response as? HTTPURLResponse else {
            throw .transport(code: 0, description: "The response was not HTTP")
        }
        guard data.count <= maximumResponseBytes else {
            throw .responseTooLarge(limit: maximumResponseBytes)
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return HTTPResponse(statusCode: http.statusCode, headers: headers, body: data)
    }
}

private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

extension ConnectAPIError {
    /// Maps an error thrown by URLSession or Swift concurrency to a typed error.
    init(transportError error: any Error) {
        if error is CancellationError {
            self = .cancelled
            return
        }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cancelled: self = .cancelled
            case .timedOut: self = .timedOut
            default: self = .transport(code: urlError.code.rawValue, description: urlError.localizedDescription)
            }
            return
        }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            switch nsError.code {
            case NSURLErrorCancelled: self = .cancelled
            case NSURLErrorTimedOut: self = .timedOut
            default: self = .transport(code: nsError.code, description: nsError.localizedDescription)
            }
            return
        }
        self = .transport(code: nsError.code, description: String(describing: type(of: error)))
    }
}
