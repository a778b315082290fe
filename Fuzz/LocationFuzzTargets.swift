// libFuzzer entry point for the location journal scanner: scripts/fuzz.sh compiles Sources/IFTTTConnectLocation
// with coverage, address sanitizer and -enable-testing, and this file against it (`@testable` reaches the internal
// EventJournal without changing production code).
import Foundation
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// Any bytes scan without crashing; every byte is either in an accepted record or counted as skipped; the
/// accepted entries, written again, scan back to the same entries with nothing skipped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let scan = EventJournal.scan(data)
    precondition(
        scan.skippedBytes >= 0 && scan.skippedBytes <= data.count, "skipped \(scan.skippedBytes) of \(data.count)")
    var rewritten = Data()
    for entry in scan.entries { rewritten.append(EventJournal.encode(entry)) }
    let again = EventJournal.scan(rewritten)
    precondition(again.skippedBytes == 0, "a rewritten journal has \(again.skippedBytes) damaged bytes")
    precondition(again.entries == scan.entries, "entries changed on a rewrite")
    return 0
}
