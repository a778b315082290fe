import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// The refusal-handling half of ``LocationUploader``: what to do with a batch the location API refused (400, 413
/// or 422), judged over time rather than per request. It owns every piece of refusal state (the uploader's run
/// keeps none): the requests queued ahead of the journal's rest, the event under suspicion and the evidence
/// against it, and how many requests in a row the API refused. Pure: no I/O, no clock.
///
/// * **In order.** Events reach the server in the order they happened: a refused batch is settled (delivered,
///   or its bad events dead-lettered) before any later event is sent. Its halves, and the rest of a batch whose
///   named events were dead-lettered, are queued ahead of the journal's rest.
/// * **The server singles events out**: the envelope names them (by record id in a detail or the message, or by
///   a `[index]` prefix of a detail's parameter). Those go to the dead-letter area with the server's reason; the
///   rest of the batch is sent again at once.
/// * **The server names nothing**: the refused batch is split in halves, the earlier half first, until the refused
///   event is alone. An event refused alone is a suspect, never dead-lettered for that alone: a server that refuses
///   requests at random refuses single events too. Between two tries of the suspect alone, the uploader sends a
///   *probe*: the last event the server accepted, again (harmless: the server de-duplicates by `record_id`). The
///   probes measure how often the server refuses a request whatever it holds; the suspect is dead-lettered once
///   its lone refusals are too many to be chance at that rate (``deadLetterLikelihood``), and at least
///   ``minimumLoneRefusals``. A healthy server and one bad event: 8 tries alone and 7 probes. A server refusing
///   half of all requests at random: one good event in about a million would need 20 refusals in a row.
/// * **No probe at hand** (nothing accepted since launch): the next event alone serves as one (the one case where a
///   later event may be sent before a refused one is settled); with no later event, the run ends waiting for one,
///   without lengthening the back-off.
/// * **Refusals in a row**: ``refusalLimit`` refusals in a row (probes included) end the run with a back-off
///   whatever was accepted before: the server refuses everything, and nothing is dead-lettered.
/// * **No error envelope at all** (a proxy's page, an empty body): a failure of the server or of something in
///   front of it, not a verdict on the events: they are kept, and the uploader backs off.
struct RefusalTriage: Sendable {
    /// What the uploader does after a refusal.
    enum Decision: Sendable, Hashable {
        /// Move these events to the dead-letter area (the rest of their batch is queued again).
        case deadLetter([DeadLetter])
        /// Go on with ``nextRequest()``.
        case retry
        /// The refusal is not a verdict on the events: keep them all and back off.
        case backOff(reason: String)
    }

    /// What to send next.
    enum Request: Sendable, Hashable {
        /// Events, oldest first.
        case batch([RegionEvent])
        /// An event the server accepted before, sent again to see whether the server accepts anything now.
        case probe(RegionEvent)
        /// A probe is due and no accepted event is known: send the next event of the journal alone as the probe.
        case nextEventAsProbe
    }

    /// The event refused alone, and the evidence so far.
    struct Suspect: Sendable, Hashable {
        var event: RegionEvent
        /// Its refusals when sent alone.
        var loneRefusals = 0
        /// Probes answered, and how many of them were refused.
        var probes = 0
        var probeRefusals = 0
        /// Whether a probe goes before its next try.
        var probeNext = false
        /// The later event sent alone as a probe, while its answer is awaited.
        var probingWith: UUID?

        /// An upper estimate of how often the server refuses a request at random: `(refused + 1) / (probes + 1)`.
        var randomRefusalRate: Double { Double(probeRefusals + 1) / Double(probes + 1) }
        /// How likely its lone refusals are if the server refused them at random.
        var likelihood: Double { pow(randomRefusalRate, Double(loneRefusals)) }
    }

    /// The statuses that may refuse individual events; any other error status is a plain failure.
    static let refusalStatuses: Set<Int> = [400, 413, 422]
    /// A suspect is dead-lettered once its lone refusals are this unlikely to be chance.
    static let deadLetterLikelihood = 1e-6
    /// The fewest lone refusals that dead-letter an event (refused alone, and again alone after a probe).
    static let minimumLoneRefusals = 2

