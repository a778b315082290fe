import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK

/// `ifttt-connect location`: geofencing tools.
struct LocationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "location",
        abstract: "Simulate geofence trips and upload their events to a Connect API.",
        subcommands: [
            LocationSimulateCommand.self, LocationJournalStressCommand.self, LocationLifecycleCommand.self,
            LocationUploadCommand.self,
        ]
    )
}

/// `ifttt-connect location simulate --gpx FILE --connection ID [--token T] [--api URL] [--json]`.
struct LocationSimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay a GPX route across a user's geofences and upload the recorded events.",
        discussion: """
            Runs the SDK's Synchronizer as an app does, in a temporary directory: saves the user token, activates \
            the Connections (the synchronizer fetches them and monitors their geofences with a simulated region \
            monitor), replays the route on the route's own time, lets the synchronizer record each crossing and \
            upload it to POST /v1/location_events, and lists what the server recorded. Events the server refuses for good are \
            dead-lettered and listed with their reasons. With --json the last line is the JSON array of the acknowledged \
            events (record_id, trigger_subscription_id, event_type, occurred_at, status "acknowledged") followed by the \
            rejected ones (status "rejected", status_code, reason). The SDK's dwell filter is on, as in an app: a \
            crossing is recorded once the device stayed on its new side 30 s, and a crossing reversed sooner records \
            neither; --dwell S sets another time, --dwell 0 turns it off (every crossing, as ConnectSDK-iOS 2.8).
            """
    )

    @Option(help: ArgumentHelp("The GPX 1.1 route to replay.", valueName: "file"))
    var gpx: String

    @Option(help: ArgumentHelp("A Connection whose geofences to monitor (repeatable).", valueName: "id"))
    var connection: [String]

    @Option(
        help: SecretInput.removedFlagHelp)
    var token: String?

    @Option(name: .customLong("token-file"), help: SecretInput.userToken.fileHelp)
    var tokenFile: String?

    @Flag(help: "End with the acknowledged and rejected events as one line of JSON.")
    var json = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The dwell filter: record a crossing once the device stayed this many seconds on its new side (the SDK's default); 0 turns it off.",
            valueName: "seconds"))
    var dwell: Double = LocationMonitoringSession.defaultDwellTime

    @OptionGroup var api: APIOptions

    func validate() throws {
        guard !connection.isEmpty else { throw ValidationError("at least one --connection is required") }
        try SecretInput.userToken.refuse(token)
        guard dwell >= 0, dwell <= 86_400 else { throw ValidationError("--dwell must be between 0 and 86400 seconds") }
    }

    func run() async throws {
        let route: Route
        do {
            route = try Route(gpx: try Data(contentsOf: URL(fileURLWithPath: gpx)))
        } catch let error as LocationError {
            warn("error: \(gpx) is not a GPX route: \(error.message)")
            throw ExitCode(1)
        } catch {
            warn("error: cannot read \(gpx): \(FileProblem.reading(gpx))")
            throw ExitCode(1)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ifttt-connect-trip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let token =
            try SecretInput.userToken.resolve(file: tokenFile) ?? "sandbox-user-token-alice"
        let (connection, json, dwell) = (connection, json, dwell)
        do {
            let outcome = try await api.withAPI { root in
                var trip = LocationTrip(
                    root: root, token: token, connectionIds: connection, route: route,
                    storeDirectory: directory)
                trip.dwellTime = dwell
                return try await trip.run(log: { say($0) })
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                say(String(decoding: try encoder.encode(outcome.listing), as: UTF8.self))
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            warn("error: \(error)")
            throw ExitCode(1)
        }
    }
}

/// `ifttt-connect location journal-stress` (hidden): appends events to a ``LocationEventStore`` in a loop and writes
/// `appended <record id>` after each durable append, for the crash-safety test that kills it with SIGKILL.
/// With `--api`, every `--upload-every` appends it uploads the pending events and writes `uploaded <count>`.
struct LocationJournalStressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal-stress",
        abstract: "Append events to an event store in a loop (for crash tests).",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("The event store directory.", valueName: "dir"))
    var store: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Stop after this many appends (default: until killed).", valueName: "n"))
    var count: Int?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Upload after this many appends (needs --api).", valueName: "n"))
    var uploadEvery: Int = 5

    @Option(help: ArgumentHelp("The trigger subscription id of the events.", valueName: "id"))
    var subscription: String = "alice-arrive-trigger-1"

    @Option(
        help: SecretInput.removedFlagHelp)
    var token: String?

    @Option(name: .customLong("token-file"), help: SecretInput.userToken.fileHelp)
    var tokenFile: String?

    @Option(help: ArgumentHelp("The API root to upload to; without it nothing is uploaded.", valueName: "url"))
    var api: String?

    func validate() throws {
        try SecretInput.userToken.refuse(token)
        if let count, count < 1 { throw ValidationError("--count must be at least 1, got \(count)") }
        guard uploadEvery >= 1 else { throw ValidationError("--upload-every must be at least 1, got \(uploadEvery)") }
    }

    func run() async throws {
        let store = try LocationEventStore(directory: URL(fileURLWithPath: self.store, isDirectory: true))
        let token =
            try SecretInput.userToken.resolve(file: tokenFile) ?? "sandbox-user-token-alice"
        let uploader = api.flatMap({ URL(string: $0) }).map { root in
            LocationUploader(store: store, configuration: .init(network: .sandbox(root)))
        }
        say("ready")
        var appended = 0
        while count.map({ appended < $0 }) ?? true {
            let event = RegionEvent(
                transition: appended % 2 == 0 ? .entry : .exit, occurredAt: Date(),
                triggerSubscriptionId: subscription)
            try await store.append(event)
            appended += 1
            say("appended \(event.recordId.uuidString)")
            if let uploader, appended % max(1, uploadEvery) == 0 {
                let report = await uploader.uploadPending(userToken: token)
                say("uploaded \(report.uploaded)")
            }
        }
    }
}

/// `ifttt-connect location upload` (hidden): opens an event store, uploads every pending event, then tries to
/// record one crossing, for the test that mounts the store read-only. Writes `read-only: <reason>` (or `no`),
/// `uploaded <count>` and `append: ok` or `append: <error>`.
struct LocationUploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload an event store's pending events (for tests).",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("The event store directory.", valueName: "dir"))
    var store: String

    @Option(help: ArgumentHelp("The API root to upload to.", valueName: "url"))
    var api: String

    @Option(help: ArgumentHelp("The IFTTT user token. Never printed.", valueName: "token"))
    var token: String = "sandbox-user-token-alice"

    func run() async throws {
        guard let root = URL(string: api) else { throw ValidationError("--api must be a URL") }
        let store = try LocationEventStore(directory: URL(fileURLWithPath: self.store, isDirectory: true))
        say("read-only: \(store.readOnlyReason ?? "no")")
        let token = token
        let uploader = LocationUploader(
            store: store, configuration: .init(network: .sandbox(root)))
        let report = await uploader.uploadPending(userToken: token)
        say("uploaded \(report.uploaded)" + (report.error.map { " (\($0))" } ?? ""))
        do {
            try await store.append(
                RegionEvent(transition: .entry, occurredAt: Date(), triggerSubscriptionId: "alice-arrive-trigger-1"))
            say("append: ok")
        } catch {
            say("append: \(error)")
        }
    }
}
