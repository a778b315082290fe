@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing

/// `IFTTTConnectTesting.SplitMix64` is the one seeded generator of the repository (tests, the sandbox's `--seed`
/// fault injection, the benchmarks); it must be SplitMix64 itself, so a seed means the same sequence anywhere.
@Suite("SplitMix64")
struct SplitMix64Tests {
    /// The first outputs of the reference implementation (Vigna's splitmix64.c) for seeds 0 and 42.
    @Test func matchesTheReferenceSequence() {
        var zero = SplitMix64(seed: 0)
        #expect(
            (0..<4).map { _ in zero.next() } == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F, 0xF88B_B8A8_724C_81EC,
            ])
        var fortyTwo = SplitMix64(seed: 42)
        #expect(
            (0..<4).map { _ in fortyTwo.next() } == [
                0xBDD7_3226_2FEB_6E95, 0x28EF_E333_B266_F103, 0x4752_6757_130F_9F52, 0x581C_E1FF_0E4A_E394,
            ])
    }

    @Test func unitDoublesAreTheTop53Bits() {
        var generator = SplitMix64(seed: 0)
        let value = generator.nextUnitDouble()
        #expect(value == Double(UInt64(0xE220_A839_7B1D_CDAF) >> 11) * 0x1.0p-53)
        var many = SplitMix64(seed: 7)
        #expect((0..<1000).allSatisfy { _ in (0..<1).contains(many.nextUnitDouble()) })
    }
}
