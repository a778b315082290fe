import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// A fake IFTTT: serves Connections by id, accepts location uploads, and can answer 401, fail with an error
/// that echoes a secret, or hold requests until they are released or cancelled.
final class FakeIFTTT: HTTPTransport, Sendable {
    struct Trigger {
        var id: String
        var latitude: Double
        var longitude: Double
        var radius: Double = 200
    }

    private struct State {
        var connections: [String: (status: String, triggers: [Trigger])] = [:]
        var recorded: [HTTPRequest] = []
        var held: [Int: CheckedContinuation<Result<HTTPResponse, ConnectAPIError>, Never>] = [:]
        var cancelledBeforeHeld: Set<Int> = []
        var arrivalWaiters: [(Int, CheckedContinuation<Void, Never>)] = []
        var cancelled = 0
        var fetchStatus: Int?
        var uploadStatus = 200
        var hold = false
        var fail: String?
    }

    private let state = Locked(State())
    var fetchStatus: Int? {
        get { state.withLock { $0.fetchStatus } }
        set { state.withLock { $0.fetchStatus = newValue } }
    }
    var uploadStatus: Int {
        get { state.withLock { $0.uploadStatus } }
        set { state.withLock { $0.uploadStatus = newValue } }
    }
    var holdRequests: Bool {
        get { state.withLock { $0.hold } }
        set { state.withLock { $0.hold = newValue } }
    }
    var failWithDescription: String? {
        get { state.withLock { $0.fail } }
        set { state.withLock { $0.fail = newValue } }
    }

    func setConnection(_ id: String, status: String = "enabled", triggers: [Trigger]) {
        state.withLock { $0.connections[id] = (status, triggers) }
    }

    var requests: [HTTPRequest] { state.withLock { $0.recorded } }
    var cancelledCount: Int { state.withLock { $0.cancelled } }
    var heldCount: Int { state.withLock { $0.held.count } }
    func requests(to pathSuffix: String) -> [HTTPRequest] { requests.filter { $0.url.path.hasSuffix(pathSuffix) } }

    /// Waits (without sleeping) until `count` requests are held.
    func waitForHeld(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = state.withLock {
                if $0.held.count >= count { return true }
                $0.arrivalWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Answers every held request.
    func releaseAll() {
        let waiting: [(Int, CheckedContinuation<Result<HTTPResponse, ConnectAPIError>, Never>)] = state.withLock {
            state in
            state.hold = false
            defer { state.held = [:] }
            return state.held.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        for (id, continuation) in waiting {
            continuation.resume(returning: .success(respond(to: state.withLock { $0.recorded[id] })))
        }
    }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let (id, hold, fail): (Int, Bool, String?) = state.withLock {
            $0.recorded.append(request)
            return ($0.recorded.count - 1, $0.hold, $0.fail)
        }
        if let fail { throw .transport(code: -1, description: fail) }
        guard hold else { return respond(to: request) }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPResponse, ConnectAPIError>, Never>) in
                let (cancelled, ready): (Bool, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                    if state.cancelledBeforeHeld.remove(id) != nil { return (true, []) }
                    state.held[id] = continuation
                    let count = state.held.count
                    let ready = state.arrivalWaiters.filter { $0.0 <= count }.map(\.1)
                    state.arrivalWaiters.removeAll { $0.0 <= count }
                    return (false, ready)
                }
                if cancelled { continuation.resume(returning: .failure(.cancelled)) }
                for continuation in ready { continuation.resume() }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Result<HTTPResponse, ConnectAPIError>, Never>? = state.withLock {
                state in
                state.cancelled += 1
                if let c = state.held.removeValue(forKey: id) { return c }
                state.cancelledBeforeHeld.insert(id)
                return nil
            }
            continuation?.resume(returning: .failure(.cancelled))
        }
        return try result.get()
    }

