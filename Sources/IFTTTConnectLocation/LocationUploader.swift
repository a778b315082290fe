import Foundation
import IFTTTConnectSDK

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
    /// Where and how to upload.
    public struct Configuration: Sendable {
        /// The transport.
        public var transport: any HTTPTransport
        /// The location API base URL, ending in `/v1`.
        public var locationBaseURL: URL
        /// The install's id, sent as `installation_id`.
        public var installationId: String
        /// The request timeout in whole seconds.
        public var timeout: Int
        /// Batch size and backoff.
        public var scheduler: UploadScheduler.Configuration
        /// Receives one line per request (path, batch size, status). Never a token.
        public var logHandler: (@Sendable (String) -> Void)?

        /// Takes the transport, location base URL, anonymous id, timeout and log handler of the SDK's network
        /// configuration, so production, the sandbox and tests are configured in one place.
        public init(network: ConnectionNetworkController.Configuration = .init(),
                    scheduler: UploadScheduler.Configuration = .init()) {
            self.transport = network.transport
            self.locationBaseURL = network.locationBaseURL
            self.installationId = network.anonymousId
            self.timeout = network.timeout
            self.scheduler = scheduler
            self.logHandler = network.logHandler
        }
    }

    /// The result of one ``uploadPending()`` call.
    public struct Report: Sendable, Hashable {
        /// What comes next.
        public enum Next: Sendable, Hashable {
            /// Nothing is waiting.
            case done
            /// Events wait; call again at this time.
            case retry(at: Date)
            /// Nothing can be sent: a 401 paused uploading (call ``LocationUploader/resume()`` after new
            /// credentials), or no user token is available (``LocationError/Code/missingCredentials``).
            case paused
            /// Another call is uploading.
            case busy
        }

        /// Events the server accepted during this call.
        public var uploaded: Int
        /// What comes next.
        public var next: Next
        /// The failure that ended the call, if any.
        public var error: LocationError?
    }

    /// One batch's progress, reported to the progress handler.
    public enum Progress: Sendable, Hashable {
        /// A request with these events is about to be sent.
        case attempted([RegionEvent])
        /// The server accepted these events.
        case succeeded([RegionEvent])
        /// The request with these events failed; they stay in the store.
        case failed([RegionEvent], LocationError)
    }

    /// The channel id of the IFTTT Location service, sent as `channel_id`.
    public static let locationChannelId = "941030000"

    /// The configuration.
    public let configuration: Configuration
    private let store: LocationEventStore
    private let tokenProvider: @Sendable () async -> String?
    private let stateURL: URL
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let authenticationFailureHandler: (@Sendable () -> Void)?
    private let progressHandler: (@Sendable (Progress) async -> Void)?
    private var scheduler: UploadScheduler
    private var isUploading = false

    /// Creates an uploader.
    ///
    /// - Parameters:
    ///   - store: the events to upload.
    ///   - configuration: transport, URL and backoff.
    ///   - tokenProvider: the IFTTT user token, read before each request.
    ///   - stateURL: where the backoff schedule is saved; default `upload_state.json` in the store's directory.
    ///   - now: the clock.
    ///   - random: uniform values in `[0, 1)` for jitter.
    ///   - authenticationFailureHandler: called once when a 401 pauses uploading.
    ///   - progressHandler: awaited before each request and after its answer (for event reporting).
    public init(store: LocationEventStore, configuration: Configuration = Configuration(),
                tokenProvider: @escaping @Sendable () async -> String?, stateURL: URL? = nil,
                now: @escaping @Sendable () -> Date = { Date() },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                authenticationFailureHandler: (@Sendable () -> Void)? = nil,
                progressHandler: (@Sendable (Progress) async -> Void)? = nil) {
        self.store = store
        self.configuration = configuration
        self.tokenProvider = tokenProvider
        self.stateURL = stateURL ?? store.directory.appendingPathComponent("upload_state.json")
        self.now = now
        self.random = random
        self.authenticationFailureHandler = authenticationFailureHandler
        self.progressHandler = progressHandler
        let saved = (try? Data(contentsOf: self.stateURL)).flatMap { try? JSONDecoder().decode(UploadScheduler.State.self, from: $0) }
        self.scheduler = UploadScheduler(configuration: configuration.scheduler, state: saved ?? UploadScheduler.State())
    }

    /// The backoff state (as saved).
    public var schedulerState: UploadScheduler.State { scheduler.state }

    /// Uploads pending events in batches until done, a failure, or a pause.
    public func uploadPending() async -> Report {
        guard !isUploading else { return Report(uploaded: 0, next: .busy) }
        isUploading = true
        defer { isUploading = false }
        var uploaded = 0
        while true {
            let pending: [RegionEvent]
            do throws(LocationError) {
                pending = try await store.pending(now: now())
            } catch {
                return Report(uploaded: uploaded, next: .retry(at: now()), error: error)
            }
            switch scheduler.handle(.wake(pending: pending.count), now: now()) {
            case .idle, .notifyAuthenticationFailure:
                return Report(uploaded: uploaded, next: .done)
            case .paused:
                return Report(uploaded: uploaded, next: .paused,
                              error: LocationError(.authenticationFailure, "uploading is paused after a 401"))
            case .wait(let until):
                return Report(uploaded: uploaded, next: .retry(at: until))
            case .send(let count):
                let batch = Array(pending.prefix(count))
                guard let token = await tokenProvider(), !token.isEmpty else {
                    return Report(uploaded: uploaded, next: .paused,
                                  error: LocationError(.missingCredentials, "no IFTTT user token; nothing was sent"))
                }
                await progressHandler?(.attempted(batch))
                let result = await send(batch, token: token)
                switch result {
                case .success:
                    await progressHandler?(.succeeded(batch))
                    do throws(LocationError) {
                        try await store.acknowledge(batch.map(\.recordId))
                    } catch {
                        // The server has the events; they may be sent again, which record_id makes harmless.
                        return Report(uploaded: uploaded + batch.count, next: .retry(at: now()), error: error)
                    }
                    uploaded += batch.count
                    _ = scheduler.handle(.succeeded, now: now())
                    save()
                case .failure(let error) where error.code == .cancelled:
                    // Cancelled by the caller (for example an expiring background task): not the server's fault,
                    // so no backoff; the events stay.
                    await progressHandler?(.failed(batch, error.error))
                    return Report(uploaded: uploaded, next: .retry(at: now()), error: error.error)
                case .failure(let error) where error.code == .authenticationFailure:
                    await progressHandler?(.failed(batch, error.error))
                    _ = scheduler.handle(.authenticationFailed, now: now())
                    save()
                    authenticationFailureHandler?()
                    return Report(uploaded: uploaded, next: .paused, error: error.error)
                case .failure(let error):
                    await progressHandler?(.failed(batch, error.error))
                    let decision = scheduler.handle(.failed(random: random(), retryAfter: error.retryAfter), now: now())
                    save()
                    guard case .wait(let until) = decision else { return Report(uploaded: uploaded, next: .done, error: error.error) }
                    return Report(uploaded: uploaded, next: .retry(at: until), error: error.error)
                }
            }
        }
    }

    /// Resumes uploading after a 401, once the host app has new credentials. Clears the backoff too.
    public func resume() {
        _ = scheduler.handle(.resumed, now: now())
        save()
    }

    private struct Failure: Error {
        var error: LocationError
        var retryAfter: TimeInterval?
        var code: LocationError.Code { error.code }
    }

    private func send(_ batch: [RegionEvent], token: String) async -> Result<Void, Failure> {
        let url = configuration.locationBaseURL.appendingPathComponent("location_events")
        let body = LocationEventPayload.encode(batch, installationId: configuration.installationId)
        let request = HTTPRequest(method: "POST", url: url,
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
                return .failure(Failure(error: LocationError(.authenticationFailure, "the location API answered 401",
                                                             networkError: .authenticationFailure(nil))))
            default:
                let retryAfter = response.headers["retry-after"].flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
                return .failure(Failure(error: LocationError(.uploadFailed, "the location API answered \(response.statusCode)",
                                                             networkError: .apiError(statusCode: response.statusCode, payload: nil)),
                                        retryAfter: retryAfter))
            }
        } catch {
            configuration.logHandler?("POST \(path) (\(batch.count) events) failed: \(error)")
            if error == .cancelled { return .failure(Failure(error: LocationError(.cancelled, "the upload was cancelled", networkError: error))) }
            return .failure(Failure(error: LocationError(.uploadFailed, "the upload failed: \(error)", networkError: error)))
        }
    }

    private func save() {
        guard let data = try? JSONEncoder().encode(scheduler.state) else { return }
        let directory = stateURL.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if (try? data.write(to: stateURL, options: .atomic)) != nil {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: stateURL.path)
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            try? FileManager.default.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
                                                   ofItemAtPath: stateURL.path)
            #endif
        }
    }
}

/// The body of `POST /v1/location_events`: a JSON array with one object per event and exactly the keys
/// `record_id`, `region_type`, `occurred_at`, `event_type`, `channel_id`, `trigger_subscription_id` and
/// `installation_id` (spec §4.6).
public enum LocationEventPayload {
    private struct Item: Encodable {
        let record_id: String
        let region_type: String
        let occurred_at: String
        let event_type: String
        let channel_id: String
        let trigger_subscription_id: String
        let installation_id: String
    }

    /// The JSON body for `events` (keys sorted, so equal input gives equal bytes).
    public static func encode(_ events: [RegionEvent], installationId: String) -> Data {
        let items = events.map {
            Item(record_id: $0.recordId.uuidString, region_type: "geo", occurred_at: timestamp($0.occurredAt),
                 event_type: $0.transition.rawValue, channel_id: LocationUploader.locationChannelId,
                 trigger_subscription_id: $0.triggerSubscriptionId, installation_id: installationId)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(items)) ?? Data("[]".utf8)
    }

    /// `yyyy-MM-dd'T'HH:mm:ss+0000` in UTC, whole seconds, as the iOS SDK sends it.
    public static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let seconds = (date.timeIntervalSince1970).rounded(.down)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d+0000", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                      c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}
