import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting

/// ConnectSDK-iOS 2.8's networking shapes: `JSONNetworkController`, `ConnectionResponseClosure` and the
/// `start(...)` forms that return a `URLSessionDataTask`. The URLSession path runs against the sandbox in the
/// Sandbox package's `Compat28EndToEndTests`; here the other transports, which have no URLSession task.
@Suite("2.8 networking shapes with a test transport")
struct Networking28Tests {
    static func configuration(_ transport: RecordingTransport, _ log: LogCapture?)
        -> ConnectionNetworkController.Configuration
    {
        ConnectionNetworkController.Configuration(
            transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
            callbackQueue: nil, logHandler: log?.handler)
    }

    @Test(arguments: [200, 204, 401, 404, 500])
    func jsonHandsBackEveryStatusWithItsBody(status: Int) async throws {
        let transport = RecordingTransport { _ in
            HTTPResponse(
                statusCode: status, headers: ["x-request-id": "r1"], body: Data(#"{"login":"alice","n":[1,2]}"#.utf8))
        }
        let network = JSONNetworkController(configuration: Self.configuration(transport, nil))
        let response = try await network.json(urlRequest: URLRequest(url: URL(string: "https://api.test/v2/me")!))
        #expect(response.statusCode == status)
        #expect(response.headers["x-request-id"] == "r1")
        #expect(response.json?["login"]?.stringValue == "alice")
        #expect(response.isValidResponse == (200..<300).contains(status))
        #expect(response.isAuthenticationFailure == (status == 401))
    }

    @Test func jsonOfABodyThatIsNotJSONIsNil() async throws {
        let network = JSONNetworkController(
            configuration: Self.configuration(RecordingTransport(status: 502, body: "<html>bad gateway</html>"), nil))
        let response = try await network.json(urlRequest: URLRequest(url: URL(string: "https://api.test/v2/me")!))
        #expect(response.statusCode == 502)
        #expect(response.json == nil)
        #expect(String(decoding: response.body, as: UTF8.self) == "<html>bad gateway</html>")
    }

    @Test func theCompletionFormRunsOnceOnTheMainActorAndReturnsNoTaskWithoutURLSession() async throws {
        let transport = RecordingTransport(status: 200, body: "{}")
        let network = JSONNetworkController(configuration: Self.configuration(transport, nil))
        let (results, sink) = AsyncStream.makeStream(of: Int.self)
        let task = network.json(urlRequest: URLRequest(url: URL(string: "https://api.test/v2/me")!)) { result in
            MainActor.assertIsolated()
            sink.yield((try? result.get())?.statusCode ?? -1)
            sink.finish()
        }
        #expect(task == nil)
        var received: [Int] = []
        for await status in results { received.append(status) }
        #expect(received == [200])
        #expect(transport.requests.map(\.url.path) == ["/v2/me"])
    }

    @Test func transportFailuresAreTheErrors() async {
        let transport = RecordingTransport { _ throws(ConnectAPIError) in throw .timedOut }
        let network = JSONNetworkController(configuration: Self.configuration(transport, nil))
        await #expect(throws: ConnectAPIError.timedOut) {
            try await network.json(urlRequest: URLRequest(url: URL(string: "https://api.test/v2/me")!))
        }
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            ConnectionNetworkController(configuration: Self.configuration(transport, nil)).json(
                urlRequest: URLRequest(url: URL(string: "https://api.test/v2/me")!)
            ) { result in
                if case .failure(let error) = result { continuation.resume(returning: "\(error)") }
            }
        }
        #expect(error == "\(ConnectAPIError.timedOut)")
    }

    @Test func aRequestWithoutAURLCompletesWithAnInvalidRequest() async {
        var request = URLRequest(url: URL(string: "https://api.test")!)
        request.url = nil
        let transport = RecordingTransport(status: 200, body: "{}")
        let network = JSONNetworkController(configuration: Self.configuration(transport, nil))
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let task = network.json(urlRequest: request) { result in
                if case .failure(ConnectAPIError.invalidRequest) = result { continuation.resume(returning: true) }
            }
            #expect(task == nil)
        }
        #expect(outcome)
        #expect(transport.requests.isEmpty)
    }

    @Test func theLogHasMethodPathAndStatusNeverTheQueryOrToken() async throws {
        let log = LogCapture()
        let network = JSONNetworkController(
            configuration: Self.configuration(RecordingTransport(status: 401, body: "{}"), log))
        var request = URLRequest(url: URL(string: "https://api.test/v2/me?token=secret-query")!)
        request.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization")
        _ = try await network.json(urlRequest: request)
        #expect(log.lines == ["GET /v2/me -> 401"])
    }

    /// Where 2.8 code stores the result as a `URLSessionDataTask?`, the 2.8 form is chosen; with a test transport
    /// there is no URLSession task, and the request still completes once on the main actor.
    @Test func aURLSessionDataTaskContextPicksThe28FormWhichStillCompletes() async {
        let transport = RecordingTransport(
            status: 200, body: String(decoding: NetworkControllerTests.connectionBody, as: UTF8.self))
        let controller = ConnectionNetworkController(configuration: Self.configuration(transport, nil))
        let closure: ConnectionNetworkController.ConnectionResponseClosure = { _ in }
        _ = closure
        let id = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            var task: URLSessionDataTask?
            task = controller.start(
                request: .fetchConnection(for: "c1", credentialProvider: ConnectionCredentials.anonymous)
            ) { response in
                MainActor.assertIsolated()
                continuation.resume(returning: try? response.result.get().id)
            }
            #expect(task == nil)
        }
        #expect(id == "c1")
        // A bare call keeps the 3.0 form, whose task can be awaited.
        let running = controller.start(urlRequest: URLRequest(url: URL(string: "https://api.test/v2/connections/c1")!))
        {
            _ in
        }
        await running.value
        #expect(transport.requests.count == 2)
    }
}
