@testable import ConnectSandbox
@_spi(Sandbox) import IFTTTConnectTesting
import Testing

@Suite("The sandbox's seeded generator")
struct SeededRandomTests {
    /// The fault injection's generator draws the reference SplitMix64 sequence (IFTTTConnectTesting's, itself checked
    /// against the published values), so `--seed` keeps giving the faults it gave.
    @Test(arguments: [0, 42, 0x1234_5678, UInt64.max] as [UInt64])
    func itDrawsTheSplitMix64Sequence(seed: UInt64) {
        var sandbox = SeededRandom(seed: seed)
        var reference = SplitMix64(seed: seed)
        for _ in 0..<1_000 {
            #expect(sandbox.next() == reference.next())
        }
        #expect(sandbox.nextUnitDouble() == reference.nextUnitDouble())
    }
}
