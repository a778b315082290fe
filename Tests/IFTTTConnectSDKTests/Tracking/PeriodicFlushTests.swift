import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing

@_spi(Sandbox) @testable import IFTTTConnectCore

/// A clock on which every wait returns at once, after moving the clock to its deadline; it records the deadlines
/// and ends the waiting loop (with `CancellationError`, as a cancelled wait does) after `waits` waits.
final class SteppingClock: ConnectClock, Sendable {
    private struct State {
        var milliseconds: UInt64 = 1_700_000_000_000
        var deadlines: [UInt64] = []
    }

    private let state = Locked(State())
    private let waits: Int

    init(waits: Int) { self.waits = waits }

    var now: Date { Date(timeIntervalSince1970: Double(nowMilliseconds) / 1000) }
    var nowMilliseconds: UInt64 { state.withLock { $0.milliseconds } }
    /// The deadlines of the waits so far, relative to the clock's start.
    var waitedFor: [UInt64] { state.withLock { $0.deadlines.map { $0 - 1_700_000_000_000 } } }

    func sleep(untilMilliseconds deadline: UInt64) async throws {
        let stop: Bool = state.withLock {
            guard $0.deadlines.count < waits else { return true }
            $0.deadlines.append(deadline)
            $0.milliseconds = max($0.milliseconds, deadline)
            return false
        }
        if stop { throw CancellationError() }
    }
}

@Suite("Analytics uploader: the periodic flush on every OS version")
struct PeriodicFlushTests {
    func uploader(_ transport: FakeAnalyticsTransport, _ clock: SteppingClock) -> AnalyticsUploader {
        AnalyticsUploader(
            network: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-7",
                callbackQueue: nil),
            analyticsSwitch: AnalyticsSwitch(), clock: clock)
    }

    @Test func theDefaultTicksEveryThirtySecondsAndSendsWhatWaits() async {
        let transport = FakeAnalyticsTransport(.answer(204))
        let clock = SteppingClock(waits: 2)
        let uploader = uploader(transport, clock)
        await uploader.track(
            .click(.aboutButton("b"), connectionId: "c1", at: Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(transport.requests.isEmpty)
        await uploader.runPeriodicFlush()
        await uploader.waitUntilIdle()
        #expect(clock.waitedFor == [30_000, 60_000])
        #expect(transport.requests.count == 1)
        #expect(await uploader.pendingEvents.isEmpty)
    }

    @Test(arguments: [
        (0.25, [250, 500, 750] as [UInt64]), (1.5, [1500, 3000, 4500]), (0, [1, 2, 3]), (-5, [1, 2, 3]),
        (.nan, [1, 2, 3]), (.infinity, [1_000_000_000_000_000, 2_000_000_000_000_000, 3_000_000_000_000_000]),
    ])
    func secondsBecomeMillisecondsOfTheClock(seconds: TimeInterval, deadlines: [UInt64]) async {
        let clock = SteppingClock(waits: 3)
        await uploader(FakeAnalyticsTransport(.answer(204)), clock).runPeriodicFlush(everySeconds: seconds)
        #expect(clock.waitedFor == deadlines)
    }

    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @Test func aDurationWaitsAsLongAsTheSameSeconds() async {
        let clock = SteppingClock(waits: 2)
        await uploader(FakeAnalyticsTransport(.answer(204)), clock).runPeriodicFlush(every: .milliseconds(1500))
        #expect(clock.waitedFor == [1500, 3000])
    }

    @Test func cancellingTheTaskEndsTheLoop() async {
        let clock = SteppingClock(waits: .max)
        let uploader = uploader(FakeAnalyticsTransport(.answer(204)), clock)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await uploader.runPeriodicFlush(everySeconds: 1)
        }
        await task.value
        #expect(clock.waitedFor.isEmpty)
    }
}
