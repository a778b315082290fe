@testable import ConnectCLI
import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import Testing

/// The app's lifecycle around one arrival, with real processes: `ifttt-connect location lifecycle` is one launch of
/// an app monitoring one geofence (entry and exit recorded). The device crosses into it at 100 s; the app is
/// terminated with SIGKILL or suspended at a step of that crossing, and runs again at `R` inside or outside; it then
/// keeps running (and, with a full store, an upload makes room). Every cell must end with exactly the events a
/// person expects, at their own times, none twice, and a full store must never hold a lone exit.
@Suite("Location lifecycle: SIGKILL and suspension at every step of a crossing")
struct LocationLifecycleTests {
    /// Where the crossing is when the app stops running.
    enum Step: String, CaseIterable, Sendable {
        /// The platform has the crossing; the SDK has not handled it.
        case beforeReport = "before the report"
        /// The SDK saved the crossing (with the dwell filter: pending; without: recorded, or refused by a full store).
        case saved = "crossing saved"
        /// The dwell time passed while the app ran, and the entry was recorded.
        case recorded = "dwell passed, recorded"
    }

    enum Interruption: String, Sendable {
        case sigkill = "SIGKILL"
        case suspension
    }

    struct Cell: Sendable, CustomStringConvertible {
        var dwell: Bool
        var full: Bool
        var step: Step
        var interruption: Interruption
        var inside: Bool
        /// When the app runs again, in seconds (the crossing is at 100; its dwell deadline at 130).
        var resume: Int

        var description: String {
            "\(step.rawValue) | \(interruption.rawValue) | \(inside ? "inside" : "outside") at \(resume) s | dwell \(dwell ? "30 s" : "off") | store \(full ? "full" : "ok")"
        }

        /// What a person expects to be recorded: `kind@seconds`.
        var expected: [String] {
            switch step {
            case .beforeReport:
                return inside ? ["entry@\(resume)"] : []
            case .saved, .recorded:
                if inside { return ["entry@100"] }
                if dwell && resume < 130 { return [] }  // left again within the dwell time: no arrival
                return ["entry@100", "exit@\(resume)"]
            }
        }

        /// Every cell of the matrix.
        static var all: [Cell] {
            var cells: [Cell] = []
            for dwell in [true, false] {
                for full in [false, true] {
                    for step in Step.allCases where dwell || step != .recorded {
                        for interruption in [Interruption.sigkill, .suspension]
                        where interruption == .sigkill || step != .beforeReport {
                            for inside in [true, false] {
                                for resume in step == .recorded ? [1000] : [110, 1000] {
                                    cells.append(
                                        Cell(
                                            dwell: dwell, full: full, step: step, interruption: interruption,
                                            inside: inside, resume: resume))
                                }
                            }
                        }
                    }
                }
            }
            return cells
        }
    }

    static let capacity = 3

    /// Runs one launch; returns its lines (the process exits, or is killed after `hanging`).
    static func launch(
        _ executable: URL, directory: URL, cell: Cell, at: Int, inside: Bool, fill: Int = 0, steps: [String]
    ) async throws -> [String] {
        var arguments = [
            "location", "lifecycle", "--store", directory.path, "--dwell", cell.dwell ? "30" : "0",
            "--capacity", String(cell.full ? capacity : 10_000), "--fill", String(fill), "--at", String(at),
            "--where", inside ? "inside" : "outside",
        ]
        for step in steps { arguments += ["--step", step] }
        let child = try ChildProcess(executable: executable, arguments: arguments)
        if steps.last == "hang" {
            let hanging = await child.waitFor(1) { $0 == "hanging" }
            #expect(hanging, "\(cell): the first launch did not reach its step")
            child.kill()
            let (_, reason) = await child.finish()
            #expect(reason == .uncaughtSignal, "\(cell): not killed")
        } else {
            let (status, _) = await child.finish()
            #expect(status == 0, "\(cell): exit \(status): \(child.lines)")
        }
        return child.lines
    }

