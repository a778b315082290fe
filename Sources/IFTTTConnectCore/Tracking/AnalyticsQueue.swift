import Foundation

/// The analytics queue as a pure state machine: it decides when events are sent, in which batches, and what
/// is kept after a failure. It never reads the clock or the network; callers pass `now` and carry out the
/// returned ``Effect``s (``AnalyticsUploader`` does that).
///
/// Rules (those of the original SDK, with its opt-out fixed):
/// * at most ``Configuration/capacity`` events are kept; the oldest are dropped first;
/// * a batch of at most ``Configuration/batchSize`` events is sent when ``Configuration/flushThreshold`` events
///   are waiting, when ``Configuration/flushInterval`` passed since the last send, or on an explicit flush;
/// * one batch is in flight at a time; its events leave the queue only when the server accepted them;
/// * turning analytics off drops every waiting event and cancels the batch in flight (the original kept
///   sending them, W-14).
@_spi(Sandbox) public struct AnalyticsQueue: Sendable, Hashable {
    /// The queue's limits.
    public struct Configuration: Sendable, Hashable {
        /// The most events kept (100).
        public var capacity: Int
        /// How many waiting events trigger a send (5).
        public var flushThreshold: Int
        /// The most events in one request (10).
        public var batchSize: Int
        /// How often waiting events are sent anyway, in seconds (30).
        public var flushInterval: TimeInterval

        /// Creates limits; the defaults are the original SDK's.
        public init(capacity: Int = 100, flushThreshold: Int = 5, batchSize: Int = 10, flushInterval: TimeInterval = 30)
        {
            self.capacity = max(1, capacity)
            self.flushThreshold = max(1, flushThreshold)
            self.batchSize = max(1, batchSize)
            self.flushInterval = flushInterval
        }
    }

    /// Events sent together in one request.
    public struct Batch: Sendable, Hashable {
        /// Identifies the batch in ``AnalyticsQueue/batchFinished(_:succeeded:now:)``.
        public let id: Int
        /// The events, oldest first.
        public let events: [AnalyticsEvent]
        let sequences: [Int]
    }

    /// What the caller must do.
    public enum Effect: Sendable, Hashable {
        /// Send the batch to `POST /sdk/events` and report the outcome with ``AnalyticsQueue/batchFinished(_:succeeded:now:)``.
        case send(Batch)
        /// Cancel the request of the batch with this id; its outcome is ignored.
        case cancel(batchID: Int)
    }

    struct Entry: Sendable, Hashable {
        let sequence: Int
        let event: AnalyticsEvent
    }

    /// The limits.
    public let configuration: Configuration
    private var entries: [Entry] = []
    private var nextSequence = 0
    private var nextBatchID = 1
    private var lastSend: Date?
    /// The batch being sent, if any.
    public private(set) var inFlight: Batch?
    /// Whether events are collected.
    public private(set) var isEnabled: Bool
    /// How many events were dropped because the queue was full.
    public private(set) var overflowCount = 0

    /// Creates an empty queue.
    public init(configuration: Configuration = Configuration(), isEnabled: Bool = true) {
        self.configuration = configuration
        self.isEnabled = isEnabled
    }

    /// The events not yet accepted by the server (including those in flight), oldest first.
    public var pendingEvents: [AnalyticsEvent] { entries.map(\.event) }

    /// When the interval flush is next due, if anything waits and nothing is in flight.
    public var nextFlushDate: Date? {
        guard isEnabled, inFlight == nil, !entries.isEmpty else { return nil }
        return lastSend.map { $0.addingTimeInterval(configuration.flushInterval) } ?? .distantPast
    }

    /// Adds an event (ignored while analytics is off) and sends a batch if enough are waiting.
    public mutating func track(_ event: AnalyticsEvent, now: Date) -> [Effect] {
        guard isEnabled else { return [] }
        while entries.count >= configuration.capacity {
            entries.removeFirst()
            overflowCount += 1
        }
        entries.append(Entry(sequence: nextSequence, event: event))
        nextSequence += 1
        return entries.count >= configuration.flushThreshold ? send(now: now) : []
    }

    /// The periodic timer: sends a batch when the flush interval has passed since the last send.
    public mutating func tick(now: Date) -> [Effect] {
        guard let due = nextFlushDate, now >= due else { return [] }
        return send(now: now)
    }

    /// Sends a batch now if anything waits (for example when the app moves to the background).
    public mutating func flush(now: Date) -> [Effect] {
        send(now: now)
    }

    /// Reports the outcome of a batch. Accepted events leave the queue; after a failure they stay for the next
    /// attempt. Outcomes of cancelled or unknown batches are ignored.
    public mutating func batchFinished(_ batchID: Int, succeeded: Bool, now: Date) -> [Effect] {
        guard let batch = inFlight, batch.id == batchID else { return [] }
        inFlight = nil
        guard succeeded else { return [] }
        let sent = Set(batch.sequences)
        entries.removeAll { sent.contains($0.sequence) }
        return entries.count >= configuration.flushThreshold ? send(now: now) : []
    }

    /// Turns collection on or off. Off drops every waiting event at once and cancels the batch in flight.
    public mutating func setEnabled(_ enabled: Bool) -> [Effect] {
        guard enabled != isEnabled else { return [] }
        isEnabled = enabled
        guard !enabled else { return [] }
        entries.removeAll()
        lastSend = nil
        if let batch = inFlight {
            inFlight = nil
            return [.cancel(batchID: batch.id)]
        }
        return []
    }

    private mutating func send(now: Date) -> [Effect] {
        guard isEnabled, inFlight == nil, !entries.isEmpty else { return [] }
        let chosen = entries.prefix(configuration.batchSize)
        let batch = Batch(id: nextBatchID, events: chosen.map(\.event), sequences: chosen.map(\.sequence))
        nextBatchID += 1
        inFlight = batch
        lastSend = now
        return [.send(batch)]
    }
}