    /// How many refusals in a row end a run (enough to isolate one event in a batch of `batchSize` by halves, and
    /// try it alone once more).
    let refusalLimit: Int
    /// Batches the location API accepted since the uploader was created.
    private(set) var acceptances = 0
    /// Refusals since the last acceptance.
    private(set) var refusalsInARow = 0
    /// The last event the server accepted: the probe.
    private(set) var lastAccepted: RegionEvent?
    /// The event under suspicion, kept across runs while it is pending.
    private(set) var suspect: Suspect?
    /// Batches to send before the rest of the journal, in order: halves being isolated, and the rest of a batch
    /// whose named events were dead-lettered.
    private var front: [[RegionEvent]] = []
    /// The last refusal that named nothing, for the back-off's message.
    private(set) var lastRefusal: (statusCode: Int, error: ConnectAPIError)?

    /// Creates a triage for batches of at most `batchSize` events.
    init(batchSize: Int = 50) {
        var depth = 0
        while (1 << depth) < max(1, batchSize) { depth += 1 }
        refusalLimit = depth + 3
    }

    /// Starts an upload run: the run's queue is emptied (the journal is read again); what the triage learnt over
    /// time (the suspect, while it is pending, and the probe) stays.
    mutating func beginRun(pending: [RegionEvent]) {
        front = []
        lastRefusal = nil
        refusalsInARow = 0
        if let suspect, !pending.contains(where: { $0.recordId == suspect.event.recordId }) { self.suspect = nil }
        suspect?.probingWith = nil
        suspect?.probeNext = false
    }

    /// Events queued ahead of the journal's rest.
    var queued: Int { front.reduce(0) { $0 + $1.count } }

    /// What to send next, when something is queued ahead of the journal's rest (`nil`: the journal's next batch).
    mutating func nextRequest() -> Request? {
        if let current = suspect, current.probeNext, current.probingWith == nil {
            if let lastAccepted, lastAccepted.recordId != current.event.recordId { return .probe(lastAccepted) }
            // No accepted event known: the next event after the suspect, alone.
            guard front.count > 1, let next = front[1].first else { return .nextEventAsProbe }
            front[1].removeFirst()
            if front[1].isEmpty { front.remove(at: 1) }
            suspect?.probingWith = next.recordId
            return .batch([next])
        }
        return front.isEmpty ? nil : .batch(front.removeFirst())
    }

    /// The uploader sends `event`, the journal's next, alone as the probe (after ``Request/nextEventAsProbe``).
    mutating func probing(with event: RegionEvent) {
        suspect?.probingWith = event.recordId
    }

    /// The API accepted `batch`: it holds no bad event.
    mutating func accepted(_ batch: [RegionEvent]) {
        acceptances += 1
        refusalsInARow = 0
        lastRefusal = nil
        if let last = batch.last { lastAccepted = last }
        guard var current = suspect else { return }
        if batch.contains(where: { $0.recordId == current.event.recordId }) {
            suspect = nil  // refused before at random: it was good
        } else if let probe = current.probingWith, batch.contains(where: { $0.recordId == probe }) {
            current.probingWith = nil
            current.probes += 1
            current.probeNext = false
            suspect = current
        }
    }

    /// The probe (a resent accepted event) was answered.
    mutating func probeAnswered(accepted: Bool, statusCode: Int?) -> Decision {
        guard var current = suspect else { return .retry }
        current.probes += 1
        current.probeNext = false
        if accepted {
            refusalsInARow = 0
        } else {
            current.probeRefusals += 1
            refusalsInARow += 1
        }
        suspect = current
        if refusalsInARow >= refusalLimit {
            return .backOff(
                reason:
                    "the location API refused \(refusalsInARow) requests in a row\(statusCode.map { " (\($0))" } ?? ""), an event it accepted before among them; no event was isolated, every event is kept"
            )
        }
        return .retry
    }

