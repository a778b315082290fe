import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// Sends stored crossings to `POST {location base}/location_events` in batches, with a persisted backoff.
///
/// One call of ``uploadPending(userToken:)`` sends batches until the store is empty, a batch fails, or a 401
/// pauses uploading. It never sleeps: after a failure it returns the time of the next attempt, and a call before
/// then sends nothing. Schedule the next call with your own timer or background task.
///
/// It calls nothing back: the token comes in with the call, and what happened comes back in the ``Report``: the
/// counts, the error that ended the call, whether a 401 paused uploading, and each batch's ``Progress`` in order.
/// (The synchronizer's engine drives the same steps request by request, to report each batch's progress to the
/// app as it happens.)
///
/// It runs on ``LocationEngineActor`` with the store it reads: the only suspension of a call is the request
/// itself. Calls must not overlap (the synchronizer's runs never do: a run starts once the one it replaced has
/// returned); the uploader keeps no queue of its own.
///
/// ```swift
/// let uploader = LocationUploader(store: store, configuration: .init(network: .sandbox(sandboxURL)))
/// let report = await uploader.uploadPending(userToken: keychain.iftttUserToken)
/// if report.authenticationFailed { print("sign in to IFTTT again") }
/// ```
@_spi(Sandbox) @LocationEngineActor public final class LocationUploader {
    /// The channel id of the IFTTT Location service, sent as `channel_id`.
    public nonisolated static let locationChannelId = "941030000"

    /// The configuration.
    public nonisolated let configuration: Configuration
    private let store: LocationEventStore
    private let stateURL: URL
    private let clock: any ConnectClock
    private let random: @Sendable () -> Double
    private let network: ConnectionNetworkController
    private var scheduler: UploadScheduler
    /// Every piece of refusal state, kept across runs: refusals are judged over time, not per request.
    private var triage: RefusalTriage

    /// Creates an uploader.
    ///
    /// - Parameters:
    ///   - store: the events to upload.
    ///   - configuration: transport, URL and backoff.
    ///   - stateURL: where the backoff schedule is saved; default `upload_state.json` in the store's directory.
    ///   - clock: the clock: which events have expired, when the next attempt is due.
    ///   - random: uniform values in `[0, 1)` for jitter.
    public nonisolated init(
        store: LocationEventStore, configuration: Configuration = Configuration(), stateURL: URL? = nil,
        clock: any ConnectClock = SystemConnectClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.store = store
        self.configuration = configuration
        let stateURL = stateURL ?? store.directory.appendingPathComponent("upload_state.json")
        self.stateURL = stateURL
        self.clock = clock
        self.random = random
        self.network = ConnectionNetworkController(configuration: configuration.network)
        let saved = (try? Data(contentsOf: stateURL)).flatMap {
            try? JSONDecoder().decode(UploadScheduler.State.self, from: $0)
        }
        self.scheduler = UploadScheduler(
            configuration: configuration.scheduler, state: saved ?? UploadScheduler.State())
        self.triage = RefusalTriage(batchSize: configuration.scheduler.batchSize)
    }

    /// The backoff state (as saved).
    public var schedulerState: UploadScheduler.State { scheduler.state }

    /// Uploads pending events in batches until done, a failure, or a pause, with `userToken` (`nil` or empty: nothing
    /// is sent, the report says ``LocationError/Code/missingCredentials``). Returns what happened: the counts, the
    /// error that ended the call, and each batch's progress in ``Report/progress``.
    ///
    /// The journal is read once per call and sent oldest first; a refused batch is settled before any later event
    /// is sent. A refused batch (400, 413, 422) goes to `RefusalTriage`: events the server singles out move to the
    /// store's dead-letter area with its reason and the rest is sent again at once; a refusal that names nothing is
    /// isolated by halves, earlier half first, and an event refused alone is dead-lettered only when its refusals
    /// alone, between probes (an accepted event sent again), are too many to be chance; when requests are refused
    /// alike (no error envelope, or refusals in a row), the events are kept and the uploader backs off as for any
    /// failure.
    public func uploadPending(userToken: String?) async -> Report {
        var run = beginRun(userToken: userToken)
        while let request = nextRequest(in: &run) {
            let answer = await send(request)
            settle(answer, of: request, in: &run)
        }
        return run.result
    }

    /// Starts one upload call: reads the journal once (a failure ends the call at once).
    func beginRun(userToken: String?) -> Run {
        let all: [RegionEvent]
        do throws(LocationError) {
            all = try store.pending(now: clock.now)
        } catch {
            var run = Run(pending: [], userToken: userToken)
            run.end(.retry(at: clock.now), error)
            return run
        }
        triage.beginRun(pending: all)
        return Run(pending: all[...], userToken: userToken)
    }

