// Decoding benchmark: the SDK's decoder against the original SDK's approach (JSONSerialization plus a
// hand-written dictionary walk) on the same payloads, in the same run. Run in release:
//   swift run -c release ConnectBenchmarks [--fixtures DIR] [--seconds S]
// (default fixtures: Tests/Fixtures). Goal: the SDK decodes at least 2x as many Connections per second.
import Foundation
import IFTTTConnectSDK

struct Options {
    /// `Tests/Fixtures` of this checkout, wherever the command runs from.
    var fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures").path
    var seconds = 1.0

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--fixtures": fixtures = iterator.next() ?? fixtures
            case "--seconds": seconds = iterator.next().flatMap(Double.init) ?? seconds
            default:
                FileHandle.standardError.write(
                    Data("unknown argument \(argument)\nusage: ConnectBenchmarks [--fixtures DIR] [--seconds S]\n".utf8)
                )
                exit(64)
            }
        }
    }
}

let options = Options(arguments: CommandLine.arguments)

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

var payloads: [(name: String, data: Data)] = []
for name in ["ios_fetch_connection_response.json", "android_connection.json", "android_connection_enabled.json"] {
    let url = URL(fileURLWithPath: options.fixtures).appendingPathComponent(name)
    guard let data = try? Data(contentsOf: url) else {
        FileHandle.standardError.write(Data("cannot read \(url.path); pass --fixtures DIR\n".utf8))
        exit(66)
    }
    payloads.append((name, data))
}
payloads.append(("synthetic, 200 features", SyntheticPayload.connection(features: 200)))

/// Runs `body` repeatedly for about `seconds` and returns iterations per second.
func measure(seconds: Double, _ body: () throws -> Connection) rethrows -> Double {
    let clock = ContinuousClock()
    var checksum = 0
    for _ in 0..<20 { checksum &+= try body().features.count }  // warm up
    var iterations = 0
    let start = clock.now
    let budget = Duration.milliseconds(Int64(seconds * 1000))
    while clock.now - start < budget {
        for _ in 0..<10 { checksum &+= try body().features.count }
        iterations += 10
    }
    let elapsed = clock.now - start
    let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    if checksum == Int.min { say("") }  // keep the work observable
    return Double(iterations) / secondsElapsed
}

say("Decoding benchmark (release build, \(options.seconds) s per measurement)")
say(String(repeating: "-", count: 100))
say("payload                              bytes     SDK conn/s    SDK MB/s   base conn/s   base MB/s   speed-up")
var minimumSpeedUp = Double.infinity
for payload in payloads {
    // Both decoders must agree before they are timed.
    let ours = try Connection.decode(from: payload.data)
    let theirs = try BaselineDecoder.decode(payload.data)
    guard ours.id == theirs.id, ours.features.count == theirs.features.count,
        ours.services.count == theirs.services.count, ours.locationRegions == theirs.locationRegions
    else {
        FileHandle.standardError.write(Data("decoders disagree on \(payload.name)\n".utf8))
        exit(1)
    }
    let sdk = try measure(seconds: options.seconds) { try Connection.decode(from: payload.data) }
    let base = try measure(seconds: options.seconds) { try BaselineDecoder.decode(payload.data) }
    let megabytes = Double(payload.data.count) / 1_000_000
    let speedUp = sdk / base
    minimumSpeedUp = min(minimumSpeedUp, speedUp)
    func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
    say(
        payload.name.padding(toLength: 30, withPad: " ", startingAt: 0)
            + pad(String(payload.data.count), 11)
            + pad(String(format: "%.0f", sdk), 15) + pad(String(format: "%.1f", sdk * megabytes), 12)
            + pad(String(format: "%.0f", base), 14) + pad(String(format: "%.1f", base * megabytes), 12)
            + pad(String(format: "%.2fx", speedUp), 11))
}
say(String(repeating: "-", count: 100))
say(
    String(format: "minimum speed-up over the JSONSerialization baseline: %.2fx (goal: at least 2x): ", minimumSpeedUp)
        + (minimumSpeedUp >= 2 ? "meets goal" : "MISSES goal"))
