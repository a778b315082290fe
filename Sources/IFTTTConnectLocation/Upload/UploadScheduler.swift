import Foundation

/// The upload engine: when to send, how much, and how long to back off. Pure; time and randomness come in.
///
/// * Batches hold at most ``Configuration/batchSize`` events (default 50).
/// * After a failure the next attempt waits `min(maximumDelay, baseDelay × 2^(failures − 1))`, scaled by a
///   jitter factor in `[0.5, 1.0)` drawn from the `random` value passed in, and never less than a server's
///   `Retry-After`. ``State`` is `Codable`: the shell saves it after each change, so the schedule survives
///   a relaunch and a relaunched app does not hammer a failing server.
/// * A 401 pauses uploading until ``Event/resumed``; no event is deleted.
@_spi(Sandbox) public struct UploadScheduler: Sendable {
    /// Batch size and backoff.
    public struct Configuration: Sendable, Hashable {
        /// The most events per request.
        public var batchSize: Int
        /// The delay after the first failure, in seconds.
        public var baseDelay: TimeInterval
        /// The longest delay, in seconds.
        public var maximumDelay: TimeInterval

        /// Creates a configuration: 50 events per batch, 2 s after the first failure, at most 1 hour.
        public init(batchSize: Int = 50, baseDelay: TimeInterval = 2, maximumDelay: TimeInterval = 3600) {
            self.batchSize = max(1, batchSize)
            self.baseDelay = max(0, baseDelay)
            self.maximumDelay = max(self.baseDelay, maximumDelay)
        }
    }

    /// What the scheduler remembers across launches.
    public struct State: Sendable, Hashable, Codable {
        /// Failures since the last success.
        public var consecutiveFailures: Int = 0
        /// No attempt before this time.
        public var notBefore: Date?
        /// Whether a 401 paused uploading.
        public var isPausedForAuthentication = false

        /// A fresh state: no failures, not paused.
        public init() {}
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        /// Time to consider uploading; `pending` events are waiting.
        case wake(pending: Int)
        /// The last batch was accepted.
        case succeeded
        /// The last batch failed and may be retried; `random` is uniform in `[0, 1)`; `retryAfter` is the
        /// server's `Retry-After` in seconds, if it sent one.
        case failed(random: Double, retryAfter: TimeInterval?)
        /// The server answered 401.
        case authenticationFailed
        /// New credentials arrived: uploading may resume at once.
        case resumed
    }

    /// What the shell should do next.
    public enum Decision: Sendable, Hashable {
        /// Send the oldest `count` pending events.
        case send(count: Int)
        /// Wait; try again at this time.
        case wait(until: Date)
        /// Nothing to send.
        case idle
        /// Paused by a 401 until ``Event/resumed``.
        case paused
        /// A 401 just happened: pause, keep every event, and tell the host app.
        case notifyAuthenticationFailure
    }

    /// The configuration.
    public let configuration: Configuration
    /// The state; save it after every ``handle(_:now:)``.
    public private(set) var state: State

    /// Creates a scheduler, restoring `state` from an earlier launch.
    public init(configuration: Configuration = Configuration(), state: State = State()) {
        self.configuration = configuration
        self.state = state
    }

    /// Handles `event` at `now` and returns what to do next.
    public mutating func handle(_ event: Event, now: Date) -> Decision {
        switch event {
        case .wake(let pending):
            if state.isPausedForAuthentication { return .paused }
            guard pending > 0 else { return .idle }
            if let notBefore = state.notBefore, notBefore > now { return .wait(until: notBefore) }
            return .send(count: min(pending, configuration.batchSize))
        case .succeeded:
            state.consecutiveFailures = 0
            state.notBefore = nil
            return .idle
        case .failed(let random, let retryAfter):
            state.consecutiveFailures += 1
            let exponent = Double(min(state.consecutiveFailures - 1, 62))
            let delay = min(configuration.maximumDelay, configuration.baseDelay * pow(2, exponent))
            let jittered = delay * (0.5 + 0.5 * min(max(random, 0), 1))
            let wait = max(jittered, min(retryAfter ?? 0, configuration.maximumDelay))
            let until = now.addingTimeInterval(wait)
            state.notBefore = until
            return .wait(until: until)
        case .authenticationFailed:
            state.isPausedForAuthentication = true
            return .notifyAuthenticationFailure
        case .resumed:
            state = State()
            return .idle
        }
    }
}
