// Decoding a Connection: the SDK's public path (`Connection.decode(from:)`) next to two baselines on the same
// payloads, in the same run: ConnectSDK-iOS 2.8's own parsing path (`JSONSerialization`, its `Parser`, its
// `Connection`/`Service`/`Feature` initializers and region parsing, rebuilt in Workloads/Legacy28Baseline.swift) and
// `JSONDecoder` + `Decodable` structs. Payloads: every Connection fixture of the tests (Workloads/Fixtures), a
// complete Connection with value propositions and a synthetic Connection with 500 features.
// Goal: on every payload the SDK decodes at least 3x as many Connections per second as 2.8's path and at least 1.5x
// as many as Codable, as the median of interleaved rounds ("Decoding goal"). Its second verdict line, "decoding
// floor", is the check's margin (half of each goal: 1.5x and 0.75x), which scripts/checks/65-benchmarks.sh enforces.
import Benchmark
import BenchmarkSupport
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Workloads

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        maxDuration: .seconds(1), maxIterations: 10_000)
    for payload in payloads() {
        let data = payload.data
        Benchmark("\(payload.name): SDK Connection.decode(from:)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try Connection.decode(from: data)) }
        }
        Benchmark("\(payload.name): baseline ConnectSDK-iOS 2.8's parser") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Legacy28Baseline.decode(data)) }
        }
        Benchmark("\(payload.name): baseline JSONDecoder + Codable") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try CodableBaseline.decode(data)) }
        }
    }
    Benchmark(
        "Decoding goal: SDK speed-up over 2.8's parser, worst payload (x100)",
        configuration: .init(
            metrics: [.custom("speed-up x100", polarity: .prefersLarger, useScalingFactor: false)],
            warmupIterations: 0, maxIterations: 1)
    ) { benchmark in
        let goal = (legacy: 3.0, codable: 1.5)
        let environment = ProcessInfo.processInfo.environment
        let rounds = environment["DECODING_GOAL_ROUNDS"].flatMap(Int.init).map { max($0, 1) } ?? 11
        var worst = (legacy: Double.infinity, legacyPayload: "", codable: Double.infinity, codablePayload: "")
        var lines = [
            "payload                         SDK µs   2.8 µs  SDK vs 2.8 median (min-max)  Codable µs"
                + "  SDK vs Codable median (min-max)"
        ]
        for payload in payloads() {
            let data = payload.data
            try checkAgreement(data, name: payload.name)
            // One round times the SDK, 2.8's path and Codable in turn; each ratio is taken within a round.
            let times = try Timing.interleaved(
                rounds: rounds, budget: .milliseconds(20),
                [
                    { try Connection.decode(from: data).features.count },
                    { Legacy28Baseline.decode(data)?.features.count ?? 0 },
                    { try CodableBaseline.decode(data).features.count },
                ])
            let sdk = Spread(times.map { $0[0] })
            let legacy = Spread(times.map { $0[1] / $0[0] })
            let codable = Spread(times.map { $0[2] / $0[0] })
            if legacy.median < worst.legacy { (worst.legacy, worst.legacyPayload) = (legacy.median, payload.name) }
            if codable.median < worst.codable { (worst.codable, worst.codablePayload) = (codable.median, payload.name) }
            lines.append(
                payload.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + String(
                        format: "%8.1f %8.1f  %6.2fx (%.2f-%.2f)          %10.1f  %6.2fx (%.2f-%.2f)",
                        sdk.median / 1000, Spread(times.map { $0[1] }).median / 1000, legacy.median, legacy.min,
                        legacy.max, Spread(times.map { $0[2] }).median / 1000, codable.median, codable.min,
                        codable.max))
        }
        lines.append(
            "(\(rounds) interleaved rounds of 20 ms of CPU time per decoder; times and ratios are medians of the rounds)"
        )
        for line in lines { Goal.note("  " + line) }
        benchmark.measurement(
            .custom("speed-up x100", polarity: .prefersLarger, useScalingFactor: false), Int(worst.legacy * 100))
        let measured =
            String(format: "worst median speed-up %.2fx over 2.8's parser", worst.legacy)
            + " (\(worst.legacyPayload)), " + String(format: "%.2fx over Codable", worst.codable)
            + " (\(worst.codablePayload))"
        Goal.report(
            "decoding", measured: measured,
            goal: "at least 3x over 2.8's parser and 1.5x over Codable on every payload",
            met: worst.legacy >= goal.legacy && worst.codable >= goal.codable)
        Goal.report(
            "decoding floor", measured: measured,
            goal: "at least 1.5x over 2.8's parser and 0.75x over Codable, half of each goal: the check's margin",
            met: worst.legacy >= goal.legacy / 2 && worst.codable >= goal.codable / 2)
    }
}
