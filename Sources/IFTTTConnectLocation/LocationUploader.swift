import Foundation
import IFTTTConnectCore

/// Sends stored crossings to `POST {location base}/location_events` in batches, with a persisted backoff.
///
/// One call of ``uploadPending()`` sends batches until the store is empty, a batch fails, or a 401 pauses
/// uploading. It never sleeps: after a failure it returns the time of the next attempt, and a call before
/// then sends nothing. Schedule the next call with your own timer or background task.
///
/// ```swift
/// let uploader = LocationUploader(store: store, configuration: .init(network: .sandbox(sandboxURL)),
///                                 tokenProvider: { keychain.iftttUserToken },
///                                 authenticationFailureHandler: { print("sign in to IFTTT again") })
/// let report = await uploader.uploadPending()
/// ```
public actor LocationUploader {
    /// The channel id of the IFTTT Location service, sent as `channel_id`.
    public static let locationChannelId = "941030000"

    /// The configuration.
    public let configuration: Configuration
    private let store: LocationEventStore
    private let tokenProvider: @Sendable () async -> String?
    private let stateURL: URL
    private let clock: any ConnectClock
    private let random: @Sendable () -> Double
    private let authenticationFailureHandler: (@Sendable () -> Void)?
    private let progressHandler: (@Sendable (Progress) async -> Void)?
    private var scheduler: UploadScheduler
    private var isUploading = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// Creates an uploader.
    ///
    /// - Parameters:
    ///   - store: the events to upload.
    ///   - configuration: transport, URL and backoff.
    ///   - tokenProvider: the IFTTT user token, read before each request.
    ///   - stateURL: where the backoff schedule is saved; default `upload_state.json` in the store's directory.
    ///   - clock: the clock: which events have expired, when the next attempt is due.
    ///   - random: uniform values in `[0, 1)` for jitter.
    ///   - authenticationFailureHandler: called once when a 401 pauses uploading.
    ///   - progressHandler: awaited before each request and after its answer (for event reporting).
    public init(
        store: LocationEventStore, configuration: Configuration = Configuration(),
        tokenProvider: @escaping @Sendable () async -> String?, stateURL: URL? = nil,
        clock: any ConnectClock = SystemConnectClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        authenticationFailureHandler: (@Sendable () -> Void)? = nil,
        progressHandler: (@Sendable (Progress) async -> Void)? = nil
    ) {
        self.store = store
        self.configuration = configuration
        self.tokenProvider = tokenProvider
        self.stateURL = stateURL ?? store.directory.appendingPathComponent("upload_state.json")
        self.clock = clock
        self.random = random
        self.authenticationFailureHandler = authenticationFailureHandler
        self.progressHandler = progressHandler
        let saved = (try? Data(contentsOf: self.stateURL)).flatMap {
            try? JSONDecoder().decode(UploadScheduler.State.self, from: $0)
        }
        self.scheduler = UploadScheduler(
            configuration: configuration.scheduler, state: saved ?? UploadScheduler.State())
    }

    /// Creates an uploader whose clock reads `now` (the spelling before the `clock:` parameter
    /// existed; prefer `clock:`, which tests can drive with `ManualClock`).
    ///
    /// - Parameters:
    ///   - store: the events to upload.
    ///   - configuration: transport, URL and backoff.
    ///   - tokenProvider: the IFTTT user token, read before each request.
    ///   - stateURL: where the backoff schedule is saved; default `upload_state.json` in the store's directory.
    ///   - now: the wall-clock time.
    ///   - random: uniform values in `[0, 1)` for jitter.
    ///   - authenticationFailureHandler: called once when a 401 pauses uploading.
    ///   - progressHandler: awaited before each request and after its answer (for event reporting).
    public init(
        store: LocationEventStore, configuration: Configuration = Configuration(),
        tokenProvider: @escaping @Sendable () async -> String?, stateURL: URL? = nil,
        now: @escaping @Sendable () -> Date,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        authenticationFailureHandler: (@Sendable () -> Void)? = nil,
        progressHandler: (@Sendable (Progress) async -> Void)? = nil
    ) {
        self.init(
            store: store, configuration: configuration, tokenProvider: tokenProvider, stateURL: stateURL,
            clock: ClosureClock(now), random: random, authenticationFailureHandler: authenticationFailureHandler,
            progressHandler: progressHandler)
    }

    /// The backoff state (as saved).
    public var schedulerState: UploadScheduler.State { scheduler.state }

    /// Whether a call of ``uploadPending()`` is running.
    public var isBusy: Bool { isUploading }

    /// Waits until no call of ``uploadPending()`` is running.
    public func waitUntilIdle() async {
        guard isUploading else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            idleWaiters.append(continuation)
        }
    }

    /// Uploads pending events in batches until done, a failure, or a pause.
    ///
    /// The journal is read once per call. A 400, 413 or 422 answer names or implies bad events: the events the
    /// error envelope names (by record id, or by `[index]` in a detail's parameter) are moved to the store's
    /// dead-letter area with the server's reason and the rest are sent again at once; when it names none, the
    /// batch is split in halves until each bad event is alone. A refused event therefore never blocks the others.
    public func uploadPending() async -> Report {
        guard !isUploading else { return Report(uploaded: 0, next: .busy) }
        isUploading = true
        defer {
            isUploading = false
            let waiters = idleWaiters
            idleWaiters = []
            for waiter in waiters { waiter.resume() }
        }
        var uploaded = 0
        var rejected = 0
        let all: [RegionEvent]
        do throws(LocationError) {
            all = try await store.pending(now: clock.now)
        } catch {
            return Report(uploaded: 0, next: .retry(at: clock.now), error: error)
        }
        var remaining = all[...]
        // Explicit batches (halves of a refused batch) go before the rest.
        var splits: [[RegionEvent]] = []
        func report(_ next: Report.Next, _ error: LocationError? = nil) -> Report {
            Report(uploaded: uploaded, next: next, error: error, rejected: rejected)
        }
        while true {
            let waiting = splits.reduce(0) { $0 + $1.count } + remaining.count
            switch scheduler.handle(.wake(pending: waiting), now: clock.now) {
            case .idle, .notifyAuthenticationFailure:
                return report(.done)
            case .paused:
                return report(.paused, LocationError(.authenticationFailure, "uploading is paused after a 401"))
            case .wait(let until):
                return report(.retry(at: until))
            case .send(let count):
                let batch: [RegionEvent]
                if !splits.isEmpty {
                    batch = splits.removeFirst()
                } else {
                    batch = Array(remaining.prefix(count))
                    remaining = remaining.dropFirst(batch.count)
                }
                guard let token = await tokenProvider(), !token.isEmpty else {
                    return report(.paused, LocationError(.missingCredentials, "no IFTTT user token; nothing was sent"))
                }
                await progressHandler?(.attempted(batch))
                let result = await send(batch, token: token)
                switch result {
                case .success:
                    await progressHandler?(.succeeded(batch))
                    do throws(LocationError) {
                        try await store.acknowledge(batch.map(\.recordId), deferCompaction: true)
                    } catch {
                        // The server has the events; they may be sent again, which record_id makes harmless.
                        uploaded += batch.count
                        return report(.retry(at: clock.now), error)
                    }
                    uploaded += batch.count
                    _ = scheduler.handle(.succeeded, now: clock.now)
                    save()
                case .failure(let failure) where failure.refusal != nil:
                    let refusal = failure.refusal!
                    let named = Self.namedEvents(in: refusal, batch: batch)
                    var refused: [DeadLetter] = []
                    let at = clock.now
                    if !named.isEmpty {
                        refused = named.map {
                            DeadLetter(
                                event: $0.event,
                                rejection: EventRejection(
                                    statusCode: refusal.statusCode, reason: $0.reason, rejectedAt: at))
                        }
                        let refusedIds = Set(named.map(\.event.recordId))
                        let rest = batch.filter { !refusedIds.contains($0.recordId) }
                        if !rest.isEmpty { splits.insert(rest, at: 0) }
                    } else if batch.count == 1 {
                        refused = [
                            DeadLetter(
                                event: batch[0],
                                rejection: EventRejection(
                                    statusCode: refusal.statusCode, reason: refusal.message, rejectedAt: at))
                        ]
                    } else {
                        let half = batch.count / 2
                        splits.insert(contentsOf: [Array(batch[..<half]), Array(batch[half...])], at: 0)
                    }
                    if !refused.isEmpty {
                        for letter in refused {
                            configuration.logHandler?(
                                "location event \(letter.event.recordId.uuidString) was refused (\(refusal.statusCode)): \(letter.rejection.reason); moved to the dead-letter area"
                            )
                        }
                        do throws(LocationError) {
                            for group in Dictionary(grouping: refused, by: \.rejection).sorted(by: {
                                $0.key.reason < $1.key.reason
                            }) {
                                try await store.reject(group.value.map(\.event.recordId), group.key)
                            }
                        } catch {
                            return report(.retry(at: clock.now), error)
                        }
                        rejected += refused.count
                        await progressHandler?(.rejected(refused))
                    }
                case .failure(let failure) where failure.code == .cancelled:
                    // Cancelled by the caller (for example an expiring background task): not the server's fault,
                    // so no backoff; the events stay.
                    await progressHandler?(.failed(batch, failure.error))
                    return report(.retry(at: clock.now), failure.error)
                case .failure(let failure) where failure.code == .authenticationFailure:
                    await progressHandler?(.failed(batch, failure.error))
                    _ = scheduler.handle(.authenticationFailed, now: clock.now)
                    save()
                    authenticationFailureHandler?()
                    return report(.paused, failure.error)
                case .failure(let failure):
                    await progressHandler?(.failed(batch, failure.error))
                    let decision = scheduler.handle(
                        .failed(random: random(), retryAfter: failure.retryAfter), now: clock.now)
                    save()
                    guard case .wait(let until) = decision else { return report(.done, failure.error) }
                    return report(.retry(at: until), failure.error)
                }
            }
        }
    }

    /// The events of `batch` that a refusal names, each with its reason: by record id anywhere in a detail or
    /// the message, else by a `[index]` prefix of a detail's parameter.
    static func namedEvents(in refusal: Refusal, batch: [RegionEvent]) -> [(event: RegionEvent, reason: String)] {
        var result: [(event: RegionEvent, reason: String)] = []
        var taken = Set<UUID>()
        let byId = Dictionary(
            batch.map { ($0.recordId.uuidString.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let texts =
            refusal.details.map {
                ($0.parameter + " " + $0.message, $0.parameter.isEmpty ? $0.message : "\($0.parameter): \($0.message)")
            }
            + [(refusal.message, refusal.message)]
        for (text, reason) in texts {
            for token in Self.uuidCandidates(in: text) {
                if let event = byId[token], taken.insert(event.recordId).inserted { result.append((event, reason)) }
            }
        }
        if !result.isEmpty { return result }
        for detail in refusal.details {
            guard detail.parameter.hasPrefix("["), let close = detail.parameter.firstIndex(of: "]"),
                let index = Int(detail.parameter[detail.parameter.index(after: detail.parameter.startIndex)..<close]),
                batch.indices.contains(index)
            else { continue }
            let event = batch[index]
            let reason = "\(detail.parameter): \(detail.message)"
            if taken.insert(event.recordId).inserted {
                result.append((event, reason))
            } else if let at = result.firstIndex(where: { $0.event.recordId == event.recordId }) {
                result[at].reason += "; " + reason
            }
        }
        return result
    }

    private static func uuidCandidates(in text: String) -> [String] {
        let separators = CharacterSet(charactersIn: "0123456789abcdefABCDEF-").inverted
        return text.components(separatedBy: separators).filter { $0.count == 36 && UUID(uuidString: $0) != nil }.map {
            $0.uppercased()
        }
    }

    /// Resumes uploading after a 401, once the host app has new credentials. Clears the backoff too.
    public func resume() {
        _ = scheduler.handle(.resumed, now: clock.now)
        save()
    }

    /// A 4xx answer that names or implies bad events, with what its error envelope says.
    struct Refusal: Sendable {
        var statusCode: Int
        var message: String
        var details: [(parameter: String, message: String)]
    }

    private struct Failure: Error {
        var error: LocationError
        var retryAfter: TimeInterval?
        var refusal: Refusal?
        var code: LocationError.Code { error.code }
    }

    private func send(_ batch: [RegionEvent], token: String) async -> Result<Void, Failure> {
        let url = configuration.locationBaseURL.appendingPathComponent("location_events")
        let body = LocationEventPayload.encode(batch, installationId: configuration.installationId)
        let request = HTTPRequest(
            method: "POST", url: url,
            // Spec §1.3: the location upload carries only these two headers.
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
            body: body, timeout: configuration.timeout)
        let path = url.path
        do throws(ConnectAPIError) {
            let response = try await configuration.transport.send(request)
            configuration.logHandler?("POST \(path) (\(batch.count) events) -> \(response.statusCode)")
            switch response.statusCode {
            case 200..<300:
                return .success(())
            case 401:
                return .failure(
                    Failure(
                        error: LocationError(
                            .authenticationFailure, "the location API answered 401",
                            networkError: .authenticationFailure(nil))))
            case 400, 413, 422:
                let refusal = Self.refusal(statusCode: response.statusCode, body: response.body)
                return .failure(
                    Failure(
                        error: LocationError(
                            .uploadFailed,
                            "the location API refused the batch (\(response.statusCode)): \(refusal.message)",
                            networkError: .apiError(statusCode: response.statusCode, payload: nil)),
                        refusal: refusal))
            default:
                let retryAfter = response.headers["retry-after"].flatMap {
                    TimeInterval($0.trimmingCharacters(in: .whitespaces))
                }
                return .failure(
                    Failure(
                        error: LocationError(
                            .uploadFailed, "the location API answered \(response.statusCode)",
                            networkError: .apiError(statusCode: response.statusCode, payload: nil)),
                        retryAfter: retryAfter))
            }
        } catch {
            configuration.logHandler?("POST \(path) (\(batch.count) events) failed: \(error)")
            if error == .cancelled {
                return .failure(
                    Failure(error: LocationError(.cancelled, "the upload was cancelled", networkError: error)))
            }
            return .failure(
                Failure(error: LocationError(.uploadFailed, "the upload failed: \(error)", networkError: error)))
        }
    }

    /// Reads IFTTT's error envelope (`{"type":"error","code","message","details":[{"parameter","message"}]}`);
    /// anything else gives the status alone.
    static func refusal(statusCode: Int, body: Data) -> Refusal {
        var refusal = Refusal(statusCode: statusCode, message: "HTTP \(statusCode)", details: [])
        guard body.count <= 1 << 20, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            return refusal
        }
        if let message = object["message"] as? String, !message.isEmpty {
            refusal.message = String(message.prefix(500))
        }
        if let details = object["details"] as? [[String: Any]] {
            refusal.details = details.prefix(1000).map {
                (
                    String(($0["parameter"] as? String ?? "").prefix(200)),
                    String(($0["message"] as? String ?? "").prefix(500))
                )
            }
        }
        return refusal
    }

    private func save() {
        guard let data = try? JSONEncoder().encode(scheduler.state) else { return }
        let directory = stateURL.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if (try? data.write(to: stateURL, options: .atomic)) != nil {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: stateURL.path)
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || IFTTT_APPLE_STUB_CHECK
            try? FileManager.default.setAttributes(
                [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
                ofItemAtPath: stateURL.path)
            #endif
        }
    }
}
