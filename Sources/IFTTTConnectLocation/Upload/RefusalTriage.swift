import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// The refusal-handling half of ``LocationUploader``: what to do with a batch the location API refused (400, 413
/// or 422), judged over time rather than per request. It owns every piece of refusal state (the uploader's run
/// keeps none): the batches waiting to be isolated or set aside, when each refused event was first refused, how
/// many batches the API accepted, and how many requests in a row it refused. Pure: no I/O, no clock.
///
/// * **The server singles events out**: the envelope names them (by record id in a detail or the message, or by
///   a `[index]` prefix of a detail's parameter). Those go to the dead-letter area with the server's reason; the
///   rest of the batch is sent again at once.
/// * **The server tells events apart**: it named nothing, but accepts other events. A refused batch is split in
///   halves until each refused event is alone, and a refused single goes to the dead-letter area only when it was
///   *isolated*: the server accepted a batch after the event was first refused, and the answer just before its
///   refusal was an acceptance. A single that is not isolated yet waits aside until the next acceptance.
/// * **Nothing accepted yet in this run**: batches refused alike are set aside; once the journal is exhausted one
///   of them is probed in halves (a backlog of one batch, 30 events say, is isolated this way). If the probe is
///   refused too, the events are kept and the uploader backs off.
/// * **Refusals that start mid-run**: ``refusalLimit`` refusals in a row end the run with a back-off whatever was
///   accepted before; no event was isolated by them, so none is dead-lettered.
/// * **No error envelope at all** (a proxy's page, an empty body): a failure of the server or of something in
///   front of it, not a verdict on the events: they are kept, and the uploader backs off.
struct RefusalTriage: Sendable {
    /// What the uploader does after a refusal.
    enum Decision: Sendable, Hashable {
        /// Move these events to the dead-letter area (the rest of their batch is queued again).
        case deadLetter([DeadLetter])
        /// Go on: the batch was split in halves, queued first (see ``nextBatch()``).
        case split
        /// Go on: the batch waits aside until an acceptance (or the run's probe).
        case setAside
        /// The refusal is not a verdict on the events: keep them all and back off.
        case backOff(reason: String)
    }

    /// The statuses that may refuse individual events; any other error status is a plain failure.
    static let refusalStatuses: Set<Int> = [400, 413, 422]

    /// How many refusals in a row end a run (enough to isolate one event in a batch of `batchSize` by halves).
    let refusalLimit: Int
    /// Batches the location API accepted since the uploader was created.
    private(set) var acceptances = 0
    /// For each event refused without being named: ``acceptances`` when it was first refused.
    private var firstRefused: [UUID: Int] = [:]
    /// Whether the answer to the last request was an acceptance.
    private var lastAnswerAccepted = false
    /// Refusals since the last acceptance.
    private(set) var refusalsInARow = 0
    /// Whether the current run saw an acceptance.
    private(set) var acceptedInRun = false
    private var probed = false
    /// Batches to send before the rest of the journal: halves being isolated, and the rest of a batch whose
    /// named events were dead-lettered.
    private var front: [[RegionEvent]] = []
    /// Batches refused alike, waiting for an acceptance.
    private(set) var setAside: [[RegionEvent]] = []
    /// The last refusal that named nothing, for the back-off's message.
    private(set) var lastRefusal: (statusCode: Int, error: ConnectAPIError)?

    /// Creates a triage for batches of at most `batchSize` events.
    init(batchSize: Int = 50) {
        var depth = 0
        while (1 << depth) < max(1, batchSize) { depth += 1 }
        refusalLimit = depth + 2
    }

    /// Starts an upload run: the run's queues are emptied (the journal is read again); what the triage learnt
    /// over time (acceptances, first refusals of events still pending) stays.
    mutating func beginRun(pending: [RegionEvent]) {
        front = []
        setAside = []
        lastRefusal = nil
        acceptedInRun = false
        probed = false
        refusalsInARow = 0
        let ids = Set(pending.map(\.recordId))
        firstRefused = firstRefused.filter { ids.contains($0.key) }
    }

    /// Events queued ahead of the journal's rest.
    var queued: Int { front.reduce(0) { $0 + $1.count } }

    /// The next queued batch, if any.
    mutating func nextBatch() -> [RegionEvent]? {
        front.isEmpty ? nil : front.removeFirst()
    }

    /// The API accepted `batch`: it tells events apart, so the batches set aside are queued again, by halves.
    mutating func accepted(_ batch: [RegionEvent]) {
        acceptances += 1
        acceptedInRun = true
        lastAnswerAccepted = true
        refusalsInARow = 0
        lastRefusal = nil
        for event in batch { firstRefused[event.recordId] = nil }
        front += setAside.flatMap(Self.halves(of:))
        setAside = []
    }

    /// Nothing else can be sent in this run: probes one set-aside batch in halves when the run accepted nothing
    /// and has not probed yet (returns `true`), else the uploader backs off (`false`).
    mutating func probe() -> Bool {
        guard !acceptedInRun, !probed, refusalsInARow < refusalLimit,
            let index = setAside.indices.filter({ setAside[$0].count > 1 }).min(by: {
                setAside[$0].count < setAside[$1].count
            })
        else { return false }
        probed = true
        front += Self.halves(of: setAside.remove(at: index))
        return true
    }

    /// Decides what to do with `batch`, refused with `statusCode` and `payload` (IFTTT's error envelope, `nil` when
    /// the body was not one) at `now`.
    mutating func refused(
        _ batch: [RegionEvent], statusCode: Int, payload: APIErrorPayload?, error: ConnectAPIError, now: Date
    ) -> Decision {
        let previousAccepted = lastAnswerAccepted
        lastAnswerAccepted = false
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
            for id in refused { firstRefused[id] = nil }
            return .deadLetter(
                named.map {
                    DeadLetter(
                        event: $0.event,
                        rejection: EventRejection(statusCode: statusCode, reason: $0.reason, rejectedAt: now))
                })
        }
        refusalsInARow += 1
        lastRefusal = (statusCode, error)
        for event in batch where firstRefused[event.recordId] == nil { firstRefused[event.recordId] = acceptances }
        // 413 is about the size of the request: halving answers it whatever else the run saw.
        if statusCode == 413, batch.count > 1 {
            front.insert(contentsOf: Self.halves(of: batch), at: 0)
            return .split
        }
        if refusalsInARow >= refusalLimit {
            setAside.append(batch)
            return .backOff(
                reason:
                    "the location API refused \(refusalsInARow) requests in a row (\(statusCode), no event named); no event was isolated, \(setAside.joined().count + queued) are kept"
            )
        }
        guard acceptedInRun else {
            setAside.append(batch)  // refused alike so far: wait for an acceptance or the probe
            return .setAside
        }
        if batch.count > 1 {
            front.insert(contentsOf: Self.halves(of: batch), at: 0)
            return .split
        }
        let event = batch[0]
        let isolated = previousAccepted && (firstRefused[event.recordId] ?? acceptances) < acceptances
        guard isolated else {
            setAside.append(batch)  // alone, but not proven yet: again after the next acceptance
            return .setAside
        }
        firstRefused[event.recordId] = nil
        let reason = payload.message.isEmpty ? payload.code : payload.message
        return .deadLetter([
            DeadLetter(event: event, rejection: EventRejection(statusCode: statusCode, reason: reason, rejectedAt: now))
        ])
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