    /// The call's next request, decided synchronously (its attempt is in ``Request/progress``); `nil` when the call
    /// ended (then ``Run/result`` says how).
    func nextRequest(in run: inout Run) -> Request? {
        guard run.ended == nil else { return nil }
        switch scheduler.handle(.wake(pending: triage.queued + run.rest.count), now: clock.now) {
        case .idle, .notifyAuthenticationFailure:
            run.end(.done)
        case .paused:
            run.end(.paused, LocationError(.authenticationFailure, "uploading is paused after a 401"))
        case .wait(let until):
            run.end(.retry(at: until))
        case .send(let count):
            var probe = false
            let batch: [RegionEvent]
            switch triage.nextRequest() {
            case .batch(let queued)?:
                batch = queued
            case .probe(let event)?:
                probe = true
                batch = [event]
            case .nextEventAsProbe?:
                guard let next = run.next(1).first else {
                    waitForProbe(&run)
                    return nil
                }
                triage.probing(with: next)
                batch = [next]
            case nil:
                batch = run.next(count)
            }
            // A cancelled call (a stopped run, a deactivation) sends nothing more: the events it read before may
            // belong to credentials that are gone.
            guard !Task.isCancelled else {
                run.end(.retry(at: clock.now), Self.locationError(.cancelled))
                return nil
            }
            guard let token = run.userToken, !token.isEmpty else {
                run.end(.paused, LocationError(.missingCredentials, "no IFTTT user token; nothing was sent"))
                return nil
            }
            let request = Request(batch: batch, isProbe: probe, userToken: token)
            run.progress += request.progress
            return request
        }
        return nil
    }

    /// Sends one request: the call's only suspension.
    func send(_ request: Request) async -> LocationUploadAnswer {
        let body = LocationEventPayload.encode(request.batch, installationId: configuration.installationId)
        return await network.postLocationEvents(body, userToken: request.userToken)
    }

    /// Acts on the answer to `request`, synchronously; returns the progress it makes (also kept in `run`).
    @discardableResult
    func settle(_ answer: LocationUploadAnswer, of request: Request, in run: inout Run) -> [Progress] {
        let before = run.progress.count
        let stop = request.isProbe ? handleProbe(answer, in: &run) : handle(answer, for: request.batch, in: &run)
        if let stop { run.ended = stop }
        return Array(run.progress[before...])
    }

    /// An event refused alone waits for a probe and none can be sent: the run ends with every event kept. The
    /// first time, the uploader backs off one step; while the same event waits, the back-off does not grow, so the
    /// next crossing (which serves as the probe) waits at most one step.
    private func waitForProbe(_ run: inout Run) {
        let error = LocationError(
            .uploadFailed,
            "the location API refused an event sent alone, and no other event is at hand to tell a bad event from a refusing server; it is kept"
        )
        guard scheduler.state.consecutiveFailures == 0 else {
            run.end(.retry(at: clock.now.addingTimeInterval(configuration.scheduler.baseDelay)), error)
            return
        }
        run.ended = backOff(&run, error, retryAfter: nil)
    }

    /// Acts on the answer to a probe; returns the report when the call ends here.
    private func handleProbe(_ answer: LocationUploadAnswer, in run: inout Run) -> Report? {
        let decision: RefusalTriage.Decision
        switch answer.error {
        case nil:
            decision = triage.probeAnswered(accepted: true, statusCode: nil)
        case .apiError(let status, _?)? where RefusalTriage.refusalStatuses.contains(status):
            decision = triage.probeAnswered(accepted: false, statusCode: status)
        case .cancelled?:
            return run.report(.retry(at: clock.now), Self.locationError(.cancelled))
        case let error? where error.isAuthenticationFailure:
            _ = scheduler.handle(.authenticationFailed, now: clock.now)
            save()
            run.authenticationFailed = true
            return run.report(.paused, Self.locationError(error))
        case let error?:
            return backOff(&run, Self.locationError(error), retryAfter: answer.retryAfter)
        }
        guard case .backOff(let reason) = decision else { return nil }
        return backOff(&run, LocationError(.uploadFailed, reason), retryAfter: answer.retryAfter)
    }

