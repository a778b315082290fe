import Foundation
@_spi(Sandbox) import IFTTTConnectCore

// Synchronizer.Configuration: the dependencies and settings a synchronizer is created with.
extension Synchronizer {
    /// Where and how the synchronizer works. Every dependency is injectable.
    public struct Configuration: Sendable {
        /// `com.ifttt.ifttt.synchronization_scheduler`, the identifier of the SDK's background processing task.
        @_spi(Sandbox) public static let backgroundTaskIdentifier = "com.ifttt.ifttt.synchronization_scheduler"

        /// The platform's region monitoring.
        @_spi(Sandbox) public var regionMonitor: any RegionMonitor
        /// Where the Connections, switches, events and (on Linux) credentials are kept.
        public var storageDirectory: URL
        /// The network settings the synchronizer passes, as one value, to its network controller and its
        /// uploader: transport, Connect and location base URLs, anonymous id, timeout. An empty
        /// `anonymousId` (the default here) is read from `AnonymousIdentifierStore.current` on first use. The
        /// synchronizer sends the log lines to ``Synchronizer/logger`` and calls back on no queue, whatever
        /// `logHandler` and `callbackQueue` say.
        @_spi(Sandbox) public var network: ConnectionNetworkController.Configuration
        /// Where credentials are kept; `nil` means the Keychain on Apple platforms and a 0600 file in
        /// ``storageDirectory`` elsewhere.
        @_spi(Sandbox) public var secureStore: (any SecureStore)?
        /// The background-task scheduler; `nil` means none (the host app runs synchronizations).
        @_spi(Sandbox) public var taskScheduler: (any TaskScheduler)?
        /// Asks the user for "Always" location authorization (with ``InitializerOptions/showPermissionsPrompts``).
        @_spi(Sandbox) public var permissionRequester: (@Sendable () async -> Void)?
        /// The clock: event report delays, background task dates, upload backoff, crossings without a time.
        @_spi(Sandbox) public var clock: any ConnectClock
        /// Uniform values in `[0, 1)` for upload backoff jitter.
        @_spi(Sandbox) public var random: @Sendable () -> Double
        /// Upload batch size and backoff.
        @_spi(Sandbox) public var upload: UploadScheduler.Configuration
        /// Region limit and radii.
        @_spi(Sandbox) public var regions: RegionSelector.Configuration
        /// How long after the app enters the background (or a background run ends) the next SDK background
        /// task may start, in seconds. Default one hour.
        @_spi(Sandbox) public var backgroundTaskInterval: TimeInterval
        /// The dwell filter, in seconds (beyond 2.8): a crossing is recorded once the device stayed on its new side
        /// that long, and a crossing reversed within that time records neither. Default
        /// ``LocationMonitoringSession/defaultDwellTime`` (30 s); `0` records every crossing at once, as 2.8 did.
        /// See ``LocationMonitoringSession``.
        @_spi(Sandbox) public var dwellTime: TimeInterval = LocationMonitoringSession.defaultDwellTime

        /// Creates a configuration; everything but the region monitor has a production default.
        ///
        /// - Parameters:
        ///   - regionMonitor: The platform's region monitoring.
        ///   - storageDirectory: Where the synchronizer's files are kept.
        ///   - transport: The HTTP transport; `nil` means a `URLSessionTransport`.
        ///   - connectBaseURL: The Connect API base URL, ending in `/v2`.
        ///   - locationBaseURL: The location API base URL, ending in `/v1`.
        ///   - anonymousId: The install's anonymous id; `nil` reads `AnonymousIdentifierStore.current` on first use.
        ///   - secureStore: Where credentials are kept; `nil` means the platform's.
        ///   - taskScheduler: The background-task scheduler; `nil` means none.
        ///   - permissionRequester: Asks the user for "Always" location authorization.
        ///   - clock: The clock.
        ///   - random: Uniform values in `[0, 1)` for upload backoff jitter.
        ///   - upload: Upload batch size and backoff.
        ///   - regions: Region limit and radii.
        ///   - backgroundTaskInterval: Seconds between SDK background tasks.
        @_spi(Sandbox) public init(
            regionMonitor: any RegionMonitor,
            storageDirectory: URL = Configuration.defaultStorageDirectory,
            transport: (any HTTPTransport)? = nil,
            connectBaseURL: URL = ConnectionNetworkController.Configuration.productionConnectURL,
            locationBaseURL: URL = ConnectionNetworkController.Configuration.productionLocationURL,
            anonymousId: String? = nil,
            secureStore: (any SecureStore)? = nil,
            taskScheduler: (any TaskScheduler)? = nil,
            permissionRequester: (@Sendable () async -> Void)? = nil,
            clock: any ConnectClock = SystemConnectClock(),
            random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
            upload: UploadScheduler.Configuration = .init(),
            regions: RegionSelector.Configuration = .init(),
            backgroundTaskInterval: TimeInterval = 3600
        ) {
            self.regionMonitor = regionMonitor
            self.storageDirectory = storageDirectory
            self.network = ConnectionNetworkController.Configuration(
                transport: transport ?? URLSessionTransport(), connectBaseURL: connectBaseURL,
                locationBaseURL: locationBaseURL, anonymousId: anonymousId ?? "", callbackQueue: nil)
            self.secureStore = secureStore
            self.taskScheduler = taskScheduler
            self.permissionRequester = permissionRequester
            self.clock = clock
            self.random = random
            self.upload = upload
            self.regions = regions
            self.backgroundTaskInterval = backgroundTaskInterval
        }

        /// The HTTP transport: the network configuration's.
        @_spi(Sandbox) public var transport: (any HTTPTransport)? {
            get { network.transport }
            set { network.transport = newValue ?? URLSessionTransport() }
        }
        /// The Connect API base URL, ending in `/v2`: the network configuration's.
        @_spi(Sandbox) public var connectBaseURL: URL {
            get { network.connectBaseURL }
            set { network.connectBaseURL = newValue }
        }
        /// The location API base URL, ending in `/v1`: the network configuration's.
        @_spi(Sandbox) public var locationBaseURL: URL {
            get { network.locationBaseURL }
            set { network.locationBaseURL = newValue }
        }
        /// The install's anonymous id: ``network``'s; `nil` reads `AnonymousIdentifierStore.current` on first use.
        @_spi(Sandbox) public var anonymousId: String? {
            get { network.anonymousId.isEmpty ? nil : network.anonymousId }
            set { network.anonymousId = newValue ?? "" }
        }
        /// `<Application Support>/IFTTTConnectLocation`, computed without touching the disk.
        @_spi(Sandbox) public static var defaultStorageDirectory: URL {
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            return base.appendingPathComponent("IFTTTConnectLocation", isDirectory: true)
        }

        /// A sandbox or other IFTTT at `baseURL` (its root): Connect API under `/v2`, location API under `/v1`.
        public mutating func useServer(at baseURL: URL) {
            connectBaseURL = baseURL.appendingPathComponent("v2")
            locationBaseURL = baseURL.appendingPathComponent("v1")
        }
    }
}
