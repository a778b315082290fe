import Foundation
import IFTTTConnectCore

/// The refusal-handling half of ``LocationUploader``: what to do with a batch the location API refused (400, 413
/// or 422). Pure: the error envelope and what the run saw before decide.
///
/// * **The server singles events out**: the envelope names them (by record id in a detail or the message, or by
///   a `[index]` prefix of a detail's parameter). Those go to the dead-letter area with the server's reason; the
///   rest of the batch is sent again at once.
/// * **The server tells events apart**: it named nothing, but accepted another batch during this run. The
///   batch is split in halves until each refused event is alone, and a refused single goes to the dead-letter
///   area with the envelope's message.
/// * **Everything is refused alike**: no error envelope at all (a proxy's page, an empty body), or envelopes that
///   name nothing while no batch of the run was accepted. That is a failure of the server or of something in
///   front of it, not a verdict on the events: they are kept, and the uploader backs off.
struct RefusalTriage: Sendable {
    /// What to do with one refused batch.
    enum Decision: Sendable, Hashable {
        /// Move these events to the dead-letter area; send `rest` again at once.
        case deadLetter([DeadLetter], rest: [RegionEvent])
        /// Send these smaller batches before anything else.
        case split([[RegionEvent]])
        /// Keep the batch aside until the run shows that the server accepts other events.
        case setAside
        /// The refusal is not about the events: keep them all and back off.
        case serverFailure(reason: String)
    }

    /// The statuses that may refuse individual events; any other error status is a plain failure.
    static let refusalStatuses: Set<Int> = [400, 413, 422]

    /// Whether the location API accepted a batch during this run.
    private(set) var sawAcceptance = false

    /// Notes that the API accepted a batch.
    mutating func noteAcceptance() { sawAcceptance = true }

    /// Decides what to do with `batch`, refused with `statusCode` and `payload` (IFTTT's error envelope, `nil` when
    /// the body was not one) at `now`.
    func decide(statusCode: Int, payload: APIErrorPayload?, batch: [RegionEvent], now: Date) -> Decision {
        guard let payload else {
            return .serverFailure(
                reason:
                    "the location API answered \(statusCode) without IFTTT's error envelope (a proxy or a server failure)"
            )
        }
        let named = Self.namedEvents(in: payload, batch: batch)
        if !named.isEmpty {
            let letters = named.map {
                DeadLetter(
                    event: $0.event,
                    rejection: EventRejection(statusCode: statusCode, reason: $0.reason, rejectedAt: now))
            }
            let refused = Set(named.map(\.event.recordId))
            return .deadLetter(letters, rest: batch.filter { !refused.contains($0.recordId) })
        }
        // 413 is about the size of the request: halving answers it whatever else the run saw.
        if statusCode == 413, batch.count > 1 { return .split(Self.halves(of: batch)) }
        guard sawAcceptance else { return .setAside }
        if batch.count > 1 { return .split(Self.halves(of: batch)) }
        let reason = payload.message.isEmpty ? payload.code : payload.message
        return .deadLetter(
            [
                DeadLetter(
                    event: batch[0], rejection: EventRejection(statusCode: statusCode, reason: reason, rejectedAt: now))
            ],
            rest: [])
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
