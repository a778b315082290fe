import Foundation
import IFTTTConnectTesting
import Testing
import IFTTTConnectSDK
@testable import IFTTTConnectLocation

/// A fake IFTTT: serves Connections by id, accepts location uploads, and can answer 401, fail with an error
/// that echoes a secret, or hold requests until they are released or cancelled.
final class FakeIFTTT: HTTPTransport, @unchecked Sendable {
    struct Trigger {
        var id: String
        var latitude: Double
        var longitude: Double
        var radius: Double = 200
    }

    // Every stored property is guarded by `lock`.
    private let lock = NSLock()
    private var connections: [String: (status: String, triggers: [Trigger])] = [:]
    private var recorded: [HTTPRequest] = []
    private var held: [Int: CheckedContinuation<Result<HTTPResponse, ConnectAPIError>, Never>] = [:]
    private var cancelledBeforeHeld: Set<Int> = []
    private var arrivalWaiters: [(Int, CheckedContinuation<Void, Never>)] = []
    private var _cancelled = 0
    var fetchStatus: Int? {
        get { lock.withLock { _fetchStatus } }
        set { lock.withLock { _fetchStatus = newValue } }
    }
    var uploadStatus: Int {
        get { lock.withLock { _uploadStatus } }
        set { lock.withLock { _uploadStatus = newValue } }
    }
    var holdRequests: Bool {
        get { lock.withLock { _hold } }
        set { lock.withLock { _hold = newValue } }
    }
    var failWithDescription: String? {
        get { lock.withLock { _fail } }
        set { lock.withLock { _fail = newValue } }
    }
    private var _fetchStatus: Int?
    private var _uploadStatus = 200
    private var _hold = false
    private var _fail: String?

    func setConnection(_ id: String, status: String = "enabled", triggers: [Trigger]) {
        lock.withLock { connections[id] = (status, triggers) }
    }

    var requests: [HTTPRequest] { lock.withLock { recorded } }
    var cancelledCount: Int { lock.withLock { _cancelled } }
    var heldCount: Int { lock.withLock { held.count } }
    func requests(to pathSuffix: String) -> [HTTPRequest] { requests.filter { $0.url.path.hasSuffix(pathSuffix) } }

    /// Waits (without sleeping) until `count` requests are held.
    func waitForHeld(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = lock.withLock {
                if held.count >= count { return true }
                arrivalWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Answers every held request.
    func releaseAll() {
        let waiting: [(Int, CheckedContinuation<Result<HTTPResponse, ConnectAPIError>, Never>)] = lock.withLock {
            _hold = false
            defer { held = [:] }
            return held.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        for (id, continuation) in waiting {
            continuation.resume(returning: .success(respond(to: lock.withLock { recorded[id] })))
        }
    }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let (id, hold, fail): (Int, Bool, String?) = lock.withLock {
            recorded.append(request)
            return (recorded.count - 1, _hold, _fail)
        }
        if let fail { throw .transport(code: -1, description: fail) }
        guard hold else { return respond(to: request) }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPResponse, ConnectAPIError>, Never>) in
                let (cancelled, ready): (Bool, [CheckedContinuation<Void, Never>]) = lock.withLock {
                    if cancelledBeforeHeld.remove(id) != nil { return (true, []) }
                    held[id] = continuation
                    let ready = arrivalWaiters.filter { $0.0 <= held.count }.map(\.1)
                    arrivalWaiters.removeAll { $0.0 <= held.count }
                    return (false, ready)
                }
                if cancelled { continuation.resume(returning: .failure(.cancelled)) }
                for continuation in ready { continuation.resume() }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Result<HTTPResponse, ConnectAPIError>, Never>? = lock.withLock {
                _cancelled += 1
                if let c = held.removeValue(forKey: id) { return c }
                cancelledBeforeHeld.insert(id)
                return nil
            }
            continuation?.resume(returning: .failure(.cancelled))
        }
        return try result.get()
    }

    private func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.url.path.hasSuffix("/location_events") { return HTTPResponse(statusCode: uploadStatus) }
        if let status = fetchStatus {
            return HTTPResponse(
                statusCode: status, body: Data(#"{"type":"error","code":"unauthorized","message":"no"}"#.utf8))
        }
        let id = request.url.lastPathComponent
        guard let connection = lock.withLock({ connections[id] }) else {
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
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}

/// A fake `BGTaskScheduler`.
final class FakeTaskScheduler: TaskScheduler, @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [String: @Sendable (any BackgroundTask) -> Void] = [:]
    private(set) var registrations = 0
    private(set) var submitted: [BackgroundTaskRequest] = []
    private(set) var cancellations = 0

    func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundTask) -> Void) -> Bool {
        lock.withLock {
            registrations += 1
            handlers[identifier] = launchHandler
        }
        return true
    }
    func submit(_ request: BackgroundTaskRequest) throws { lock.withLock { submitted.append(request) } }
    func cancel(identifier: String) { lock.withLock { cancellations += 1 } }
    func launch(_ identifier: String, task: any BackgroundTask) { lock.withLock { handlers[identifier] }?(task) }
    var submittedRequests: [BackgroundTaskRequest] { lock.withLock { submitted } }
    var registrationCount: Int { lock.withLock { registrations } }
}

/// A fake `BGTask` that counts completions.
final class FakeBackgroundTask: BackgroundTask, @unchecked Sendable {
    private let lock = NSLock()
    private var expiration: (@Sendable () -> Void)?
    private var completed: [Bool] = []
    func setExpirationHandler(_ handler: (@Sendable () -> Void)?) { lock.withLock { expiration = handler } }
    func setTaskCompleted(success: Bool) { lock.withLock { completed.append(success) } }
    func expire() { lock.withLock { expiration }?() }
    var completions: [Bool] { lock.withLock { completed } }
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
        clock: ManualClock = ManualClock(epoch), scheduler: FakeTaskScheduler = FakeTaskScheduler()
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
