import Foundation

/// The monotonic clock the ``ConnectButtonController`` reads and waits on. Inject your own to drive the
/// flow's pauses in tests without waiting.
public protocol ActivationClock: Sendable {
    /// Milliseconds since an arbitrary fixed origin; never goes backwards.
    var nowMilliseconds: UInt64 { get }
    /// Returns once ``nowMilliseconds`` has reached `deadline` (at once if it has already).
    ///
    /// - Parameter deadline: The time to wait for, in milliseconds on this clock.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    func sleep(untilMilliseconds deadline: UInt64) async throws
}

/// The system's monotonic clock (`DispatchTime`).
public struct SystemActivationClock: ActivationClock {
    /// Creates the clock.
    public init() {}

    /// Milliseconds of `DispatchTime.now()`.
    public var nowMilliseconds: UInt64 { DispatchTime.now().uptimeNanoseconds / 1_000_000 }

    /// Sleeps with `Task.sleep(nanoseconds:)` until the deadline.
    ///
    /// - Parameter deadline: The time to wait for.
    /// - Throws: `CancellationError` when cancelled.
    public func sleep(untilMilliseconds deadline: UInt64) async throws {
        let now = nowMilliseconds
        guard deadline > now else { return }
        try await Task.sleep(nanoseconds: (deadline - now) * 1_000_000)
    }
}
