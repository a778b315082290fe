import Foundation
@testable import IFTTTConnectSDK

/// Builders and test doubles for the activation tests.
enum ActivationFixtures {
    static let redirectURL = URL(string: "groceryexpress://ifttt/callback")!
    static let token = "tok-9f8e7d6c5b4a39281706f5e4d3c2b1a0"

    static func connection(_ status: Connection.Status = .initial, id: String = "c1") -> Connection {
        // The services array always has a primary service, so this cannot throw.
        try! Connection(id: id, name: "Arrive", description: "D", url: URL(string: "https://ifttt.com/\(id)")!, status: status,
                        services: [Connection.Service(id: "gx", name: "Grocery Express", isPrimary: true)])
    }

    static func connectionJSON(_ status: String = "never_enabled", id: String = "c1") -> Data {
        Data(#"{"type":"connection","id":"\#(id)","name":"N","description":"D","url":"https://ifttt.com/\#(id)","user_status":"\#(status)","services":[{"service_id":"gx","service_name":"Grocery Express","is_primary":true}]}"#.utf8)
    }

    static func urls(redirect: URL = redirectURL, skip: Bool = false) -> ActivationURLBuilder {
        ActivationURLBuilder(connectionId: "c1", redirectURL: redirect, skipConfiguration: skip, localeIdentifier: "en-US",
                             anonymousId: "anon-1")
    }

    static func attempt(token: Bool = false, app: Bool = false, nonce: String = "0123456789abcdef0123456789abcdef",
                        session: UUID = UUID(), invite: String? = nil, mailApps: [String] = []) -> ActivationFlow.Attempt {
        ActivationFlow.Attempt(sessionId: session, nonce: RedirectNonce(value: nonce), appInstalled: app, hasUserToken: token,
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

/// A clock that moves only when the test says so.
final class ManualClock: ActivationClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: UInt64 = 1_000
    private var sleepers: [(UInt64, CheckedContinuation<Void, Never>)] = []

    var nowMilliseconds: UInt64 { lock.withLock { current } }

    func sleep(untilMilliseconds deadline: UInt64) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = lock.withLock {
                if deadline <= current { return true }
                sleepers.append((deadline, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func advance(by milliseconds: UInt64) {
        let due: [CheckedContinuation<Void, Never>] = lock.withLock {
            current += milliseconds
            let ready = sleepers.filter { $0.0 <= current }.map(\.1)
            sleepers.removeAll { $0.0 <= current }
            return ready
        }
        due.forEach { $0.resume() }
    }
}

/// Collects log lines from every component.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    var handler: @Sendable (String) -> Void { { [self] line in lock.withLock { stored.append(line) } } }
}

/// A transport that answers Connect API paths from a table and records the requests.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []
    private var routes: [String: HTTPResponse]

    init(_ routes: [String: HTTPResponse] = [:]) {
        self.routes = routes
    }

    var requests: [HTTPRequest] { lock.withLock { recorded } }

    func set(_ key: String, _ response: HTTPResponse) {
        lock.withLock { routes[key] = response }
    }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let key = request.method + " " + request.url.path
        let response: HTTPResponse? = lock.withLock {
            recorded.append(request)
            return routes[key]
        }
        guard let response else { throw .transport(code: -1004, description: "no route for \(key)") }
        return response
    }
}

/// Opens nothing; records what it was asked to open.
@MainActor
final class FakeURLOpener: URLOpener {
    var installed: Set<String>
    var opened: [URL] = []
    var openSucceeds = true

    init(installed: Set<String> = []) {
        self.installed = installed
    }

    func canOpen(_ url: URL) -> Bool { installed.contains(url.scheme ?? "") }

    func open(_ url: URL) async -> Bool {
        opened.append(url)
        return openSucceeds
    }
}

/// A web session that records its URL and lets the test end it.
@MainActor
final class FakeWebSession: WebAuthenticationSession {
    var started: [URL] = []
    var dismissCount = 0
    var onStart: (@MainActor (URL) -> Void)?
    private var completion: (@MainActor (WebAuthenticationSessionResult) -> Void)?

    func start(url: URL, callbackURLScheme: String?, completion: @escaping @MainActor (WebAuthenticationSessionResult) -> Void) {
        started.append(url)
        self.completion = completion
        onStart?(url)
    }

    func dismiss() {
        dismissCount += 1
        completion = nil
    }

    func end(_ result: WebAuthenticationSessionResult) {
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}

/// Records every delegate call.
@MainActor
final class RecordingDelegate: ConnectButtonControllerDelegate {
    var activations: [Result<ConnectionActivation, ConnectButtonControllerError>] = []
    var deactivations: [Result<Connection, ConnectButtonControllerError>] = []

    func connectButtonController(_ connectButtonController: ConnectButtonController,
                                 didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>) {
        activations.append(result)
    }

    func connectButtonController(_ connectButtonController: ConnectButtonController,
                                 didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>) {
        deactivations.append(result)
    }
}