    /// Decides what to do with `batch`, refused with `statusCode` and `payload` (IFTTT's error envelope, `nil` when
    /// the body was not one) at `now`.
    mutating func refused(
        _ batch: [RegionEvent], statusCode: Int, payload: APIErrorPayload?, error: ConnectAPIError, now: Date
    ) -> Decision {
        // A later event sent alone as a probe and refused: it counts as a refused probe and waits its turn.
        if let probe = suspect?.probingWith, batch.count == 1, batch[0].recordId == probe {
            suspect?.probingWith = nil
            front.insert(batch, at: min(1, front.count))
            if payload == nil {
                refusalsInARow += 1
                return .backOff(
                    reason:
                        "the location API answered \(statusCode) without IFTTT's error envelope (a proxy or a server failure)"
                )
            }
            return probeAnswered(accepted: false, statusCode: statusCode)
        }
        guard let payload else {
            refusalsInARow += 1
            return .backOff(
                reason:
                    "the location API answered \(statusCode) without IFTTT's error envelope (a proxy or a server failure)"
            )
        }
        let named = Self.namedEvents(in: payload, batch: batch)
        if !named.isEmpty {
            let refused = Set(named.map(\.event.recordId))
            let rest = batch.filter { !refused.contains($0.recordId) }
            if !rest.isEmpty { front.insert(rest, at: 0) }
            if let current = suspect, refused.contains(current.event.recordId) { suspect = nil }
            return .deadLetter(
                named.map {
                    DeadLetter(
                        event: $0.event,
                        rejection: EventRejection(statusCode: statusCode, reason: $0.reason, rejectedAt: now))
                })
        }
        refusalsInARow += 1
        lastRefusal = (statusCode, error)
        if refusalsInARow >= refusalLimit {
            front.insert(batch, at: 0)
            return .backOff(
                reason:
                    "the location API refused \(refusalsInARow) requests in a row (\(statusCode), no event named); no event was isolated, every event is kept"
            )
        }
        if batch.count > 1 {
            front.insert(contentsOf: Self.halves(of: batch), at: 0)
            return .retry
        }
        let event = batch[0]
        var current = suspect?.event.recordId == event.recordId ? suspect! : Suspect(event: event)
        current.loneRefusals += 1
        if current.loneRefusals >= Self.minimumLoneRefusals, current.likelihood <= Self.deadLetterLikelihood {
            suspect = nil
            let reason = payload.message.isEmpty ? payload.code : payload.message
            return .deadLetter([
                DeadLetter(
                    event: event, rejection: EventRejection(statusCode: statusCode, reason: reason, rejectedAt: now))
            ])
        }
        current.probeNext = true
        suspect = current
        front.insert(batch, at: 0)
        return .retry
    }

    /// The two halves of `batch` (the first one shorter for an odd count), or the batch itself when it is one event.
    static func halves(of batch: [RegionEvent]) -> [[RegionEvent]] {
        guard batch.count > 1 else { return [batch] }
        let half = batch.count / 2
        return [Array(batch[..<half]), Array(batch[half...])]
    }

    /// The events of `batch` that an envelope names, each with its reason: by record id anywhere in a detail or the
    /// message, else by a `[index]` prefix of a detail's parameter.
    static func namedEvents(in payload: APIErrorPayload, batch: [RegionEvent]) -> [(event: RegionEvent, reason: String)]
    {
        var result: [(event: RegionEvent, reason: String)] = []
        var taken = Set<UUID>()
        let byId = Dictionary(
            batch.map { ($0.recordId.uuidString.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let texts =
            payload.details.map { detail -> (text: String, reason: String) in
                let parameter = detail.parameter ?? ""
                return (
                    parameter + " " + detail.message,
                    parameter.isEmpty ? detail.message : "\(parameter): \(detail.message)"
                )
            } + [(payload.message, payload.message)]
        for (text, reason) in texts {
            for token in uuidCandidates(in: text) {
                if let event = byId[token], taken.insert(event.recordId).inserted { result.append((event, reason)) }
            }
        }
        if !result.isEmpty { return result }
        for detail in payload.details {
            guard let parameter = detail.parameter, let index = Self.leadingIndex(parameter),
                batch.indices.contains(index)
            else { continue }
            let event = batch[index]
            let reason = "\(parameter): \(detail.message)"
            if taken.insert(event.recordId).inserted {
                result.append((event, reason))
            } else if let at = result.firstIndex(where: { $0.event.recordId == event.recordId }) {
                result[at].reason += "; " + reason
            }
        }
        return result
    }

    /// `3` for `[3].trigger_subscription_id`; `nil` when the parameter does not start with a bracketed index.
    private static func leadingIndex(_ parameter: String) -> Int? {
        guard parameter.hasPrefix("["), let close = parameter.firstIndex(of: "]") else { return nil }
        return Int(parameter[parameter.index(after: parameter.startIndex)..<close])
    }

    private static func uuidCandidates(in text: String) -> [String] {
        let separators = CharacterSet(charactersIn: "0123456789abcdefABCDEF-").inverted
        return text.components(separatedBy: separators).filter { $0.count == 36 && UUID(uuidString: $0) != nil }.map {
            $0.uppercased()
        }
    }
}
