// The sandbox over loopback: `GET /v2/connections/{id}` (a Connection rendered from SQLite for a signed-in user) next
// to `GET /health` (the server's floor), one request at a time from URLSession, on an in-process sandbox with an
// in-memory database and the demo seed. The load check with many connections is scripts/sandbox-bench.sh.
// Goal: a Connection GET within 3x the time of /health; "Sandbox goal" checks it.
import Benchmark
import BenchmarkSupport
import ConnectSandbox
import Foundation
import Logging
import NIOConcurrencyHelpers

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A sandbox running in this process until `stop()`.
final class RunningSandbox: Sendable {
    private struct State {
        var baseURL: URL?
        var stopContinuation: CheckedContinuation<Void, Never>?
        var task: Task<Void, any Error>?
    }

    private let state = NIOLockedValueBox(State())

    /// The running sandbox's base URL; `nil` before `start()`.
    var baseURL: URL? { state.withLockedValue { $0.baseURL } }

    /// Starts the sandbox and returns once it listens.
    func start() async throws {
        let (urls, announce) = AsyncStream.makeStream(of: URL.self)
        let (stops, stopAnnounce) = AsyncStream.makeStream(of: CheckedContinuation<Void, Never>.self)
        let task = Task {
            var configuration = SandboxConfiguration(databasePath: SandboxConfiguration.inMemoryDatabasePath)
            configuration.logger.logLevel = .error
            try await SandboxServer.withRunning(configuration) { url in
                announce.yield(url)
                announce.finish()
                await withCheckedContinuation { continuation in
                    stopAnnounce.yield(continuation)
                    stopAnnounce.finish()
                }
            }
        }
        var iterator = urls.makeAsyncIterator()
        let baseURL = await iterator.next()
        var stopIterator = stops.makeAsyncIterator()
        let stopContinuation = await stopIterator.next()
        state.withLockedValue { $0 = State(baseURL: baseURL, stopContinuation: stopContinuation, task: task) }
        guard baseURL != nil else { throw SandboxDidNotStart() }
    }

    /// Shuts the sandbox down gracefully and waits for it.
    func stop() async {
        let (continuation, task) = state.withLockedValue { state in
            defer { state.stopContinuation = nil }
            return (state.stopContinuation, state.task)
        }
        continuation?.resume()
        _ = try? await task?.value
    }
}

struct SandboxDidNotStart: Error {}

struct UnexpectedStatus: Error, CustomStringConvertible {
    let path: String
    let status: Int
    var description: String { "GET \(path) answered \(status)" }
}

/// The demo seed's user token and one of its Connections.
let token = "sandbox-user-token-alice"
let connectionPath = "/v2/connections/gx-weekly-deals"

/// One GET; returns the body's length after checking the status is 200.
func get(_ path: String, from sandbox: RunningSandbox, session: URLSession) async throws -> Int {
    guard let base = sandbox.baseURL else { throw SandboxDidNotStart() }
    var request = URLRequest(url: base.appendingPathComponent(path))
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    let (data, response) = try await session.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else { throw UnexpectedStatus(path: path, status: status) }
    return data.count
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        maxDuration: .seconds(2), maxIterations: 2_000)
    let sandbox = RunningSandbox()
    let session = URLSession(configuration: .ephemeral)
    Benchmark.setup = { try await sandbox.start() }
    Benchmark.teardown = { await sandbox.stop() }

    Benchmark("sandbox GET /v2/connections/{id}") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await get(connectionPath, from: sandbox, session: session))
        }
    }
    Benchmark("sandbox baseline GET /health") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await get("/health", from: sandbox, session: session)) }
    }
    Benchmark(
        "Sandbox goal: GET connection / GET health (x100)",
        configuration: .init(
            metrics: [.custom("connection / health x100", useScalingFactor: false)], warmupIterations: 0,
            maxIterations: 1)
    ) { benchmark in
        var connection = Double.infinity
        var health = Double.infinity
        for _ in 0..<5 {  // interleaved rounds: both see the same machine
            connection = min(
                connection,
                try await Timing.nanosecondsPerCall(rounds: 1, budget: .milliseconds(200)) {
                    try await get(connectionPath, from: sandbox, session: session)
                })
            health = min(
                health,
                try await Timing.nanosecondsPerCall(rounds: 1, budget: .milliseconds(200)) {
                    try await get("/health", from: sandbox, session: session)
                })
        }
        let ratio = connection / health
        benchmark.measurement(.custom("connection / health x100", useScalingFactor: false), Int(ratio * 100))
        Goal.report(
            "sandbox GET",
            measured: String(
                format: "GET /v2/connections/{id} %.0f µs, GET /health %.0f µs, %.2fx", connection / 1000,
                health / 1000, ratio),
            goal: "within 3x /health", met: ratio <= 3)
    }
}