    static func events(_ lines: [String]) throws -> [(kind: String, at: Int, id: String)] {
        let line = try #require(lines.last { $0.hasPrefix("events ") })
        let items = try #require(
            try JSONSerialization.jsonObject(with: Data(line.dropFirst(7).utf8)) as? [[String: Any]])
        return items.map { ($0["kind"] as? String ?? "?", $0["at"] as? Int ?? -1, $0["id"] as? String ?? "") }
    }

    /// Runs `cell` and returns the events recorded, as `kind@seconds`.
    static func run(_ cell: Cell, executable: URL) async throws -> [String] {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fill = cell.full ? capacity : 0
        var first: [String] = []
        switch cell.step {
        case .beforeReport: first = []
        case .saved: first = ["in@100"]
        case .recorded: first = ["in@100", "run@200"]
        }
        // After the interruption: the app runs again at R (a suspended app is woken by the exit's report, or runs
        // again inside when it becomes active); with a full store an upload makes room; then it keeps running.
        var after: [String] = []
        if cell.interruption == .suspension {
            after.append("suspend@\(cell.resume)")
            after.append(cell.inside ? "run@\(cell.resume)" : "out@\(cell.resume)")
        }
        if cell.full { after.append("drain") }
        after.append("run@\(cell.resume + 300)")

        let lines: [String]
        switch cell.interruption {
        case .sigkill:
            _ = try await launch(
                executable, directory: directory, cell: cell, at: 0, inside: false, fill: fill, steps: first + ["hang"])
            lines = try await launch(
                executable, directory: directory, cell: cell, at: cell.resume, inside: cell.inside, steps: after)
        case .suspension:
            lines = try await launch(
                executable, directory: directory, cell: cell, at: 0, inside: false, fill: fill, steps: first + after)
        }
        if cell.full {
            // While the store was full it held none of the geofence's events: never a lone exit.
            let beforeDrain = try #require(lines.first { $0.hasPrefix("before-drain ") })
            #expect(beforeDrain == "before-drain []", "\(cell)")
        }
        let events = try events(lines)
        #expect(Set(events.map(\.id)).count == events.count, "\(cell): an event was recorded twice")
        return events.map { "\($0.kind)@\($0.at)" }
    }

    /// The whole matrix: every cell's recorded events equal the expected ones. Prints the table.
    @Test func everyCellEndsWithExactlyTheExpectedEvents() async throws {
        let executable = try LocationTest.executable()
        var table = ["step | interruption | runs again | dwell | store | expected | recorded"]
        var mismatches = 0
        for cell in Cell.all {
            let recorded = try await Self.run(cell, executable: executable)
            #expect(recorded == cell.expected, "\(cell)")
            if recorded != cell.expected { mismatches += 1 }
            table.append(
                "\(cell.description) | \(cell.expected.joined(separator: " ")) | \(recorded.joined(separator: " "))"
                    + (recorded == cell.expected ? "" : "  <- MISMATCH"))
        }
        print("lifecycle matrix (\(Cell.all.count) cells, \(mismatches) mismatches):\n" + table.joined(separator: "\n"))
    }

    /// SIGKILL at random points while the crossing is handled and recorded, then a relaunch: whatever the point, the
    /// geofence ends with the arrival (inside) or the arrival and the departure (outside), or, when the kill came
    /// before the crossing was saved, with what the relaunch observes; never a lone exit, never a repeat.
    /// `IFTTT_LOCATION_LIFECYCLE_KILLS` sets the number of kills (default 40).
    @Test func sigkillAtRandomPointsOfACrossingNeverLeavesALoneExitOrARepeat() async throws {
        let environment = ProcessInfo.processInfo.environment
        let kills = environment["IFTTT_LOCATION_LIFECYCLE_KILLS"].flatMap(Int.init) ?? 40
        let seed = UInt64.random(in: 0 ... .max)
        var random = SplitMix64(seed: seed)
        let executable = try LocationTest.executable()
        var outcomes: [String: Int] = [:]
        for iteration in 0..<kills {
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let dwell = random.next() % 2 == 0
            let inside = random.next() % 2 == 0
            let cell = Cell(
                dwell: dwell, full: false, step: .saved, interruption: .sigkill, inside: inside, resume: 1000)
            let child = try ChildProcess(
                executable: executable,
                arguments: [
                    "location", "lifecycle", "--store", directory.path, "--dwell", dwell ? "30" : "0",
                    "--step", "in@100", "--step", "run@200", "--step", "out@300", "--step", "in@400", "--step", "hang",
                ])
            _ = await child.waitFor(1) { $0 == "ready" }
            let delay = random.next() % 4000
            if delay > 0 { try await Task.sleep(for: .microseconds(delay)) }  // a random point of the crossings
            child.kill()
            _ = await child.finish()
            let lines = try await Self.launch(
                executable, directory: directory, cell: cell, at: 1000, inside: inside, steps: ["run@1300"])
            let events = try Self.events(lines)
            let kinds = events.map(\.kind)
            #expect(Set(events.map(\.id)).count == events.count, "iteration \(iteration) (seed \(seed))")
            // Entries and exits alternate, starting with an entry, and the last one matches where the device is.
            let alternating = kinds.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? "entry" : "exit") }
            #expect(alternating, "iteration \(iteration) (seed \(seed)): \(kinds)")
            #expect((kinds.last == "entry") == inside, "iteration \(iteration) (seed \(seed)): \(kinds)")
            outcomes[kinds.joined(separator: " "), default: 0] += 1
        }
        print("lifecycle random kills (seed \(seed)): \(outcomes.sorted { $0.key < $1.key })")
    }
}
