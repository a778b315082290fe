/// A seeded random number generator (SplitMix64, Steele, Lea and Flood 2014, with the reference constants), so that
/// a randomized test draws the same values on every run.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let radius = Double.random(in: 100..<1500, using: &random)
/// ```
@_spi(Sandbox) public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's position; each ``next()`` moves it.
    public var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    ///
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    ///
    /// - Returns: A value drawn uniformly from all `UInt64`s.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A `Double` in `0..<1` made of the next 53 random bits (every value a multiple of 2^-53).
    ///
    /// - Returns: The next value, uniformly distributed.
    public mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
