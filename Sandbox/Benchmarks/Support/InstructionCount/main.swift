// Runs one workload of the benchmark suites a given number of times and nothing else, so that
// `scripts/instructions.sh` can count its instructions under `valgrind --tool=callgrind`: the count of a run with N
// iterations minus the count of a run with 0 is the workload's cost, repeatable to a few instructions whatever else
// the machine is doing (package-benchmark's instruction counter needs hardware counters, which virtual machines often
// lack).
//
// Usage: InstructionCount list
//        InstructionCount decode-sdk|decode-codable|decode-2.8 <payload> <iterations>
//        InstructionCount button <state> <iterations>
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Workloads

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("InstructionCount: \(message)\n".utf8))
    exit(64)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let allPayloads = payloads()
let payloadNames = allPayloads.map { $0.name.replacingOccurrences(of: " ", with: "-") }
let states = ConnectButtonVisualState.allExamples

if arguments == ["list"] {
    for name in payloadNames { print("decode \(name)") }
    for state in states { print("button \(state.name)") }
    exit(0)
}
guard arguments.count == 3, let iterations = Int(arguments[2]), iterations >= 0 else {
    fail("usage: InstructionCount list | <workload> <payload or state> <iterations>")
}
let (workload, subject) = (arguments[0], arguments[1])

// Everything a workload needs is prepared before its loop, in both the 0-iteration and the N-iteration run, so the
// difference between the two is the loop alone.
var checksum = 0
switch workload {
case "decode-sdk", "decode-codable", "decode-2.8":
    guard let index = payloadNames.firstIndex(of: subject) else { fail("no payload \(subject)") }
    let data = allPayloads[index].data
    let decode: (Data) throws -> Int =
        switch workload {
        case "decode-sdk": { try Connection.decode(from: $0).features.count }
        case "decode-codable": { try CodableBaseline.decode($0).features.count }
        default: { Legacy28Baseline.decode($0)?.features.count ?? 0 }
        }
    checksum &+= try decode(data)  // warm up: first-use costs stay out of the difference
    for _ in 0..<iterations { checksum &+= try decode(data) }
case "button":
    guard let state = states.first(where: { $0.name == subject }) else { fail("no state \(subject)") }
    let localization = ConnectLocalization(identifier: "en-US")
    checksum &+= ButtonWorkload.render(state, localization)  // warm up: loads the string tables
    for _ in 0..<iterations { checksum &+= ButtonWorkload.render(state, localization) }
default:
    fail("unknown workload \(workload)")
}
print(checksum)
