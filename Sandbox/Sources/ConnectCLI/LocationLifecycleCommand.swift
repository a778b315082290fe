import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK

/// `ifttt-connect location lifecycle` (hidden): one launch of an app that monitors one geofence, driven by a script,
/// for the lifecycle tests that terminate it with SIGKILL, suspend it and relaunch it inside or outside.
///
/// The launch starts at `--at` seconds with the device `--where` (the platform answers the region's state from
/// there, as CoreLocation does after a relaunch), then runs `--step`s in order, writing `done <step>` after each one
/// returned (so a kill after that line comes after the step's durable writes):
///
/// - `in@T`, `out@T`: the device crosses into or out of the geofence at `T` (the platform reports the crossing).
/// - `run@T`: the app keeps running until `T`: crossings whose dwell time has passed by then are recorded.
/// - `suspend@T`: the app is suspended until `T`; nothing runs meanwhile (the next step is what wakes it).
/// - `drain`: an upload empties the store (its events go to `delivered.jsonl` beside it), then the session records
///   what the full store refused; first writes `before-drain` with the geofence's events the store held.
/// - `hang`: writes `hanging` and waits to be killed.
///
/// It writes `ready` once the app started. The last line is `events` and the JSON array of the geofence's events, delivered and pending, in the order they
/// were recorded: `{"kind":"entry","at":100,"id":"<record id>"}`.
struct LocationLifecycleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifecycle",
        abstract: "Run one launch of a geofencing app from a script (for lifecycle tests).",
        discussion: """
            Steps: in@T and out@T cross into or out of the geofence at T seconds; run@T keeps the app running until T; \
            suspend@T suspends it until T; drain uploads the store's events (to delivered.jsonl); hang waits to be \
            killed. Writes "done <step>" after each step and ends with "events" and the geofence's events as JSON.
            """,
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("The event store directory.", valueName: "dir"))
    var store: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The dwell time in seconds.", valueName: "seconds"))
    var dwell: Double = LocationMonitoringSession.defaultDwellTime

    @Option(parsing: .unconditional, help: ArgumentHelp("The store's maximum pending count.", valueName: "n"))
    var capacity: Int = 10_000

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Fill the store with this many events of another trigger first.", valueName: "n"))
    var fill: Int = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("The launch time, in seconds.", valueName: "seconds"))
    var at: Double = 0

    @Option(name: .customLong("where"), help: ArgumentHelp("inside or outside at launch.", valueName: "side"))
    var side: String = "outside"

    @Option(
        name: .customLong("step"),
        help: ArgumentHelp("A step: in@T, out@T, run@T, suspend@T, drain or hang.", valueName: "step"))
    var steps: [String] = []

    func validate() throws {
        guard ["inside", "outside"].contains(side) else { throw ValidationError("--where must be inside or outside") }
        for step in steps where LifecycleStep(step) == nil { throw ValidationError("unknown step '\(step)'") }
        guard dwell.isFinite, dwell >= 0, dwell <= 86_400 else {
            throw ValidationError("--dwell must be between 0 and 86400 seconds, got \(dwell)")
        }
        guard capacity >= 1 else { throw ValidationError("--capacity must be at least 1, got \(capacity)") }
        guard fill >= 0 else { throw ValidationError("--fill must be 0 or more, got \(fill)") }
        guard at.isFinite, at >= 0 else { throw ValidationError("--at must be 0 or more seconds, got \(at)") }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: store, isDirectory: true)
        let script = LifecycleScript(directory: directory, dwell: dwell, capacity: capacity)
        var launch = try await script.launch(at: at, inside: side == "inside", fill: fill)
        say("ready")
        for text in steps {
            guard let step = LifecycleStep(text) else { continue }
            if step == .hang {
                say("hanging")
                while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
            }
            if step == .drain { say("before-drain " + LifecycleScript.json(try await launch.pendingGeofenceEvents())) }
            try await launch.perform(step)
            say("done \(text)")
        }
        say("events " + LifecycleScript.json(try await launch.allGeofenceEvents()))
    }
}

/// A step of ``LocationLifecycleCommand``'s script.
enum LifecycleStep: Hashable, Sendable {
    case cross(inside: Bool, at: Double)
    case run(until: Double)
    case suspend(until: Double)
    case drain
    case hang

    init?(_ text: String) {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        let time = parts.count == 2 ? Double(parts[1]) : nil
        switch (parts[0], time) {
        case ("in", let t?): self = .cross(inside: true, at: t)
        case ("out", let t?): self = .cross(inside: false, at: t)
        case ("run", let t?): self = .run(until: t)
        case ("suspend", let t?): self = .suspend(until: t)
        case ("drain", nil): self = .drain
        case ("hang", nil): self = .hang
        default: return nil
        }
    }
}

