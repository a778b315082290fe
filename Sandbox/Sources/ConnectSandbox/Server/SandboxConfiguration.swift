import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Logging

/// Settings of one sandbox server: where it listens, where it keeps its state, what it seeds, and which faults it
/// injects.
///
/// Every property has a default, so `SandboxConfiguration()` is a working sandbox on an ephemeral port of
/// `127.0.0.1` that keeps its state in the default database file (see ``defaultDatabasePath(environment:)``).
/// Tests usually pass ``inMemoryDatabasePath`` or a temporary file as `databasePath`.
public struct SandboxConfiguration: Sendable {
    /// The `databasePath` value that keeps all state in memory; it is lost when the server stops.
    public static let inMemoryDatabasePath = ":memory:"

    /// The interface to bind to. Default `"127.0.0.1"`. A name must resolve to loopback addresses only; to listen
    /// beyond this machine give the address itself, `0.0.0.0` or a LAN address (``SandboxHost``).
    public var host: String
    /// The TCP port to bind to; `0` (the default) picks a free ephemeral port. Valid range 0...65535.
    public var port: Int
    /// The SQLite database file. `nil` means ``defaultDatabasePath(environment:)``; ``inMemoryDatabasePath``
    /// keeps the state in memory. Missing parent directories are created.
    public var databasePath: String?
    /// An integrator seed file (format: `docs/sandbox-seed-file.md`) that is upserted into the store at every start,
    /// on top of the existing state.
    public var seedFile: URL?
    /// Whether an empty database is filled with the built-in demo seed (``SeedData/demo()``) at start. Default `true`.
    public var seedsDemoData: Bool
    /// Extra latency in milliseconds added to every API request (`/v1/...`, `/v2/...`). Must not be negative.
    public var latency: Int
    /// The fraction (0...1) of API requests that fail with 503 and the error code `service_unavailable`.
    public var failRate: Double
    /// The seed of the pseudo-random generator behind ``failRate``. The same seed gives the same sequence of failures
    /// for the same sequence of requests. `nil` picks a random seed.
    public var randomSeed: UInt64?
    /// Whether the web activation pages echo the SDK's `state` in the redirect back to the app. Default
    /// ``RedirectStateMode/ignore``: IFTTT's own SDKs (iOS 2.8, Android) neither send nor read a `state`, so a real
    /// IFTTT cannot be assumed to echo it, and the sandbox must not hide that.
    public var redirectState: RedirectStateMode
    /// Where the sandbox logs. Tokens, passwords and service keys are never logged.
    public var logger: Logger
    /// The probability (0...1) that `POST /v1/location_events` refuses an event: a batch holding a refused event is
    /// answered 422 `invalid_parameters` whose details name each refused record id (`[index].record_id`), and
    /// nothing of it is recorded. The decision depends only on ``randomSeed`` and the record id, so a refused event
    /// is refused again when re-sent and a run is reproducible. Default 0 (`--reject-location-events`).
    public var rejectLocationEvents: Double = 0
    /// The sandbox's one clock: every time it stamps or compares (tokens and records it writes, activation sessions,
    /// authorization codes, sign-in throttling, received events) is read from it. Default the system's
    /// (`SystemConnectClock`); tests inject a `ManualClock` from IFTTTConnectTesting.
    package var clock: any ConnectClock = SystemConnectClock()
    /// How long a connection may take to deliver a complete request head (after it opens, and between the requests
    /// of a kept-alive connection) before the sandbox closes it, so slow clients cannot hold connections open.
    /// Default 10 seconds; must be positive.
    public var headerReadTimeout: Duration = .seconds(10)
    /// How long a request may take to deliver its whole body after its head before the sandbox closes the
    /// connection. Default 30 seconds; must be positive.
    public var bodyReadTimeout: Duration = .seconds(30)
    /// Strict mode (``StrictMode``, `--strict`): refuse what IFTTT documents nowhere (`null` optional members, a
    /// `skip_config` other than `true`/`false`) and answer the token exchange of an unlinked partner user with 401, as
    /// the one real answer on record does. Default `false`.
    public var strict = false
    /// A fresh database for this run only: a `sandbox.sqlite` in a private temporary folder (mode 0700, under
    /// `$TMPDIR`), seeded like a new database and removed with the folder when ``SandboxServer/run(_:onRunning:)`` or
    /// ``SandboxServer/withRunning(_:_:)`` stops the server (a `SIGKILL` leaves it behind). Excludes ``databasePath``.
    /// Default `false`; the CLI's commands that start an embedded sandbox always use it (`--ephemeral`).
    public var ephemeral = false
    /// The most connections kept open at once. At the limit, a new connection closes the one that has waited longest
    /// for its request; connections answering a request are never closed for room. Default 512; must be positive.
    public var maximumConnections = 512

