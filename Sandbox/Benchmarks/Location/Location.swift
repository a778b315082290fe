// Location: each SDK path next to its baseline, in the same run.
// - Nearest 19 of 100,000 geofences by edge distance: `GeofenceIndex.nearest` vs computing every distance and
//   sorting. Goal: at most 2 ms per query.
// - A durable event append: `LocationEventStore.append` (journal record + fsync) vs a plain `FileHandle` write +
//   `synchronize()` of the same number of bytes.
// - Upload of a 10,000-event backlog to a transport that answers 200: requests and journal scans (one per run).
// - Launch with 1,000 stored Connections: `ConnectButtonController.initialize(options:)` returns (goal: at most 1 ms),
//   then the stored state is loaded and geofences selected (goal: at most 5 ms more).
// "Location goals" checks the goals and prints the verdicts.
import Benchmark
import BenchmarkSupport
import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting

/// 100,000 geofences spread over the contiguous United States, and 256 query points.
struct GeofenceWorkload: Sendable {
    let fences: [Geofence]
    let points: [Coordinate]

    init() {
        var rng = SplitMix64(seed: 0x1234_5678)  // every run queries the same geofences
        fences = (0..<100_000).map { i in
            Geofence(
                triggerSubscriptionId: "g\(i)",
                center: Coordinate(
                    latitude: Double.random(in: 25..<49, using: &rng),
                    longitude: Double.random(in: -124..<(-67), using: &rng)),
                radius: Double.random(in: 100..<2000, using: &rng))
        }
        points = (0..<256).map { _ in
            Coordinate(
                latitude: Double.random(in: 25..<49, using: &rng),
                longitude: Double.random(in: -124..<(-67), using: &rng))
        }
    }

    /// The baseline: every edge distance, sorted, the first `k`.
    func bruteForce(_ k: Int, to point: Coordinate) -> [(distance: Double, identifier: String)] {
        var all: [(distance: Double, identifier: String)] = []
        all.reserveCapacity(fences.count)
        for fence in fences {
            let distance: Double = max(0, point.distance(to: fence.center) - fence.radius)
            all.append((distance, fence.identifier))
        }
        all.sort { a, b in a.distance != b.distance ? a.distance < b.distance : a.identifier < b.identifier }
        return Array(all.prefix(k))
    }
}

/// A temporary directory, removed by `remove()`.
func temporaryDirectory(_ prefix: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
}

func event(_ n: Int, at date: Date = Date()) -> RegionEvent {
    RegionEvent(transition: n % 2 == 0 ? .entry : .exit, occurredAt: date, triggerSubscriptionId: "bench_\(n % 40)")
}

/// Answers 200 to every location upload and counts requests.
actor CountingLocationAPI: HTTPTransport {
    private(set) var requests = 0
    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        requests += 1
        return HTTPResponse(statusCode: 200, body: Data("{}".utf8))
    }
}

/// A journal with a 10,000-event backlog, written once; each upload run works on a fresh copy.
func makeBacklogTemplate() async throws -> URL {
    let directory = temporaryDirectory("backlog-template")
    let store = try LocationEventStore(directory: directory)
    let base = Date()
    for n in 0..<10_000 { try await store.append(event(n, at: base.addingTimeInterval(Double(n) / 100))) }
    return directory
}

/// Uploads a copy of the backlog in `template`; returns (uploaded, left, requests, journal scans).
func uploadBacklog(from template: URL, measure: (() -> Void)? = nil, done: (() -> Void)? = nil) async throws -> (
    uploaded: Int, left: Int, requests: Int, scans: Int
) {
    let directory = temporaryDirectory("backlog")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.copyItem(at: template, to: directory)
    let store = try LocationEventStore(directory: directory)
    let api = CountingLocationAPI()
    let scansBefore = await store.statistics.journalScans
    let uploader = LocationUploader(
        store: store,
        configuration: .init(
            network: .init(
                transport: api, locationBaseURL: URL(string: "https://ifttt.test/v1")!, anonymousId: "bench")))
    measure?()
    let report = await uploader.uploadPending(userToken: "bench-token")
    done?()
    let scans = await store.statistics.journalScans - scansBefore
    let left = try await store.pending(now: Date()).count
    return (report.uploaded, left, await api.requests, scans)
}