/// The app of the lifecycle script: one geofence (entry and exit recorded), a store, a session, a platform.
struct LifecycleScript: Sendable {
    /// The geofence: gx-arrive-store's circle.
    static let geofence = Geofence(
        triggerSubscriptionId: "lifecycle-trigger", center: Coordinate(latitude: 37.7840, longitude: -122.4075),
        radius: 150)
    /// Time 0 of the script.
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)
    static let insidePoint = Coordinate(latitude: 37.7840, longitude: -122.4075)
    static let outsidePoint = Coordinate(latitude: 37.7900, longitude: -122.4075)

    let directory: URL
    let dwell: TimeInterval
    let capacity: Int

    /// Starts the app at `at` seconds with the device inside or outside.
    func launch(at: Double, inside: Bool, fill: Int) async throws -> Launch {
        let store = try LocationEventStore(
            directory: directory, policy: .init(maximumPendingCount: capacity))
        for n in 0..<fill {
            try await store.append(
                RegionEvent(
                    transition: .entry, occurredAt: Self.epoch.addingTimeInterval(Double(n)),
                    triggerSubscriptionId: "filler"))
        }
        let launched = Self.epoch.addingTimeInterval(at)
        let monitor = SimulatedRegionMonitor(configuration: .init(significantChangeDistance: nil))
        // The platform knows where the device is before the app runs: it answers the region's state from there.
        await monitor.move(to: Self.fix(inside: inside, at: at))
        // The clock reads the launch time; later steps carry their own times (a fix's, `run@T`'s), so no timer of
        // the session fires by itself: `run@T` is the app running until `T`.
        let session = LocationMonitoringSession(
            monitor: monitor, store: store, clock: ReadingClock { launched }, dwellTime: dwell)
        // The monitor's events come back here; every input returns its storage failures, printed once each.
        Self.sayErrors(
            await session.start { [weak session] input in
                if let session { Self.sayErrors(session.handle(routed: input)) }
            })
        Self.sayErrors(await session.update(geofences: [Self.geofence]))
        return Launch(directory: directory, store: store, monitor: monitor, session: session, time: launched)
    }

    /// Prints the storage failures an input of the session returned.
    static func sayErrors(_ outcome: LocationMonitoringSession.Outcome) {
        for error in outcome.errors { say("store: \(error)") }
    }

    static func fix(inside: Bool, at: Double) -> LocationFix {
        LocationFix(
            coordinate: inside ? insidePoint : outsidePoint, horizontalAccuracy: 5,
            timestamp: epoch.addingTimeInterval(at))
    }

    /// One running launch.
    struct Launch: Sendable {
        let directory: URL
        let store: LocationEventStore
        let monitor: SimulatedRegionMonitor
        let session: LocationMonitoringSession
        /// The latest time a step reached.
        var time: Date

        mutating func perform(_ step: LifecycleStep) async throws {
            switch step {
            case .cross(let inside, let at):
                time = max(time, LifecycleScript.epoch.addingTimeInterval(at))
                await monitor.move(to: LifecycleScript.fix(inside: inside, at: at))
            case .run(let until):
                time = max(time, LifecycleScript.epoch.addingTimeInterval(until))
                LifecycleScript.sayErrors(await session.releaseHeldCrossings(now: time))
            case .suspend(let until):
                time = max(time, LifecycleScript.epoch.addingTimeInterval(until))  // nothing runs until the next step
            case .drain:
                let pending = try await store.pending(now: time)
                let lines = pending.map { Self.line($0) + "\n" }.joined()
                let url = directory.appendingPathComponent("delivered.jsonl")
                if !FileManager.default.fileExists(atPath: url.path) {
                    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                }
                let handle = try FileHandle(forWritingTo: url)
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(lines.utf8))
                try handle.synchronize()
                try handle.close()
                try await store.acknowledge(pending.map(\.recordId))
                LifecycleScript.sayErrors(await session.retryStorage())
            case .hang:
                break
            }
        }

        /// The geofence's events the store holds (pending).
        func pendingGeofenceEvents() async throws -> [RegionEvent] {
            try await store.pending(now: time).filter {
                $0.triggerSubscriptionId == LifecycleScript.geofence.triggerSubscriptionId
            }
        }

        /// The geofence's events, delivered (by `drain`) then pending (an event recorded twice would appear twice).
        func allGeofenceEvents() async throws -> [RegionEvent] {
            let url = directory.appendingPathComponent("delivered.jsonl")
            let delivered = ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONDecoder().decode(RegionEvent.self, from: Data($0.utf8))
            }
            return (delivered + (try await store.pending(now: time))).filter {
                $0.triggerSubscriptionId == LifecycleScript.geofence.triggerSubscriptionId
            }
        }

        private static func line(_ event: RegionEvent) -> String {
            String(decoding: (try? JSONEncoder().encode(event)) ?? Data(), as: UTF8.self)
        }
    }

    /// `[{"kind":"entry","at":100,"id":"..."}]`, times in script seconds.
    static func json(_ events: [RegionEvent]) -> String {
        "["
            + events.map {
                #"{"kind":"\#($0.transition.rawValue)","at":\#(Int($0.occurredAt.timeIntervalSince(epoch).rounded())),"id":"\#($0.recordId.uuidString)"}"#
            }.joined(separator: ",") + "]"
    }
}
