@testable import ConnectCLI
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helpers of the location tests: the demo route, the built `ifttt-connect`, a killable child process, a clock.
enum LocationTest {
    /// `Sandbox/Examples/store-trip.gpx`.
    static var storeTripGPX: URL { SandboxTest.repository("Sandbox/Examples/store-trip.gpx") }

    /// The `ifttt-connect` executable built next to the test bundle.
    static func executable() throws -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<5 {
            let candidate = directory.appendingPathComponent("ifttt-connect")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let fallback = SandboxTest.repository("Sandbox/.build/debug/ifttt-connect")
        return try #require(
            FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil,
            "build the package first: ifttt-connect was not found")
    }

    /// Every event the sandbox recorded for the token's user, retrying the sandbox's injected 503s.
    static func serverEvents(root: URL, token: String = SandboxTest.aliceToken) async throws -> [ServerEvent] {
        struct List: Decodable { var data: [ServerEvent] }
        for _ in 0..<100 {
            let response = try await Client(base: root).get("/v1/location_events", token: token)
            if response.status == 503 { continue }
            #expect(response.status == 200)
            return try JSONDecoder().decode(List.self, from: response.data).data
        }
        throw LocationTripFailure("GET /v1/location_events kept failing")
    }

    /// A recorded event as `GET /v1/location_events` lists it.
    struct ServerEvent: Decodable, Hashable {
        var record_id: String
        var trigger_subscription_id: String
        var event_type: String
        var occurred_at: String
        var deliveries: Int
    }
}

/// A child process whose standard output is read line by line; it can be killed with SIGKILL.
final class ChildProcess {
    private let process = TestProcess()
    private var iterator: AsyncStream<String>.Iterator
    private let exited: AsyncStream<Int32>
    /// Every line read so far.
    private(set) var lines: [String] = []

    /// Starts `executable` with `arguments`, in `environment` (`nil`: ours), its standard error going to the file
    /// `errors` (`nil`: nowhere) and its standard input empty.
    init(executable: URL, arguments: [String], environment: [String: String]? = nil, errors: URL? = nil) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try errors.map { try FileHandle(forWritingTo: $0) } ?? FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let (lineStream, lineContinuation) = AsyncStream.makeStream(of: String.self)
        let (exitStream, exitContinuation) = AsyncStream.makeStream(of: Int32.self)
        iterator = lineStream.makeAsyncIterator()
        exited = exitStream
        process.terminationHandler = { process in
            exitContinuation.yield(process.terminationStatus)
            exitContinuation.finish()
        }
        try process.run()
        let handle = output.fileHandleForReading
        // A blocking reader on its own thread: lines arrive as the child writes them, EOF ends the stream.
        Thread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lineContinuation.yield(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
            }
            if !buffer.isEmpty { lineContinuation.yield(String(decoding: buffer, as: UTF8.self)) }
            lineContinuation.finish()
        }.start()
    }

    /// The next line, or `nil` at end of output.
    func nextLine() async -> String? {
        let line = await iterator.next()
        if let line { lines.append(line) }
        return line
    }

    /// Reads until a line satisfies `predicate` `count` times (or the output ends); returns whether it did.
    func waitFor(_ count: Int, where predicate: (String) -> Bool) async -> Bool {
        var seen = 0
        while seen < count {
            guard let line = await nextLine() else { return false }
            if predicate(line) { seen += 1 }
        }
        return true
    }

    /// Whether it still runs.
    var isRunning: Bool { process.isRunning }

    /// Sends SIGTERM if it still runs.
    func terminate() { process.terminate() }

    /// Sends `signal` if it still runs.
    func send(_ signal: Int32) { process.send(signal) }

    /// Sends SIGKILL.
    func kill() {
        _ = sendSignal(process.processIdentifier, SIGKILL)
    }

    /// Waits for the exit, reads the rest of the output, and returns the termination status.
    func finish() async -> (status: Int32, reason: TestProcess.TerminationReason) {
        while await nextLine() != nil {}
        var statuses = exited.makeAsyncIterator()
        let status = await statuses.next() ?? -1
        return (status, process.terminationReason)
    }
}

private func sendSignal(_ pid: Int32, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}