    /// Acts on the answer to one batch; returns the report when the call ends here.
    private func handle(_ answer: LocationUploadAnswer, for batch: [RegionEvent], in run: inout Run) -> Report? {
        guard let error = answer.error else {
            run.progress.append(.succeeded(batch))
            do throws(LocationError) {
                try store.acknowledge(batch.map(\.recordId), deferCompaction: true)
            } catch {
                // The server has the events; they may be sent again, which record_id makes harmless.
                run.uploaded += batch.count
                return run.report(.retry(at: clock.now), error)
            }
            run.uploaded += batch.count
            triage.accepted(batch)
            _ = scheduler.handle(.succeeded, now: clock.now)
            save()
            return nil
        }
        let failure = Self.locationError(error)
        switch error {
        case .cancelled:
            // Cancelled by the caller (for example an expiring background task): not the server's fault, so no
            // backoff; the events stay.
            run.progress.append(.failed(batch, failure))
            return run.report(.retry(at: clock.now), failure)
        case .authenticationFailure:
            run.progress.append(.failed(batch, failure))
            _ = scheduler.handle(.authenticationFailed, now: clock.now)
            save()
            run.authenticationFailed = true
            return run.report(.paused, failure)
        case .apiError(let status, let payload) where RefusalTriage.refusalStatuses.contains(status):
            switch triage.refused(batch, statusCode: status, payload: payload, error: error, now: clock.now) {
            case .deadLetter(let letters):
                do throws(LocationError) { try deadLetter(letters, in: &run) } catch {
                    return run.report(.retry(at: clock.now), error)
                }
                run.rejected += letters.count
                return nil
            case .retry:
                run.progress.append(.failed(batch, failure))
                return nil
            case .backOff(let reason):
                run.progress.append(.failed(batch, failure))
                return backOff(
                    &run, LocationError(.uploadFailed, "\(reason); the events are kept", networkError: error),
                    retryAfter: answer.retryAfter)
            }
        default:
            run.progress.append(.failed(batch, failure))
            return backOff(&run, failure, retryAfter: answer.retryAfter)
        }
    }

    /// The location subsystem's error for a failed request (the network error stays inside).
    private static func locationError(_ error: ConnectAPIError) -> LocationError {
        switch error {
        case .cancelled: return LocationError(.cancelled, "the upload was cancelled", networkError: error)
        case .authenticationFailure:
            return LocationError(.authenticationFailure, "the location API answered 401", networkError: error)
        case .apiError(let status, let payload):
            return LocationError(
                .uploadFailed, "the location API answered \(status)" + (payload.map { ": \($0)" } ?? ""),
                networkError: error)
        default: return LocationError(.uploadFailed, "the upload failed: \(error)", networkError: error)
        }
    }

    /// Records a failure in the backoff schedule and ends the call with the time of the next attempt.
    private func backOff(_ run: inout Run, _ error: LocationError, retryAfter: TimeInterval?) -> Report {
        let decision = scheduler.handle(.failed(random: random(), retryAfter: retryAfter), now: clock.now)
        save()
        guard case .wait(let until) = decision else { return run.report(.done, error) }
        return run.report(.retry(at: until), error)
    }

    /// Moves refused events to the dead-letter area (one journal record per reason) and reports them.
    private func deadLetter(_ letters: [DeadLetter], in run: inout Run) throws(LocationError) {
        for letter in letters {
            configuration.logHandler?(
                "location event \(letter.event.recordId.uuidString) was refused (\(letter.rejection.statusCode)): \(letter.rejection.reason); moved to the dead-letter area"
            )
        }
        for group in Dictionary(grouping: letters, by: \.rejection).sorted(by: { $0.key.reason < $1.key.reason }) {
            try store.reject(group.value.map(\.event.recordId), group.key)
        }
        run.progress.append(.rejected(letters))
    }

    /// One call's progress through the journal (the batches being isolated belong to `RefusalTriage`), the token
    /// it sends, what it did so far, and its report once it ended.
    struct Run: Sendable {
        var rest: ArraySlice<RegionEvent>
        /// The token the next request is sent with (the caller may change it between requests).
        var userToken: String?
        var uploaded = 0
        var rejected = 0
        var authenticationFailed = false
        var progress: [Progress] = []
        /// The call's report, once it ended.
        var ended: Report?

        init(pending: ArraySlice<RegionEvent>, userToken: String?) {
            rest = pending
            self.userToken = userToken
        }

        mutating func next(_ count: Int) -> [RegionEvent] {
            let batch = Array(rest.prefix(count))
            rest = rest.dropFirst(batch.count)
            return batch
        }

        func report(_ next: Report.Next, _ error: LocationError? = nil) -> Report {
            Report(
                uploaded: uploaded, next: next, error: error, rejected: rejected,
                authenticationFailed: authenticationFailed, progress: progress)
        }

        mutating func end(_ next: Report.Next, _ error: LocationError? = nil) {
            ended = report(next, error)
        }

        /// The report: the one the call ended with, or what it did so far.
        var result: Report { ended ?? report(.done) }
    }

    /// One request of a call: its events, and whether it is a probe (an event sent again to tell a bad event from
    /// a refusing server, not reported as an attempt).
    struct Request: Sendable {
        let batch: [RegionEvent]
        let isProbe: Bool
        let userToken: String

        /// The progress sending it makes: the attempt (none for a probe).
        var progress: [Progress] { isProbe ? [] : [.attempted(batch)] }
    }

    /// Resumes uploading after a 401, once the host app has new credentials. Clears the backoff too.
    public func resume() {
        _ = scheduler.handle(.resumed, now: clock.now)
        save()
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
