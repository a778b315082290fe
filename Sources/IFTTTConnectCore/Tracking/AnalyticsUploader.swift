import Foundation

/// Why a batch of analytics events was not accepted. Analytics failures never reach the user; the events
/// stay queued and are tried again.
@_spi(Sandbox) public enum AnalyticsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a status outside 200...299 (the SDK's one status mapping, the one every Connect API
    /// call uses, said so).
    case rejected(statusCode: Int)
    /// The request failed below HTTP.
    case transport(ConnectAPIError)
    /// The request was cancelled because analytics was turned off.
    case cancelled

    /// A one-line description.
    public var description: String {
        switch self {
        case .rejected(let status): return "The analytics endpoint answered \(status)"
        case .transport(let error): return "Analytics upload failed: \(error)"
        case .cancelled: return "The analytics upload was cancelled"
        }
    }
}

/// Sends analytics events to `{connect base}/sdk/events` in batches, following ``AnalyticsQueue``'s rules.
///
/// The uploader is the shell around the pure queue: it reads the clock, performs the requests on the SDK's one
/// network path (a ``ConnectionNetworkController`` with the given configuration: its transport, headers, status
/// mapping and log line, as every Connect API call) and reports outcomes back. It honours ``AnalyticsSwitch``
/// immediately.
///
/// ```swift
/// let uploader = AnalyticsUploader(network: ConnectionNetworkController.Configuration())
/// await uploader.track(.impression(of: connection, hostName: "Grocery Express", at: Date()))
/// Task { await uploader.runPeriodicFlush() }   // the 30 s timer
/// ```
@_spi(Sandbox) public actor AnalyticsUploader {
    private let network: ConnectionNetworkController
    private let analyticsSwitch: AnalyticsSwitch
    private let clock: any ConnectClock
    private var queue: AnalyticsQueue
    private var uploads: [Int: Task<Void, Never>] = [:]
    private var observer: UUID?

    /// The outcome of the last batch that failed, if the last batch failed.
    public private(set) var lastError: AnalyticsError?
    /// How many batches the server accepted.
    public private(set) var acceptedBatchCount = 0

    /// Creates an uploader.
    ///
    /// - Parameters:
    ///   - network: Where to send (``ConnectionNetworkController/Configuration/connectBaseURL``), how
    ///     (its transport) and the anonymous id.
    ///   - queue: The batching limits.
    ///   - analyticsSwitch: The opt-out; ``AnalyticsSwitch/shared`` by default.
    ///   - clock: The clock: its ``ConnectClock/now`` drives batching and its waits the periodic flush.
    public init(
        network: ConnectionNetworkController.Configuration,
        queue: AnalyticsQueue.Configuration = AnalyticsQueue.Configuration(),
        analyticsSwitch: AnalyticsSwitch = .shared,
        clock: any ConnectClock = SystemConnectClock()
    ) {
        self.network = ConnectionNetworkController(configuration: network)
        self.analyticsSwitch = analyticsSwitch
        self.clock = clock
        self.queue = AnalyticsQueue(configuration: queue, isEnabled: analyticsSwitch.isEnabled)
    }

    deinit {
        if let observer { analyticsSwitch.removeObserver(observer) }
        for task in uploads.values { task.cancel() }
    }

    /// Starts listening to the switch so turning analytics off drops queued events even if the uploader is
    /// idle. Called by the first ``track(_:)``; call it yourself to listen earlier.
    public func observeSwitch() {
        guard observer == nil else { return }
        observer = analyticsSwitch.addObserver { [weak self] _ in
            Task { [weak self] in await self?.synchronizeSwitch() }
        }
    }

    /// The events not yet accepted by the server.
    public var pendingEvents: [AnalyticsEvent] {
        synchronizeSwitch()
        return queue.pendingEvents
    }

    /// Queues an event; nothing happens while analytics is off.
    public func track(_ event: AnalyticsEvent) {
        observeSwitch()
        synchronizeSwitch()
        perform(queue.track(event, now: clock.now))
    }

    /// Sends a batch now if any events wait.
    public func flush() {
        synchronizeSwitch()
        perform(queue.flush(now: clock.now))
    }

    /// Sends a batch if the flush interval passed; call it from a timer.
    public func tick() {
        synchronizeSwitch()
        perform(queue.tick(now: clock.now))
    }

    /// Calls ``tick()`` every `seconds` (30 by default) until the task is cancelled, waiting on the uploader's
    /// clock. Intervals under a millisecond (or not a number) wait one millisecond.
    ///
    /// - Parameter seconds: The time between ticks.
    public func runPeriodicFlush(everySeconds seconds: TimeInterval = 30) async {
        let milliseconds = (seconds * 1000).rounded(.down)
        await runPeriodicFlush(everyMilliseconds: milliseconds >= 1 ? UInt64(min(milliseconds, 1e15)) : 0)
    }

    /// Calls ``tick()`` every `interval` until the task is cancelled, waiting on the uploader's clock.
    ///
    /// `Duration` needs iOS 16 / macOS 13; ``runPeriodicFlush(everySeconds:)`` does the same on every OS the
    /// package supports, and `runPeriodicFlush()` calls it with 30 seconds.
    ///
    /// - Parameter interval: The time between ticks.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public func runPeriodicFlush(every interval: Duration) async {
        let (seconds, attoseconds) = interval.components
        await runPeriodicFlush(
            everyMilliseconds: UInt64(max(0, seconds)) * 1000 + UInt64(max(0, attoseconds) / 1_000_000_000_000_000))
    }

    private func runPeriodicFlush(everyMilliseconds step: UInt64) async {
        while !Task.isCancelled {
            do { try await clock.sleep(untilMilliseconds: clock.nowMilliseconds + max(step, 1)) } catch { return }
            tick()
        }
    }

    /// Waits until no request is in flight.
    public func waitUntilIdle() async {
        while let task = uploads.values.first {
            await task.value
        }
    }

    /// Applies the switch's current value to the queue.
    func synchronizeSwitch() {
        let enabled = analyticsSwitch.isEnabled
        if enabled != queue.isEnabled { perform(queue.setEnabled(enabled)) }
    }

    private func perform(_ effects: [AnalyticsQueue.Effect]) {
        for effect in effects {
            switch effect {
            case .send(let batch):
                let request = Self.request(batch)
                let network = self.network
                let analyticsSwitch = self.analyticsSwitch
                uploads[batch.id] = Task {
                    let outcome: AnalyticsError?
                    if !analyticsSwitch.isEnabled || Task.isCancelled {
                        outcome = .cancelled
                    } else {
                        do throws(ConnectAPIError) {
                            _ = try await network.send(request)
                            outcome = nil
                        } catch {
                            outcome = AnalyticsError(error)
                        }
                    }
                    self.finish(batch.id, outcome: outcome)
                }
            case .cancel(let id):
                uploads[id]?.cancel()
            }
        }
    }

    private func finish(_ batchID: Int, outcome: AnalyticsError?) {
        uploads[batchID] = nil
        synchronizeSwitch()
        guard queue.inFlight?.id == batchID else { return }  // cancelled by the opt-out: ignore
        if let outcome {
            lastError = outcome
        } else {
            lastError = nil
            acceptedBatchCount += 1
        }
        perform(queue.batchFinished(batchID, succeeded: outcome == nil, now: clock.now))
    }

    /// `POST {connect base}/sdk/events` with the batch, built like every Connect API request (the SDK's headers,
    /// `Content-Type: application/json`, no credentials).
    private static func request(_ batch: AnalyticsQueue.Batch) -> APIRequest {
        let body = JSONValue.object(JSONObject([("events", .array(batch.events.map(\.jsonValue)))])).serialized()
        return APIRequest(method: "POST", path: ["sdk", "events"], body: Data(body.utf8))
    }
}

extension AnalyticsError {
    /// The analytics outcome of a Connect API error: a status the SDK's mapping refused is ``rejected(statusCode:)``,
    /// a cancellation ``cancelled``, anything below HTTP ``transport(_:)``.
    init(_ error: ConnectAPIError) {
        if error == .cancelled {
            self = .cancelled
        } else if let status = error.statusCode {
            self = .rejected(statusCode: status)
        } else {
            self = .transport(error)
        }
    }
}
