import Foundation
import IFTTTConnectCore

// Every name this module keeps only so that code written against an earlier release of this SDK still compiles, in
// one place, each marked with what replaces it and listed in the migration article (MigratingFrom28.md). The SDK's
// own code and tests use none of them. The `now:` closures became a `clock:` (a ``ConnectClock``, which tests drive
// with `ManualClock`); a closure's reading of the time is one small clock type away (see the article).

extension LocationUploader {
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
    @available(*, deprecated, message: "pass a ConnectClock as clock: instead of a now: closure")
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
}

extension LocationMonitoringSession {
    /// Creates a session whose clock reads `now` (the spelling before the `clock:` parameter
    /// existed; prefer `clock:`, which tests can drive with `ManualClock`).
    ///
    /// - Parameters:
    ///   - monitor: the platform's region monitoring (or a ``SimulatedRegionMonitor``).
    ///   - store: where crossings are recorded; `nil` keeps them only in ``recordedEvents``.
    ///   - configuration: region limit and radii.
    ///   - presence: inside/outside per geofence saved from an earlier launch.
    ///   - now: the wall-clock time for events whose platform report carries no time.
    ///   - openStore: opens the store when `store` is `nil` or could not be opened yet.
    ///   - dwellTime: the dwell filter in seconds (default ``defaultDwellTime``); `0` turns it off.
    ///   - onEvent: called for each recorded crossing, after it is stored.
    ///   - onError: called when a crossing cannot be stored.
    ///   - ownership: where the identifiers of the regions the SDK registered are kept across launches.
    @available(*, deprecated, message: "pass a ConnectClock as clock: instead of a now: closure")
    public init(
        monitor: any RegionMonitor, store: LocationEventStore?,
        configuration: RegionSelector.Configuration = RegionSelector.Configuration(),
        presence: [String: RegionSelector.Presence] = [:],
        now: @escaping @Sendable () -> Date,
        openStore: (@Sendable () async -> LocationEventStore?)? = nil,
        dwellTime: TimeInterval = LocationMonitoringSession.defaultDwellTime,
        onEvent: (@Sendable (RegionEvent) -> Void)? = nil,
        onError: (@Sendable (LocationError) -> Void)? = nil,
        ownership: RegionOwnershipFile? = nil
    ) {
        self.init(
            monitor: monitor, store: store, configuration: configuration, presence: presence,
            clock: ClosureClock(now), openStore: openStore, dwellTime: dwellTime, onEvent: onEvent,
            onError: onError, ownership: ownership)
    }
}

extension Synchronizer.Configuration {
    /// The wall-clock time of ``clock`` (the spelling before ``clock`` existed); setting it replaces the clock.
    @available(*, deprecated, message: "read clock.now, or set clock to a ConnectClock")
    public var now: @Sendable () -> Date {
        get { { [clock] in clock.now } }
        set { clock = ClosureClock(newValue) }
    }

    /// Creates a configuration whose clock reads `now` (the spelling before ``clock`` existed; prefer
    /// ``init(regionMonitor:storageDirectory:transport:connectBaseURL:locationBaseURL:anonymousId:secureStore:taskScheduler:permissionRequester:clock:random:upload:regions:backgroundTaskInterval:)``).
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
    ///   - now: The wall-clock time.
    ///   - random: Uniform values in `[0, 1)` for upload backoff jitter.
    ///   - upload: Upload batch size and backoff.
    ///   - regions: Region limit and radii.
    ///   - backgroundTaskInterval: Seconds between SDK background tasks.
    @available(*, deprecated, message: "pass a ConnectClock as clock: instead of a now: closure")
    public init(
        regionMonitor: any RegionMonitor,
        storageDirectory: URL = Synchronizer.Configuration.defaultStorageDirectory,
        transport: (any HTTPTransport)? = nil,
        connectBaseURL: URL = ConnectionNetworkController.Configuration.productionConnectURL,
        locationBaseURL: URL = ConnectionNetworkController.Configuration.productionLocationURL,
        anonymousId: String? = nil,
        secureStore: (any SecureStore)? = nil,
        taskScheduler: (any TaskScheduler)? = nil,
        permissionRequester: (@Sendable () async -> Void)? = nil,
        now: @escaping @Sendable () -> Date,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        upload: UploadScheduler.Configuration = .init(),
        regions: RegionSelector.Configuration = .init(),
        backgroundTaskInterval: TimeInterval = 3600
    ) {
        self.init(
            regionMonitor: regionMonitor, storageDirectory: storageDirectory, transport: transport,
            connectBaseURL: connectBaseURL, locationBaseURL: locationBaseURL, anonymousId: anonymousId,
            secureStore: secureStore, taskScheduler: taskScheduler, permissionRequester: permissionRequester,
            clock: ClosureClock(now), random: random, upload: upload, regions: regions,
            backgroundTaskInterval: backgroundTaskInterval)
    }
}
