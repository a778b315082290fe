/// The sandbox's seeded pseudo-random numbers, for reproducible fault injection (`--seed`): the SplitMix64 sequence
/// (Steele, Lea and Flood 2014, with the reference constants), kept here so that the server does not link the
/// IFTTTConnectTesting test doubles for it. The tests check it against that product's `SplitMix64`.
struct SeededRandom: Sendable {
    /// The position in the sequence; each draw moves it by the golden-ratio increment.
    private(set) var state: UInt64

    /// A sequence fixed by `seed`: equal seeds give equal sequences.
    init(seed: UInt64) { state = seed }

    /// The next 64 bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.finalize(state)
    }

    /// A `Double` in `0..<1` from the next 53 bits.
    mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// SplitMix64's output function: two multiply-xorshift rounds and a final xorshift.
    private static func finalize(_ value: UInt64) -> UInt64 {
        let first = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        let second = (first ^ (first >> 27)) &* 0x94D0_49BB_1331_11EB
        return second ^ (second >> 31)
    }
}