/// Serves every Connection `c<i>` with one location trigger.
struct StubConnectAPI: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let id = request.url.lastPathComponent
        let n = Double(Int(id.dropFirst()) ?? 0)
        let body =
            #"{"type":"connection","id":"\#(id)","name":"N","description":"D","url":"https://ifttt.com/\#(id)","user_status":"enabled","services":[{"service_id":"gx","service_name":"GX","is_primary":true}],"user_connection":{"user_features":[{"id":"u","feature_id":"f","enabled":true,"user_feature_triggers":[{"id":"\#(id)_t","feature_trigger_id":"t","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER_AND_EXIT","value":{"lat":\#(30 + n / 100),"lng":\#(-100 + n / 100),"radius":200}}]}]}]}}"#
        return HTTPResponse(statusCode: 200, body: Data(body.utf8))
    }
}

/// An app's storage with 1,000 stored Connections, and the region monitor the platform keeps across launches.
final class LaunchFixture: Sendable {
    let directory = temporaryDirectory("launch")
    let monitor = SimulatedRegionMonitor()

    func configuration() -> Synchronizer.Configuration {
        var configuration = Synchronizer.Configuration(
            regionMonitor: monitor, storageDirectory: directory, transport: StubConnectAPI(), anonymousId: "bench",
            secureStore: FileSecureStore(directory: directory))
        configuration.useServer(at: URL(string: "https://ifttt.test")!)
        return configuration
    }

    /// Stores 1,000 Connections (fetched once through the stub).
    func fill() async -> Int {
        let filler = Synchronizer(configuration: configuration())
        await filler.setup(with: ConnectionCredentials(userToken: "bench-token"))
        await filler.activate(connections: (0..<1000).map { "c\($0)" })
        await filler.waitUntilIdle()
        return await filler.storedConnections.count
    }

