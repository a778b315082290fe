import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// A ``ConnectClock`` whose wall-clock time is what `read` answers and whose waits are the system's: a simulated trip's
/// shifted time, a simulated launch's fixed time. (The SDK's engines take a clock; the `now:` closures they once took
/// are deprecated.)
struct ReadingClock: ConnectClock {
    /// The wall-clock time.
    let read: @Sendable () -> Date

    /// Creates the clock.
    ///
    /// - Parameter read: The wall-clock time, read on every use.
    init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// `read()`.
    var now: Date { read() }

    /// The system clock's milliseconds.
    var nowMilliseconds: UInt64 { SystemConnectClock().nowMilliseconds }

    /// Waits on the system clock.
    ///
    /// - Parameter deadline: The time to wait for, in the system clock's milliseconds.
    /// - Throws: `CancellationError` when cancelled.
    func sleep(untilMilliseconds deadline: UInt64) async throws {
        try await SystemConnectClock().sleep(untilMilliseconds: deadline)
    }
}
