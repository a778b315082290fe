import Foundation

/// A ``ConnectClock`` whose wall time comes from a closure and whose waits are the system's: what the earlier
/// `now:` parameters of the analytics and location engines (the spelling before the one clock port) forward to.
package struct ClosureClock: ConnectClock {
    private let read: @Sendable () -> Date

    /// Creates the clock.
    ///
    /// - Parameter now: The wall-clock time.
    package init(_ now: @escaping @Sendable () -> Date) { read = now }

    /// The closure's time.
    package var now: Date { read() }

    /// The system's monotonic reading.
    package var nowMilliseconds: UInt64 { SystemConnectClock().nowMilliseconds }

    /// Waits on the system clock.
    ///
    /// - Parameter deadline: The time to wait for, in milliseconds on ``nowMilliseconds``.
    /// - Throws: `CancellationError` when cancelled.
    package func sleep(untilMilliseconds deadline: UInt64) async throws {
        try await SystemConnectClock().sleep(untilMilliseconds: deadline)
    }
}
