import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// An `HTTPTransport` for tests: records every request and answers from a closure,
/// without any network.
///
/// ```swift
/// let transport = RecordingTransport(status: 200, body: connectionJSON)
/// let controller = ConnectionNetworkController(configuration: .init(transport: transport))
/// _ = try await controller.fetchConnection(for: "c1", credentialProvider: ConnectionCredentials.anonymous)
/// #expect(transport.requests.first?.url.path == "/v2/connections/c1")
/// ```
@_spi(Sandbox) public final class RecordingTransport: HTTPTransport, Sendable {
    private let recorded = Locked<[HTTPRequest]>([])
    // The answer is kept as a function returning a `Result`, not as the typed-throws function it is given: a stored
    // property of a typed-throws function type makes this class's metadata accessor call the Swift runtime's
    // `swift_getExtendedFunctionTypeMetadata`, which iOS has only from 18, unguarded (reflecting a transport with
    // `dump` or `Mirror` on iOS 13-17 would jump to address 0). scripts/checks/45-ios-availability.sh keeps
    // such properties out of the products; scripts/check-ios-sdk.sh checks the symbol in their objects.
    private let answer: @Sendable (HTTPRequest) -> Result<HTTPResponse, ConnectAPIError>

    /// Creates a transport that answers each request with `answer`, which may throw a transport error.
    public init(answer: @escaping @Sendable (HTTPRequest) throws(ConnectAPIError) -> HTTPResponse) {
        self.answer = { request in
            do throws(ConnectAPIError) {
                return .success(try answer(request))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Creates a transport that answers every request with `status` and `body`.
    public convenience init(status: Int = 200, body: String) {
        self.init { _ in HTTPResponse(statusCode: status, body: Data(body.utf8)) }
    }

    /// The requests sent so far, in order.
    public var requests: [HTTPRequest] { recorded.withLock { $0 } }

    /// Records `request` and answers it.
    public func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        // A switch rather than `Result.get()`, which rethrows its Failure type only in Swift 6's standard library.
        switch answer(request) {
        case .success(let response): return response
        case .failure(let error): throw error
        }
    }
}

/// Collects log lines from any thread, for asserting that logs hold no secret.
@_spi(Sandbox) public final class LogCapture: Sendable {
    private let captured = Locked<[String]>([])

    /// Creates an empty capture.
    public init() {}

    /// A handler to pass wherever the SDK takes a log handler.
    public var handler: @Sendable (String) -> Void { { [captured] line in captured.withLock { $0.append(line) } } }
    /// Every line captured, in order.
    public var lines: [String] { captured.withLock { $0 } }
    /// Everything captured, one line per entry.
    public var text: String { captured.withLock { $0.joined(separator: "\n") } }
    /// How many lines were captured.
    public var count: Int { captured.withLock { $0.count } }
}
