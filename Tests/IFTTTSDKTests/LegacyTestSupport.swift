import Foundation
import IFTTTConnectSDK
import IFTTTSDK
import Testing

/// A transport that records every request and answers from a closure.
final class FakeTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []
    private let answer: @Sendable (HTTPRequest) throws(ConnectionNetworkError) -> HTTPResponse

    init(answer: @escaping @Sendable (HTTPRequest) throws(ConnectionNetworkError) -> HTTPResponse) {
        self.answer = answer
    }

    /// Answers every request with `status` and `body`.
    convenience init(status: Int = 200, body: String) {
        self.init { _ in HTTPResponse(statusCode: status, body: Data(body.utf8)) }
    }

    var requests: [HTTPRequest] { lock.withLock { recorded } }

    func send(_ request: HTTPRequest) async throws(ConnectionNetworkError) -> HTTPResponse {
        lock.withLock { recorded.append(request) }
        return try answer(request)
    }
}

/// Collects log lines from any thread.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var handler: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
    var count: Int { lock.withLock { lines.count } }
}

enum LegacyFixtures {
    static func appletJSON() throws -> String {
        String(decoding: try AppletDecodingTests.fixture(), as: UTF8.self)
    }

    static func listJSON(count: Int = 2) throws -> String {
        let applet = try appletJSON()
        return #"{"type":"list","data":["# + Array(repeating: applet, count: count).joined(separator: ",") + "]}"
    }

    /// The fixture with one top-level member replaced by raw JSON.
    static func appletJSON(replacing key: String, with json: String) throws -> String {
        var object = try #require(try JSONParser().parse(AppletDecodingTests.fixture()).objectValue)
        object[key] = try JSONParser().parse(Data(json.utf8))
        return JSONValue.object(object).serialized()
    }

    static let base = URL(string: "http://127.0.0.1:8080")!

    static func manager(_ transport: FakeTransport, slug: String? = "ifttt_api_example", token: String? = nil,
                        invite: String? = nil, log: LogCapture? = nil) -> IFTTTAPIManager {
        let manager = IFTTTAPIManager(baseURL: base, transport: transport, anonymousId: "anon-1",
                                      callbackQueue: nil, logHandler: log?.handler)
        manager.serviceSlug = slug
        manager.userToken = token
        manager.inviteCode = invite
        return manager
    }
}
