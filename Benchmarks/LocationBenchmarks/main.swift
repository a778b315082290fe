// Location benchmarks. Run in release:
//   swift run -c release LocationBenchmarks [--seconds S]
// 1. Choosing the nearest 19 geofences (by edge distance) among 100,000. Goal: at most 2 ms.
// 2. Durable appends to the event store (one write + fsync each): events per second.
// 3. `ConnectButtonController.initialize(options:)` with 1,000 stored Connections. Goal: returns in at most 5 ms.
import Foundation
import IFTTTConnectLocation
import IFTTTConnectSDK

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

var seconds = 1.0
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    if argument == "--seconds", let value = arguments.next().flatMap(Double.init) { seconds = value } else {
        FileHandle.standardError.write(Data("usage: LocationBenchmarks [--seconds S]\n".utf8))
        exit(64)
    }
}

/// A small deterministic generator (SplitMix64).
struct Generator: RandomNumberGenerator {
    var state: UInt64 = 0x1234_5678
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D4_9BB1_33B1_11EB
        return z ^ (z >> 31)
    }
}

let clock = ContinuousClock()
func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

// 1. Nearest 19 among 100,000 (spread over the contiguous United States).
var rng = Generator()
let fences = (0..<100_000).map { i in
    Geofence(triggerSubscriptionId: "g\(i)",
             center: Coordinate(latitude: Double.random(in: 25..<49, using: &rng), longitude: Double.random(in: -124..<(-67), using: &rng)),
             radius: Double.random(in: 100..<2000, using: &rng))
}
let buildStart = clock.now
let index = GeofenceIndex(fences)
let buildTime = clock.now - buildStart
let points = (0..<256).map { _ in Coordinate(latitude: Double.random(in: 25..<49, using: &rng), longitude: Double.random(in: -124..<(-67), using: &rng)) }
var samples: [Double] = []
var checksum = 0
for point in points.prefix(16) { checksum &+= index.nearest(19, to: point).count }   // warm up
let budget = Duration.milliseconds(Int64(seconds * 1000))
let start = clock.now
var i = 0
while clock.now - start < budget || samples.count < 100 {
    let t0 = clock.now
    checksum &+= index.nearest(19, to: points[i % points.count]).count
    samples.append(milliseconds(clock.now - t0))
    i += 1
}
samples.sort()
let p50 = samples[samples.count / 2], p90 = samples[samples.count * 9 / 10]
say("nearest 19 of 100,000 geofences: p50 \(String(format: "%.3f", p50)) ms, p90 \(String(format: "%.3f", p90)) ms, max \(String(format: "%.3f", samples.last!)) ms over \(samples.count) queries (goal <= 2 ms); index build \(String(format: "%.1f", milliseconds(buildTime))) ms [\(checksum % 10)]")

// 2. Durable appends.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("location-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
do {
    let store = try LocationEventStore(directory: directory, policy: .init(maximumPendingCount: 1_000_000))
    var count = 0
    let appendStart = clock.now
    while clock.now - appendStart < budget || count < 50 {
        try await store.append(RegionEvent(transition: .entry, occurredAt: Date(), triggerSubscriptionId: "bench_\(count)"))
        count += 1
    }
    let elapsed = milliseconds(clock.now - appendStart) / 1000
    let readStart = clock.now
    let pending = try await store.pending(now: Date())
    let readTime = milliseconds(clock.now - readStart)
    say("durable append (write + fsync per event): \(Int(Double(count) / elapsed)) events/s (\(count) events in \(String(format: "%.2f", elapsed)) s); reading them back: \(String(format: "%.1f", readTime)) ms for \(pending.count) events")
} catch {
    say("append benchmark failed: \(error)")
}

// 3. initialize with 1,000 stored Connections.

/// Serves every Connection `c<i>` with one location trigger.
struct StubConnectAPI: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let id = request.url.lastPathComponent
        let n = Double(Int(id.dropFirst()) ?? 0)
        let body = #"{"type":"connection","id":"\#(id)","name":"N","description":"D","url":"https://ifttt.com/\#(id)","user_status":"enabled","services":[{"service_id":"gx","service_name":"GX","is_primary":true}],"user_connection":{"user_features":[{"id":"u","feature_id":"f","enabled":true,"user_feature_triggers":[{"id":"\#(id)_t","feature_trigger_id":"t","user_fields":[{"field_id":"location","field_type":"LOCATION_ENTER_AND_EXIT","value":{"lat":\#(30 + n / 100),"lng":\#(-100 + n / 100),"radius":200}}]}]}]}}"#
        return HTTPResponse(statusCode: 200, body: Data(body.utf8))
    }
}

let syncDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: syncDirectory) }
func benchConfiguration() -> Synchronizer.Configuration {
    var configuration = Synchronizer.Configuration(regionMonitor: SimulatedRegionMonitor(), storageDirectory: syncDirectory,
                                                   transport: StubConnectAPI(), anonymousId: "bench",
                                                   secureStore: FileSecureStore(directory: syncDirectory))
    configuration.useServer(at: URL(string: "https://ifttt.test")!)
    return configuration
}
// Store 1,000 Connections (fetched once through the stub).
let filler = Synchronizer(configuration: benchConfiguration())
await filler.setup(with: ConnectionCredentials(userToken: "bench-token"))
await filler.activate(connections: (0..<1000).map { "c\($0)" })
await filler.waitUntilIdle()
let storedCount = await filler.storedConnections.count
let registryBytes = (try? FileManager.default.attributesOfItem(atPath: syncDirectory.appendingPathComponent("connections.json").path)[.size] as? Int) ?? 0

var initializeSamples: [Double] = []
var readySamples: [Double] = []
for _ in 0..<20 {
    let t0 = clock.now
    ConnectButtonController.synchronizer = Synchronizer(configuration: benchConfiguration())
    ConnectButtonController.initialize(options: .standard)
    initializeSamples.append(milliseconds(clock.now - t0))
    await ConnectButtonController.synchronizer.waitUntilIdle()
    readySamples.append(milliseconds(clock.now - t0))
}
initializeSamples.sort()
readySamples.sort()
let loaded = await ConnectButtonController.synchronizer.storedConnections.count
say("initialize with \(storedCount) stored Connections (\(registryBytes / 1024) KiB): returns in p50 \(String(format: "%.3f", initializeSamples[10])) ms, max \(String(format: "%.3f", initializeSamples.last!)) ms over 20 launches (goal <= 5 ms); stored state read and geofences selected off the main thread after p50 \(String(format: "%.1f", readySamples[10])) ms (\(loaded) Connections)")
