// libFuzzer entry point for the sandbox's seed-file loader: scripts/fuzz.sh compiles this file with the
// seed sources of Sandbox/Sources/ConnectSandbox (SeedData*.swift, SandboxError.swift; the parts that need
// GRDB are left out), so the loader runs exactly as `ifttt-connect sandbox --seed-file` runs it.
import Foundation

/// Any bytes either load or fail with a typed SandboxError whose message names the source; a seed that
/// loads survives a round trip through its own JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let seed: SeedData
    do {
        seed = try SeedData.decode(data, path: "fuzz.json")
        try seed.validate(source: "fuzz.json")
    } catch {
        precondition(!String(describing: error).isEmpty, "an error without a message")
        return 0
    }
    let again: SeedData
    do {
        again = try SeedData.decode(seed.jsonData(), path: "round-trip")
        try again.validate(source: "round-trip")
    } catch {
        preconditionFailure("a valid seed does not survive its own JSON: \(error)")
    }
    precondition(again.jsonData() == seed.jsonData(), "the seed changed on a round trip")
    return 0
}
