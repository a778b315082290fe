import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// A clock that moves only when the test moves it: a `ConnectClock` for the Connect
/// button's pauses and a `now` for every API that takes a `() -> Date`.
///
/// ```swift
/// let clock = ManualClock()              // pass as `clock:` of ConnectButtonController.Configuration
/// let now: @Sendable () -> Date = { clock.now }
/// clock.advance(by: 2_000)                // milliseconds: wakes the flow's timers that are due
/// clock.advance(1.5)                      // seconds
/// ```
@_spi(Sandbox) public final class ManualClock: ConnectClock, Sendable {
    private struct State {
        var current: Date
        var sleepers: [(deadline: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Locked<State>

    /// Creates a clock that starts at `start` (by default 2023-11-14T22:13:20Z, `1_700_000_000` seconds).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        state = Locked(State(current: start))
    }

    /// The current time.
    public var now: Date { state.withLock { $0.current } }

    /// The current time in whole milliseconds since 1970.
    public var nowMilliseconds: UInt64 { state.withLock { Self.milliseconds($0.current) } }

    /// Returns once the clock reaches `deadline`; at once if it already has. Cancellation does not end the wait.
    ///
    /// - Parameter deadline: Milliseconds since 1970 on this clock.
    public func sleep(untilMilliseconds deadline: UInt64) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = state.withLock {
                if deadline <= Self.milliseconds($0.current) { return true }
                $0.sleepers.append((deadline, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Moves the clock forward by `milliseconds` and wakes the sleepers that are due.
    ///
    /// - Parameter milliseconds: How far to move.
    public func advance(by milliseconds: UInt64) {
        move { $0.addingTimeInterval(Double(milliseconds) / 1000) }
    }

    /// Moves the clock forward by `seconds` and wakes the sleepers that are due.
    ///
    /// - Parameter seconds: How far to move.
    public func advance(_ seconds: TimeInterval) {
        move { $0.addingTimeInterval(seconds) }
    }

    /// Moves the clock to `date`, or leaves it where it is if `date` is in its past; wakes the sleepers that are due.
    ///
    /// - Parameter date: Where to move.
    public func advance(to date: Date) {
        move { max($0, date) }
    }

    private func move(_ change: (Date) -> Date) {
        let due: [CheckedContinuation<Void, Never>] = state.withLock {
            $0.current = change($0.current)
            let now = Self.milliseconds($0.current)
            let ready = $0.sleepers.filter { $0.deadline <= now }.map(\.continuation)
            $0.sleepers.removeAll { $0.deadline <= now }
            return ready
        }
        for continuation in due { continuation.resume() }
    }

    private static func milliseconds(_ date: Date) -> UInt64 {
        UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded()))
    }
}
