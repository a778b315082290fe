import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore

/// Builders and test doubles for the activation tests.
enum ActivationFixtures {
    static let redirectURL = URL(string: "groceryexpress://ifttt/callback")!
    static let token = "tok-9f8e7d6c5b4a39281706f5e4d3c2b1a0"

    static func connection(_ status: Connection.Status = .initial, id: String = "c1") -> Connection {
        // The services array always has a primary service, so this cannot throw.
        try! Connection(
            id: id, name: "Arrive", description: "D", url: URL(string: "https://ifttt.com/\(id)")!, status: status,
            services: [Connection.Service(id: "gx", name: "Grocery Express", isPrimary: true)])
    }

    static func connectionJSON(_ status: String = "never_enabled", id: String = "c1") -> Data {
        Data(
            #"{"type":"connection","id":"\#(id)","name":"N","description":"D","url":"https://ifttt.com/\#(id)","user_status":"\#(status)","services":[{"service_id":"gx","service_name":"Grocery Express","is_primary":true}]}"#
                .utf8)
    }

    static func urls(redirect: URL = redirectURL, skip: Bool = false) -> ActivationURLBuilder {
        ActivationURLBuilder(
            connectionId: "c1", redirectURL: redirect, skipConfiguration: skip, localeIdentifier: "en-US",
            anonymousId: "anon-1")
    }

    static func attempt(
        token: Bool = false, app: Bool = false, nonce: String = "0123456789abcdef0123456789abcdef",
        session: UUID = UUID(), invite: String? = nil, mailApps: [String] = []
    ) -> ActivationFlow.Attempt {
        ActivationFlow.Attempt(
            sessionId: session, nonce: RedirectNonce(value: nonce), appInstalled: app, hasUserToken: token,
            credentials: .init(oauthCode: "oauth+code", inviteCode: invite), installedMailApps: mailApps)
    }

    /// The query items of `url`, decoded, in order.
    static func query(_ url: URL) -> [(String, String)] {
        (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }

    static func value(_ name: String, in url: URL) -> String? {
        query(url).first { $0.0 == name }?.1
    }
}

/// A transport that answers Connect API paths from a table and records the requests.
final class ScriptedTransport: HTTPTransport, Sendable {
    private struct State {
        var recorded: [HTTPRequest] = []
        var routes: [String: HTTPResponse]
    }

    private let state: Locked<State>

    init(_ routes: [String: HTTPResponse] = [:]) {
        state = Locked(State(routes: routes))
    }

    var requests: [HTTPRequest] { state.withLock { $0.recorded } }

    func set(_ key: String, _ response: HTTPResponse) {
        state.withLock { $0.routes[key] = response }
    }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let key = request.method + " " + request.url.path
        let response: HTTPResponse? = state.withLock { state in
            state.recorded.append(request)
            return state.routes[key]
        }
        guard let response else { throw .transport(code: -1004, description: "no route for \(key)") }
        return response
    }
}

extension RedirectVerifier {
    /// For tests of the registry's routing: the flow's own user token vouches, and the Connect API says the
    /// Connection is on for its user, so every `complete` redirect that reaches the entry finishes it.
    static func vouchingForTests(connectionId: String = "c1") -> RedirectVerifier {
        let api = ScriptedTransport([
            "GET /v2/connections/\(connectionId)": HTTPResponse(
                statusCode: 200, body: ActivationFixtures.connectionJSON("enabled", id: connectionId))
        ])
        return RedirectVerifier(
            voucher: .startingToken(RedactedToken(value: "tok-vouched")),
            network: ConnectionNetworkController(
                configuration: .init(
                    transport: api, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
                    callbackQueue: nil)),
            connectionId: connectionId, inviteCode: nil, userVerifier: nil, allowsUnvouchedToken: false)
    }
}

extension ConnectionRedirectHandler {
    /// Submits `url` and waits for its verdict: whether it was taken, and whether it finished a flow.
    func verdict(for url: URL) async -> (taken: Bool, accepted: Bool) {
        let verdict = AsyncStream<Bool>.makeStream()
        let taken = submit(url) { verdict.continuation.yield($0) }
        var iterator = verdict.stream.makeAsyncIterator()
        return (taken, await iterator.next() ?? false)
    }
}
