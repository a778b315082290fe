import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A benchmark's goal and its verdict, measured as a ratio against a baseline (or a time) in the same process.
///
/// package-benchmark runs every benchmark in a process of its own, so a ratio between two rows of its table cannot be
/// computed inside one of them. Each suite therefore ends with a goal benchmark that times the subject and its
/// baseline interleaved, in one process, reports the ratio as a custom metric, and prints one line:
/// `GOAL <name>: <measured> (goal: <goal>): goal met` (or `goal missed`).
public enum Goal {
    /// Writes the verdict line to standard error (package-benchmark keeps standard output for its own protocol) and
    /// to the file named by `BENCHMARK_GOALS_FILE`, when set, so a script can collect every verdict of a run.
    ///
    /// - Returns: Whether the goal is met.
    @discardableResult
    public static func report(_ name: String, measured: String, goal: String, met: Bool) -> Bool {
        note("GOAL \(name): \(measured) (goal: \(goal)): \(met ? "goal met" : "goal missed")")
        return met
    }

    /// Writes `text` and a newline where ``report(_:measured:goal:met:)`` writes its verdict: for the measurements
    /// behind a verdict (a table), which a script reads next to it. Its lines should not start with `GOAL`.
    public static func note(_ text: String) {
        let line = text + "\n"
        FileHandle.standardError.write(Data(line.utf8))
        if let path = ProcessInfo.processInfo.environment["BENCHMARK_GOALS_FILE"], !path.isEmpty {
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil)
            }
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.seekToEndOfFile()
                handle.write(Data(line.utf8))
                try? handle.close()
            }
        }
    }
}

/// Wall-clock timing for goal checks: the mean time per call over a short budget, best of several rounds, so that a
/// burst from another process on a shared machine does not decide a verdict.
public enum Timing {
    /// The best (lowest) mean time per call of `body`, in nanoseconds, over `rounds` runs of about `budget` each.
    public static func nanosecondsPerCall(
        rounds: Int = 5, budget: Duration = .milliseconds(100), _ body: () throws -> Int
    ) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<rounds { best = min(best, try round(budget: budget, body)) }
        return best
    }

    /// Times `subject` and `baseline` in alternating rounds and returns the best mean time per call of each, in
    /// nanoseconds: the two see the same machine conditions.
    public static func compare(
        rounds: Int = 5, budget: Duration = .milliseconds(100), subject: () throws -> Int,
        baseline: () throws -> Int
    ) rethrows -> (subject: Double, baseline: Double) {
        var bestSubject = Double.infinity
        var bestBaseline = Double.infinity
        for _ in 0..<rounds {
            bestSubject = min(bestSubject, try round(budget: budget, subject))
            bestBaseline = min(bestBaseline, try round(budget: budget, baseline))
        }
        return (bestSubject, bestBaseline)
    }

    /// Times each of `bodies` once per round, in turn, for `rounds` rounds, and returns every round's mean CPU time
    /// per call of each, in nanoseconds (`result[round][body]`). The bodies of one round see the same machine
    /// conditions, so the ratio of two of them within a round cancels the load, and the rounds give its spread. The
    /// clock is the thread's CPU time, not the wall clock: on a machine shared by many builds a wall-clock round
    /// also counts the time the thread waited for a core, which says nothing about the code and varied the ratios
    /// of one run by 2-7x.
    public static func interleaved(
        rounds: Int, budget: Duration, _ bodies: [() throws -> Int]
    ) throws -> [[Double]] {
        let limit = nanoseconds(budget)
        var result: [[Double]] = []
        for _ in 0..<rounds {
            var times: [Double] = []
            for body in bodies {
                var checksum = try body()  // warm up
                var calls = 0
                let start = threadCPUTime()
                var elapsed = 0.0
                repeat {
                    checksum &+= try body()
                    calls += 1
                    elapsed = threadCPUTime() - start
                } while elapsed < limit
                keep(checksum)
                times.append(elapsed / Double(calls))
            }
            result.append(times)
        }
        return result
    }

    /// The CPU time this thread has used, in nanoseconds.
    public static func threadCPUTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
    }

    /// The async form of ``nanosecondsPerCall(rounds:budget:_:)``.
    public static func nanosecondsPerCall(
        rounds: Int = 5, budget: Duration = .milliseconds(100), _ body: () async throws -> Int
    ) async rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let clock = ContinuousClock()
            var checksum = try await body()  // warm up
            var calls = 0
            let start = clock.now
            while clock.now - start < budget {
                checksum &+= try await body()
                calls += 1
            }
            best = min(best, nanoseconds(clock.now - start) / Double(max(calls, 1)))
            keep(checksum)
        }
        return best
    }

    /// `duration` in nanoseconds.
    public static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    private static func round(budget: Duration, _ body: () throws -> Int) rethrows -> Double {
        let clock = ContinuousClock()
        var checksum = try body()  // warm up
        var calls = 0
        let start = clock.now
        while clock.now - start < budget {
            checksum &+= try body()
            calls += 1
        }
        let elapsed = nanoseconds(clock.now - start)
        keep(checksum)
        return elapsed / Double(max(calls, 1))
    }

    /// Keeps a checksum observable so the optimizer cannot drop the timed work.
    @inline(never)
    public static func keep(_ value: Int) {
        if value == Int.min { FileHandle.standardError.write(Data(" ".utf8)) }
    }
}

/// The median and the extremes of a sample.
public struct Spread: Sendable {
    /// The median (the mean of the two middle values for an even count).
    public let median: Double
    /// The smallest value.
    public let min: Double
    /// The largest value.
    public let max: Double

    /// The spread of `values` (at least one).
    public init(_ values: [Double]) {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
    }
}
