import Foundation
@_spi(Sandbox) import IFTTTConnectCore

// The uploader's configuration, its report and its progress events.
extension LocationUploader {
    /// Where and how to upload.
    public struct Configuration: Sendable {
        /// The SDK's network settings, as one value: the transport, the location base URL, the anonymous id
        /// (sent as `installation_id`), the request timeout and the log handler are read from it.
        public var network: ConnectionNetworkController.Configuration
        /// Batch size and backoff.
        public var scheduler: UploadScheduler.Configuration

        /// Takes the SDK's network configuration as it is, so production, the sandbox and tests are configured
        /// in one place.
        ///
        /// - Parameters:
        ///   - network: Transport, location base URL, anonymous id, timeout and log handler.
        ///   - scheduler: Batch size and backoff.
        public init(
            network: ConnectionNetworkController.Configuration = .init(),
            scheduler: UploadScheduler.Configuration = .init()
        ) {
            self.network = network
            self.scheduler = scheduler
        }

        /// The transport: ``network``'s.
        public var transport: any HTTPTransport {
            get { network.transport }
            set { network.transport = newValue }
        }
        /// The location API base URL, ending in `/v1`: ``network``'s.
        public var locationBaseURL: URL {
            get { network.locationBaseURL }
            set { network.locationBaseURL = newValue }
        }
        /// The install's id, sent as `installation_id`: ``network``'s anonymous id.
        public var installationId: String {
            get { network.anonymousId }
            set { network.anonymousId = newValue }
        }
        /// The request timeout in whole seconds: ``network``'s.
        public var timeout: Int {
            get { network.timeout }
            set { network.timeout = newValue }
        }
        /// Receives one line per request (path, batch size, status); never a token: ``network``'s.
        public var logHandler: (@Sendable (String) -> Void)? {
            get { network.logHandler }
            set { network.logHandler = newValue }
        }
    }

    /// The result of one ``uploadPending(userToken:)`` call: what happened, returned to the caller.
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
        }

        /// Events the server accepted during this call.
        public var uploaded: Int
        /// What comes next.
        public var next: Next
        /// The failure that ended the call, if any.
        public var error: LocationError?
        /// Events the server refused for good during this call (moved to the dead-letter area).
        public var rejected: Int
        /// Whether a request of this call was answered 401, which paused uploading until
        /// ``LocationUploader/resume()`` (`false` for a call that found uploading paused already): the time to ask
        /// for new credentials.
        public var authenticationFailed: Bool
        /// Each batch's progress during this call, in order.
        public var progress: [Progress]

        /// Creates a report.
        public init(
            uploaded: Int, next: Next, error: LocationError? = nil, rejected: Int = 0,
            authenticationFailed: Bool = false, progress: [Progress] = []
        ) {
            self.uploaded = uploaded
            self.next = next
            self.error = error
            self.rejected = rejected
            self.authenticationFailed = authenticationFailed
            self.progress = progress
        }
    }

    /// One batch's progress, returned in ``Report/progress``.
    public enum Progress: Sendable, Hashable {
        /// A request with these events is about to be sent.
        case attempted([RegionEvent])
        /// The server accepted these events.
        case succeeded([RegionEvent])
        /// The request with these events failed; they stay in the store.
        case failed([RegionEvent], LocationError)
        /// The server refused these events for good; they were moved to the store's dead-letter area.
        case rejected([DeadLetter])
    }
}
