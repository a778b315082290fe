import ArgumentParser
import ConnectSandbox
import Foundation

/// `ifttt-connect sandbox`: serves the local IFTTT until interrupted.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run the local IFTTT sandbox (Connect API, web pages, SQLite state) on a loopback port.",
        discussion: """
            Prints the bound URL on start. State lives in --db and survives restarts; the first start seeds the \
            Grocery Express demo data. Stop with Ctrl-C.
            """
    )

    @Option(help: "The loopback address to bind.")
    var host = "127.0.0.1"

    @Option(help: "The port; 0 picks a free one.")
    var port = 8080

    @Option(help: ArgumentHelp("The SQLite database file (default: in the user's data directory).", valueName: "file"))
    var db: String?

    @Option(
        name: .customLong("seed-file"),
        help: ArgumentHelp("Load services, Connections and users from this JSON file.", valueName: "file"))
    var seedFile: String?

    @Option(help: ArgumentHelp("Delay every API response by this many milliseconds.", valueName: "ms"))
    var latency = 0

    @Option(
        name: .customLong("fail-rate"),
        help: ArgumentHelp("Answer this fraction of API requests with 503 (0...1).", valueName: "p"))
    var failRate = 0.0

    @Option(help: ArgumentHelp("Seed of the fault-injection random generator, for reproducible runs.", valueName: "n"))
    var seed: UInt64?

    @Option(
        name: .customLong("reject-location-events"),
        help: ArgumentHelp(
            "Refuse this fraction of location events with 422 naming their record ids (0...1; reproducible with --seed).",
            valueName: "p"))
    var rejectLocationEvents = 0.0

    @Option(
        name: .customLong("redirect-state"),
        help: ArgumentHelp(
            """
            What the activation pages do with the SDK's state parameter in the redirect back to the app: \
            'ignore' (default) sends none, as IFTTT's own SDKs suggest the real IFTTT does; 'echo' sends it back.
            """, valueName: "echo|ignore"))
    var redirectState = RedirectStateMode.ignore.rawValue

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard latency >= 0, latency <= 600_000 else {
            throw ValidationError("--latency must be between 0 and 600000 ms")
        }
        guard failRate >= 0, failRate <= 1 else { throw ValidationError("--fail-rate must be between 0 and 1") }
        guard rejectLocationEvents >= 0, rejectLocationEvents <= 1 else {
            throw ValidationError("--reject-location-events must be between 0 and 1")
        }
        guard ["127.0.0.1", "localhost", "::1"].contains(host) || host.hasPrefix("127.") else {
            throw ValidationError("--host must be a loopback address (127.0.0.0/8, localhost or ::1)")
        }
        guard RedirectStateMode(rawValue: redirectState) != nil else {
            throw ValidationError("--redirect-state must be echo or ignore")
        }
        if let seedFile, !FileManager.default.isReadableFile(atPath: seedFile) {
            throw ValidationError("--seed-file: cannot read \(seedFile)")
        }
    }

    func run() async throws {
        var configuration = SandboxConfiguration(
            host: host, port: port, databasePath: db, seedFile: seedFile.map { URL(fileURLWithPath: $0) },
            latency: latency, failRate: failRate, randomSeed: seed,
            redirectState: RedirectStateMode(rawValue: redirectState) ?? .ignore)
        configuration.rejectLocationEvents = rejectLocationEvents
        do {
            try await SandboxServer.run(configuration)
        } catch {
            warn("error: \(error)")
            throw ExitCode(1)
        }
    }
}