    /// Creates a configuration. See the properties for the meaning and defaults of each parameter.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        databasePath: String? = nil,
        seedFile: URL? = nil,
        seedsDemoData: Bool = true,
        latency: Int = 0,
        failRate: Double = 0,
        randomSeed: UInt64? = nil,
        redirectState: RedirectStateMode = .ignore,
        logger: Logger = Logger(label: "ifttt-connect.sandbox")
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.seedFile = seedFile
        self.seedsDemoData = seedsDemoData
        self.latency = latency
        self.failRate = failRate
        self.randomSeed = randomSeed
        self.redirectState = redirectState
        self.logger = logger
    }

    /// Checks every value and throws the first problem found.
    ///
    /// - Throws: ``SandboxError/invalidConfiguration(parameter:message:)`` for an empty host or one
    ///   ``SandboxHost/resolve(_:)`` refuses, a port outside
    ///   0...65535, a negative latency, or a fail rate outside 0...1 (or NaN).
    public func validate() throws(SandboxError) {
        if host.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidConfiguration(parameter: "host", message: "must not be empty")
        }
        _ = try SandboxHost.resolve(host)
        if !(0...65535).contains(port) {
            throw .invalidConfiguration(parameter: "port", message: "must be between 0 and 65535 (got \(port))")
        }
        if latency < 0 {
            throw .invalidConfiguration(
                parameter: "latency", message: "must be zero or a positive number of milliseconds (got \(latency))")
        }
        if !(failRate >= 0 && failRate <= 1) {
            throw .invalidConfiguration(parameter: "failRate", message: "must be between 0 and 1 (got \(failRate))")
        }
        if !(rejectLocationEvents >= 0 && rejectLocationEvents <= 1) {
            throw .invalidConfiguration(
                parameter: "rejectLocationEvents", message: "must be between 0 and 1 (got \(rejectLocationEvents))")
        }
        if headerReadTimeout <= .zero {
            throw .invalidConfiguration(parameter: "headerReadTimeout", message: "must be positive")
        }
        if bodyReadTimeout <= .zero {
            throw .invalidConfiguration(parameter: "bodyReadTimeout", message: "must be positive")
        }
        if maximumConnections < 1 {
            throw .invalidConfiguration(parameter: "maximumConnections", message: "must be positive")
        }
        if ephemeral, databasePath != nil {
            throw .invalidConfiguration(
                parameter: "databasePath",
                message: "and ephemeral exclude each other: an ephemeral sandbox makes its own")
        }
        if let databasePath, databasePath.isEmpty {
            throw .invalidConfiguration(parameter: "databasePath", message: "must not be an empty string")
        }
    }

    /// The database path that is actually used: ``databasePath`` or the default file.
    public var resolvedDatabasePath: String {
        databasePath ?? Self.defaultDatabasePath()
    }

    /// The default database file in the user's data directory.
    ///
    /// * Linux and others: `$XDG_DATA_HOME/ifttt-connect/sandbox.sqlite`, else `~/.local/share/ifttt-connect/sandbox.sqlite`.
    /// * macOS: `~/Library/Application Support/ifttt-connect/sandbox.sqlite`.
    ///
    /// - Parameter environment: The environment variables to read (`XDG_DATA_HOME`, `HOME`).
    public static func defaultDatabasePath(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        #if os(macOS)
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        return base.appendingPathComponent("ifttt-connect/sandbox.sqlite").path
        #else
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("ifttt-connect/sandbox.sqlite").path
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/ifttt-connect/sandbox.sqlite").path
        #endif
    }
}

/// What the web activation pages do with the `state` query parameter of an activation URL when they redirect back to
/// the app (`sdk_return_to`).
///
/// A `state` is never required: the sandbox accepts activation URLs built exactly as IFTTT's iOS 2.8 and Android
/// SDKs build them, which carry none.
public enum RedirectStateMode: String, Sendable, CaseIterable {
    /// The redirect carries the `state` the activation URL had (as sent), when it had one.
    case echo
    /// The redirect never carries a `state`, as must be assumed of the real IFTTT. The default.
    case ignore
}
