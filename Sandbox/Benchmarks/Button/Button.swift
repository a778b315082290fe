// The Connect Button, per visual state: computing its appearance (localized texts, colours, geometry) and rendering
// it as SVG, one benchmark per state, so the states sit next to each other in one table.
// Goal: every state within 2x the median state (no state costs a frame more than the rest); "Button goal" checks it.
import Benchmark
import BenchmarkSupport
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Workloads

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        maxDuration: .seconds(1), maxIterations: 10_000)
    let localization = ConnectLocalization(identifier: "en-US")
    _ = localization.string(.connect)  // load the tables before timing
    for state in ConnectButtonVisualState.allExamples {
        Benchmark("render \(state.name): appearance + SVG") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(ButtonWorkload.render(state, localization)) }
        }
    }
    Benchmark(
        "Button goal: slowest state / median state (x100)",
        configuration: .init(
            metrics: [.custom("slowest / median x100", useScalingFactor: false)], warmupIterations: 0,
            maxIterations: 1)
    ) { benchmark in
        let perState = ConnectButtonVisualState.allExamples.map { state in
            (
                name: state.name,
                nanoseconds: Timing.nanosecondsPerCall(budget: .milliseconds(40)) {
                    ButtonWorkload.render(state, localization)
                }
            )
        }
        let median = perState.map(\.nanoseconds).sorted()[perState.count / 2]
        guard let slowest = perState.max(by: { $0.nanoseconds < $1.nanoseconds }) else { return }
        let ratio = slowest.nanoseconds / median
        benchmark.measurement(.custom("slowest / median x100", useScalingFactor: false), Int(ratio * 100))
        Goal.report(
            "button",
            measured: "slowest state \(slowest.name) "
                + String(
                    format: "%.2f µs, %.2fx the median state (%.2f µs), %d states", slowest.nanoseconds / 1000, ratio,
                    median / 1000, perState.count),
            goal: "every state within 2x the median", met: ratio <= 2)
    }
}
