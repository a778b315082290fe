import Foundation

/// The one clock every engine of the SDK reads: the Connect Button's flow, the analytics uploader, location
/// monitoring, the event uploader and the synchronizer. Inject your own (`ManualClock` from the IFTTTConnectTesting product)
/// to drive every pause and timestamp in tests without waiting.
///
/// It answers two questions: what time it is (``now``, wall-clock time for timestamps and schedules) and how long
/// to wait (``nowMilliseconds`` and ``sleep(untilMilliseconds:)``, a reading that never goes backwards).
@_spi(Sandbox) public protocol ConnectClock: Sendable {
    /// Wall-clock time: stamps on events, dates of scheduled work. Defaults to `Date()`.
    var now: Date { get }
    /// Milliseconds since an arbitrary fixed origin; never goes backwards.
    var nowMilliseconds: UInt64 { get }
    /// Returns once ``nowMilliseconds`` has reached `deadline` (at once if it has already).
    ///
    /// - Parameter deadline: The time to wait for, in milliseconds on this clock.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    func sleep(untilMilliseconds deadline: UInt64) async throws
}

extension ConnectClock {
    /// The system's wall-clock time, `Date()`.
    public var now: Date { Date() }
}

/// The system's clocks: `Date()` for wall time and `DispatchTime` for waits.
@_spi(Sandbox) public struct SystemConnectClock: ConnectClock {
    /// Creates the clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }

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
