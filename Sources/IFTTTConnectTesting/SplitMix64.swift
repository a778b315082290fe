/// A seeded random number generator (SplitMix64), so that a randomized test draws the same values on every run.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let radius = Double.random(in: 100..<1500, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
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
        z = (z ^ (z >> 27)) &* 0x94D4_9BB1_33B1_11EB
        return z ^ (z >> 31)
    }
}