    /// One launch: what the first use of `ConnectButtonController.synchronizer` does in an app, then `initialize`;
    /// then the stored state loaded and geofences selected. Returns both durations and what was loaded.
    @MainActor
    func launch() async -> (initialize: Duration, ready: Duration, loaded: Int, monitored: Int) {
        let clock = ContinuousClock()
        let start = clock.now
        let synchronizer = Synchronizer(configuration: configuration())
        ConnectButtonController.synchronizer = synchronizer
        ConnectButtonController.initialize(options: .standard)
        let returned = clock.now
        await synchronizer.start()
        let ready = clock.now
        let loaded = await synchronizer.storedConnections.count
        let monitored = await synchronizer.monitoredRegions.count
        await synchronizer.waitUntilIdle()  // nothing of this launch runs during the next one
        return (returned - start, ready - returned, loaded, monitored)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Custom metrics for the launch benchmark (its wall clock also counts the wait for the launch to go idle).
enum LaunchMetric {
    static let initialize = BenchmarkMetric.custom("initialize (µs)", useScalingFactor: false)
    static let ready = BenchmarkMetric.custom("load + select (µs)", useScalingFactor: false)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        maxDuration: .seconds(1), maxIterations: 10_000)
    let workload = GeofenceWorkload()
    let index = GeofenceIndex(workload.fences)

    Benchmark("nearest 19 of 100,000: SDK GeofenceIndex.nearest") { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(index.nearest(19, to: workload.points[iteration % workload.points.count]))
        }
    }
    Benchmark(
        "nearest 19 of 100,000: baseline every distance + sort",
        configuration: .init(maxIterations: 50)
    ) { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(workload.bruteForce(19, to: workload.points[iteration % workload.points.count]))
        }
    }

    let appendDirectory = temporaryDirectory("append")
    Benchmark(
        "durable append: SDK LocationEventStore.append",
        configuration: .init(
            maxIterations: 2_000, teardown: { try? FileManager.default.removeItem(at: appendDirectory) })
    ) { benchmark in
        let store = try LocationEventStore(
            directory: appendDirectory, policy: .init(maximumPendingCount: 1_000_000))
        benchmark.startMeasurement()
        for n in benchmark.scaledIterations { try await store.append(event(n)) }
    }
    let recordSize = 160  // about one journal record
    Benchmark(
        "durable append: baseline FileHandle write + synchronize",
        configuration: .init(maxIterations: 2_000)
    ) { benchmark in
        let path = temporaryDirectory("append-baseline").path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let handle = FileHandle(forWritingAtPath: path) else { return benchmark.error("cannot open \(path)") }
        defer { try? handle.close() }
        let record = Data(repeating: 0x41, count: recordSize)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try handle.write(contentsOf: record)
            try handle.synchronize()
        }
    }

    nonisolated(unsafe) var backlogTemplate: URL?
    Benchmark(
        "upload of a 10,000-event backlog: SDK LocationUploader.uploadPending",
        configuration: .init(
            metrics: [.wallClock, .instructions, .mallocCountTotal], maxIterations: 5,
            setup: { backlogTemplate = try await makeBacklogTemplate() },
            teardown: { if let backlogTemplate { try? FileManager.default.removeItem(at: backlogTemplate) } })
    ) { benchmark in
        guard let backlogTemplate else { return benchmark.error("no backlog") }
        let result = try await uploadBacklog(
            from: backlogTemplate, measure: { benchmark.startMeasurement() }, done: { benchmark.stopMeasurement() })
        if result.uploaded != 10_000 || result.left != 0 {
            benchmark.error("uploaded \(result.uploaded), \(result.left) left")
        }
    }

    let launchFixture = LaunchFixture()
    Benchmark(
        "launch with 1,000 stored Connections: initialize, then load + select",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, LaunchMetric.initialize, LaunchMetric.ready],
            maxIterations: 20,
            setup: { _ = await launchFixture.fill() },
            teardown: { launchFixture.remove() })
    ) { benchmark in
        let launch = await launchFixture.launch()
        benchmark.measurement(LaunchMetric.initialize, Int(Timing.nanoseconds(launch.initialize) / 1000))
        benchmark.measurement(LaunchMetric.ready, Int(Timing.nanoseconds(launch.ready) / 1000))
    }

    Benchmark(
        "Location goals: nearest 19 p50 (µs)",
        configuration: .init(
            metrics: [.custom("nearest 19 p50 (µs)", useScalingFactor: false)], warmupIterations: 0,
            maxIterations: 1)
    ) { benchmark in
        // Nearest 19: the median of 500 queries, next to the brute-force baseline.
        let clock = ContinuousClock()
        var samples: [Double] = []
        for i in 0..<500 {
            let start = clock.now
            blackHole(index.nearest(19, to: workload.points[i % workload.points.count]))
            samples.append(Timing.nanoseconds(clock.now - start) / 1e6)
        }
        samples.sort()
        let p50 = samples[samples.count / 2]
        let p90 = samples[samples.count * 9 / 10]
        let brute = Timing.nanosecondsPerCall(rounds: 3, budget: .milliseconds(200)) {
            workload.bruteForce(19, to: workload.points[7]).count
        }
        let agree =
            index.nearest(19, to: workload.points[7]).map(\.geofence.identifier)
            == workload.bruteForce(19, to: workload.points[7]).map(\.identifier)
        benchmark.measurement(.custom("nearest 19 p50 (µs)", useScalingFactor: false), Int(p50 * 1000))
        Goal.report(
            "nearest 19 of 100,000",
            measured: String(
                format: "p50 %.3f ms, p90 %.3f ms; baseline every distance + sort %.1f ms (%.0fx); same result: "
                    + (agree ? "yes" : "NO"),
                p50, p90, brute / 1e6, brute / 1e6 / p50),
            goal: "at most 2 ms", met: p50 <= 2 && agree)

        // Launch: 20 launches with 1,000 stored Connections; min, median and max of each phase.
        let fixture = LaunchFixture()
        defer { fixture.remove() }
        let stored = await fixture.fill()
        let launches = 20
        var initialize: [Double] = []
        var ready: [Double] = []
        var loaded = 0
        var monitored = 0
        for _ in 0..<launches {
            let launch = await fixture.launch()
            initialize.append(Timing.nanoseconds(launch.initialize) / 1e6)
            ready.append(Timing.nanoseconds(launch.ready) / 1e6)
            loaded = launch.loaded
            monitored = launch.monitored
        }
        initialize.sort()
        ready.sort()
        let median = launches / 2
        Goal.report(
            "launch initialize",
            measured: String(
                format: "min %.3f / median %.3f / max %.3f ms over %d launches (%d stored Connections)",
                initialize[0], initialize[median], initialize[launches - 1], launches, stored),
            goal: "at most 1 ms at the median", met: initialize[median] <= 1)
        Goal.report(
            "launch load + select",
            measured: String(
                format: "min %.3f / median %.3f / max %.3f ms over %d launches (%d Connections loaded, %d regions)",
                ready[0], ready[median], ready[launches - 1], launches, loaded, monitored),
            goal: "at most 5 ms more at the median", met: ready[median] <= 5 && loaded == stored)

        // Backlog upload: one journal scan per run.
        let template = try await makeBacklogTemplate()
        defer { try? FileManager.default.removeItem(at: template) }
        let start = clock.now
        let upload = try await uploadBacklog(from: template)
        let elapsed = Timing.nanoseconds(clock.now - start) / 1e6
        Goal.report(
            "backlog upload",
            measured:
                "\(upload.uploaded) uploaded, \(upload.left) left, \(upload.requests) requests, \(upload.scans) journal scans, "
                + String(format: "%.0f ms", elapsed),
            goal: "every event uploaded, one journal scan", met: upload.left == 0 && upload.scans <= 1)
    }
}