    private func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.url.path.hasSuffix("/location_events") {
            let status = uploadStatus
            guard status == 422 else { return HTTPResponse(statusCode: status) }
            // A 422 singles out every event of the batch by index, as IFTTT's error envelope does.
            let count = ((try? JSONSerialization.jsonObject(with: request.body ?? Data())) as? [Any])?.count ?? 0
            let details = (0..<count).map {
                #"{"parameter":"[\#($0)].trigger_subscription_id","message":"is not a trigger subscription of this user"}"#
            }
            return HTTPResponse(
                statusCode: 422,
                body: Data(
                    #"{"type":"error","code":"invalid_parameters","message":"invalid","details":[\#(details.joined(separator: ","))]}"#
                        .utf8))
        }
        if let status = fetchStatus {
            return HTTPResponse(
                statusCode: status, body: Data(#"{"type":"error","code":"unauthorized","message":"no"}"#.utf8))
        }
        let id = request.url.lastPathComponent
        guard let connection = state.withLock({ $0.connections[id] }) else {
            return HTTPResponse(
                statusCode: 404, body: Data(#"{"type":"error","code":"not_found","message":"no such Connection"}"#.utf8)
            )
        }
        return HTTPResponse(
            statusCode: 200,
            body: Data(Self.json(id: id, status: connection.status, triggers: connection.triggers).utf8))
    }

    static func json(id: String, status: String, triggers: [Trigger]) -> String {
        let items = triggers.map {
            #"{"id":"\#($0.id)","feature_trigger_id":"t1","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER_AND_EXIT","value":{"lat":\#($0.latitude),"lng":\#($0.longitude),"radius":\#($0.radius)}}]}"#
        }.joined(separator: ",")
        return
            #"{"type":"connection","id":"\#(id)","name":"N","description":"D","url":"https://ifttt.com/\#(id)","user_status":"\#(status)","services":[{"service_id":"gx","service_name":"GX","is_primary":true}],"user_connection":{"user_features":[{"id":"u1","feature_id":"f1","enabled":true,"user_feature_triggers":[\#(items)]}]}}"#
    }

    static func connection(_ id: String, status: String = "enabled", triggers: [Trigger]) throws -> Connection {
        try Connection.decode(from: Data(json(id: id, status: status, triggers: triggers).utf8))
    }
}

/// Collects values from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let stored = Locked<[Value]>([])
    func append(_ value: Value) { stored.withLock { $0.append(value) } }
    var values: [Value] { stored.withLock { $0 } }
}

/// A fake `BGTaskScheduler`.
final class FakeTaskScheduler: TaskScheduler, Sendable {
    private struct State {
        var handlers: [String: @Sendable (any BackgroundTask) -> Void] = [:]
        var registrations = 0
        var submitted: [BackgroundTaskRequest] = []
        var cancellations = 0
    }

    private let state = Locked(State())

    func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundTask) -> Void) -> Bool {
        state.withLock {
            $0.registrations += 1
            $0.handlers[identifier] = launchHandler
        }
        return true
    }
    func submit(_ request: BackgroundTaskRequest) throws { state.withLock { $0.submitted.append(request) } }
    func cancel(identifier: String) { state.withLock { $0.cancellations += 1 } }
    func launch(_ identifier: String, task: any BackgroundTask) { state.withLock { $0.handlers[identifier] }?(task) }
    var submittedRequests: [BackgroundTaskRequest] { state.withLock { $0.submitted } }
    var registrationCount: Int { state.withLock { $0.registrations } }
}

/// A fake `BGTask` that counts completions.
final class FakeBackgroundTask: BackgroundTask, Sendable {
    private struct State {
        var expiration: (@Sendable () -> Void)?
        var completed: [Bool] = []
    }

    private let state = Locked(State())
    func setExpirationHandler(_ handler: (@Sendable () -> Void)?) { state.withLock { $0.expiration = handler } }
    func setTaskCompleted(success: Bool) { state.withLock { $0.completed.append(success) } }
    func expire() { state.withLock { $0.expiration }?() }
    var completions: [Bool] { state.withLock { $0.completed } }
}

/// One synchronizer over a fake IFTTT and a simulated platform, in a fresh directory.
struct SyncHarness {
    let directory: URL
    let api: FakeIFTTT
    let monitor: SimulatedRegionMonitor
    let clock: ManualClock
    let scheduler: FakeTaskScheduler
    let synchronizer: Synchronizer
    static let token = "tok-SECRET-4f9a"

    init(
        directory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)"),
        api: FakeIFTTT = FakeIFTTT(), monitor: SimulatedRegionMonitor = SimulatedRegionMonitor(),
        clock: ManualClock = ManualClock(epoch), scheduler: FakeTaskScheduler = FakeTaskScheduler(),
        adjust: (inout Synchronizer.Configuration) -> Void = { _ in }
    ) {
        self.directory = directory
        self.api = api
        self.monitor = monitor
        self.clock = clock
        self.scheduler = scheduler
        var configuration = Synchronizer.Configuration(
            regionMonitor: monitor, storageDirectory: directory, transport: api,
            anonymousId: "install-1", secureStore: FileSecureStore(directory: directory),
            taskScheduler: scheduler, clock: clock, random: { 0.5 })
        configuration.useServer(at: URL(string: "https://ifttt.test")!)
        // These tests are about what happens to a crossing once recorded: it is recorded at once, as 2.8 did. The
        // dwell filter (on by default) has its own tests, which set it here.
        configuration.dwellTime = 0
        adjust(&configuration)
        synchronizer = Synchronizer(configuration: configuration)
    }

    /// The same storage, a new process.
    func relaunched() -> SyncHarness {
        SyncHarness(directory: directory, api: api, monitor: monitor, clock: clock, scheduler: scheduler)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }

    /// The SDK's monitored geofence identifiers, as the platform has them.
    func platformGeofences() async -> [String] {
        await monitor.monitoredRegions().map(\.identifier).filter { $0.hasPrefix("ifttt_") }
    }

    /// Moves the simulated device and lets the synchronizer act on any crossing.
    func move(_ latitude: Double, _ longitude: Double, after seconds: TimeInterval) async {
        clock.advance(seconds)
        await monitor.move(
            to: LocationFix(latitude: latitude, longitude: longitude, horizontalAccuracy: 5, timestamp: clock.now))
        await synchronizer.waitUntilIdle()
    }
}
