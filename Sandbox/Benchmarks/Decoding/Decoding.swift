// Decoding a Connection: the SDK's public path (`Connection.decode(from:)`) next to two baselines on the same
// payloads, in the same run: `JSONDecoder` + `Decodable` structs, and `JSONSerialization` + a dictionary walk (the
// original SDK's approach). Payloads: the fixtures in Sources/Workloads/Fixtures (copied from Tests/Fixtures) and a
// synthetic Connection with 200 features.
// Goal: the SDK decodes at least 2x as many Connections per second as the JSONSerialization baseline, on every
// payload (checked by "Decoding goal").
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
        Benchmark("\(payload.name): baseline JSONDecoder + Codable") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try CodableBaseline.decode(data)) }
        }
        Benchmark("\(payload.name): baseline JSONSerialization + dictionary walk") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try SerializationBaseline.decode(data)) }
        }
    }
    Benchmark(
        "Decoding goal: SDK speed-up over JSONSerialization, worst payload (x100)",
        configuration: .init(
            metrics: [.custom("speed-up x100", polarity: .prefersLarger, useScalingFactor: false)],
            warmupIterations: 0, maxIterations: 1)
    ) { benchmark in
        var worst = Double.infinity
        var lines: [String] = []
        for payload in payloads() {
            let data = payload.data
            try checkAgreement(data, name: payload.name)
            let serialization = try Timing.compare(
                subject: { try Connection.decode(from: data).features.count },
                baseline: { try SerializationBaseline.decode(data).features.count })
            let codable = try Timing.nanosecondsPerCall { try CodableBaseline.decode(data).features.count }
            let speedUp = serialization.baseline / serialization.subject
            worst = min(worst, speedUp)
            lines.append(
                payload.name
                    + String(
                        format:
                            ": SDK %.1f µs, JSONSerialization %.1f µs (%.2fx), JSONDecoder + Codable %.1f µs (%.2fx)",
                        serialization.subject / 1000, serialization.baseline / 1000, speedUp,
                        codable / 1000, codable / serialization.subject))
        }
        for line in lines { FileHandle.standardError.write(Data(("  " + line + "\n").utf8)) }
        benchmark.measurement(
            .custom("speed-up x100", polarity: .prefersLarger, useScalingFactor: false), Int(worst * 100))
        Goal.report(
            "decoding", measured: String(format: "worst speed-up over JSONSerialization %.2fx", worst),
            goal: "at least 2x on every payload", met: worst >= 2)
    }
}
