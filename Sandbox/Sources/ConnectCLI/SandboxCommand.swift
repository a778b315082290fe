import ArgumentParser
import ConnectSandbox
import Foundation

/// `ifttt-connect sandbox`: serves the local IFTTT until interrupted.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run the local IFTTT sandbox (Connect API, web pages, SQLite state) on a loopback port.",
        discussion: """
            Prints the bound URL on start ("IFTTT Connect sandbox listening on URL", the readiness line). State \
            lives in --db and survives restarts; the first start seeds the Grocery Express demo data. With \
            --ephemeral the database is a fresh one in a private temporary folder, removed on exit. POST \
            /sandbox/reset with a service key (or `ifttt-connect reset`) puts the state back to the seed. Stop with \
            Ctrl-C or SIGTERM: the write-ahead log is then checkpointed, so the --db file alone holds the whole \
            database (its -wal and -shm companions are empty or gone).
            """
    )

    @Option(
        help: ArgumentHelp(
            "The address to bind: loopback (a name must resolve to loopback only), or 0.0.0.0 or a LAN address so a "
                + "phone on your network can reach this test server (it warns and prints the URL to type).",
            valueName: "address"))
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port; 0 picks a free one.")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "The SQLite database file; its directory must exist (default: in the user's data directory).",
            valueName: "file"))
    var db: String?

    @Flag(help: "Use a fresh database in a private temporary folder, removed on exit (excludes --db).")
    var ephemeral = false

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp("How to log to standard error: text, or json (one object per line).", valueName: "text|json")
    )
    var logFormat = LogFormat.text.rawValue

    @Option(
        name: .customLong("seed-file"),
        help: ArgumentHelp("Load services, Connections and users from this JSON file.", valueName: "file"))
    var seedFile: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Delay every API response by this many milliseconds.", valueName: "ms"))
    var latency = 0

    @Option(
        name: .customLong("fail-rate"),
        parsing: .unconditional,
        help: ArgumentHelp("Answer this fraction of API requests with 503 (0...1).", valueName: "p"))
    var failRate = 0.0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seed of the fault-injection random generator, for reproducible runs.", valueName: "n"))
    var seed: UInt64?

    @Option(
        name: .customLong("reject-location-events"),
        parsing: .unconditional,
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

    @Flag(
        help: """
            Strict mode: refuse what IFTTT documents nowhere (null optional members, a skip_config other than \
            true/false) and answer the token exchange of an unlinked partner user with 401, as the one real answer \
            on record does (docs/sandbox-differences.md).
            """)
    var strict = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard latency >= 0, latency <= 600_000 else {
            throw ValidationError("--latency must be between 0 and 600000 ms")
        }
        guard failRate >= 0, failRate <= 1 else { throw ValidationError("--fail-rate must be between 0 and 1") }
        guard rejectLocationEvents >= 0, rejectLocationEvents <= 1 else {
            throw ValidationError("--reject-location-events must be between 0 and 1")
        }
        do {
            _ = try SandboxHost.resolve(host)
        } catch {
            if case .invalidConfiguration(_, let message) = error { throw ValidationError("--host: \(message)") }
            throw ValidationError("--host: \(error)")
        }
        guard RedirectStateMode(rawValue: redirectState) != nil else {
            throw ValidationError("--redirect-state must be echo or ignore")
        }
        if let seedFile {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: seedFile, isDirectory: &isDirectory)
            if !exists || isDirectory.boolValue || !FileManager.default.isReadableFile(atPath: seedFile) {
                throw ValidationError("--seed-file: cannot read \(seedFile): \(FileProblem.reading(seedFile))")
            }
        }
        guard LogFormat(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be text or json, got '\(logFormat)'")
        }
        if ephemeral, db != nil { throw ValidationError("--ephemeral and --db exclude each other") }
        if let db {
            guard !db.isEmpty else { throw ValidationError("--db must not be empty") }
            let directory = URL(fileURLWithPath: db).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError("--db \(db): the directory \(directory) does not exist (create it first)")
            }
        }
    }

    func run() async throws {
        var configuration = SandboxConfiguration(
            host: host, port: port, databasePath: db, seedFile: seedFile.map { URL(fileURLWithPath: $0) },
            latency: latency, failRate: failRate, randomSeed: seed,
            redirectState: RedirectStateMode(rawValue: redirectState) ?? .ignore)
        configuration.rejectLocationEvents = rejectLocationEvents
        configuration.strict = strict
        configuration.ephemeral = ephemeral
        configuration.logger = SandboxLog.logger(format: LogFormat(rawValue: logFormat) ?? .text)
        let listening = try? SandboxHost.resolve(host)
        do {
            try await SandboxServer.run(configuration) { url in
                FileHandle.standardOutput.write(Data("IFTTT Connect sandbox listening on \(url.absoluteString)\n".utf8))
                if let warning = listening?.networkWarning(port: url.port ?? port) { warn(warning) }
            }
        } catch {
            warn("error: \(error)")
            throw ExitCode(1)
        }
    }
}
