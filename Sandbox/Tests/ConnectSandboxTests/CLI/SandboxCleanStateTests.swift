@testable import ConnectSandbox
import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Clean state per run: an ephemeral database that leaves nothing behind, a reset back to the seed, and a database
/// file that holds everything once the sandbox stopped on SIGINT or SIGTERM. Each against the real binary or a real
/// server over loopback.
@Suite("Sandbox clean state: ephemeral, reset, checkpoint on exit", .serialized)
struct SandboxCleanStateTests {
    static let oneEvent = JSONValue.array([LocationEventTests.event()]).serializedData()

    /// How many location events alice has on the sandbox at `base`.
    static func aliceEvents(_ base: URL) async throws -> Int {
        let list = try await Client(base: base).get("/v1/location_events", token: SandboxTest.aliceToken)
        #expect(list.status == 200)
        return try list.json["data"]?.arrayValue?.count ?? -1
    }

    /// Starts `ifttt-connect sandbox --port 0 arguments` and returns it with its URL (from the readiness line).
    static func startSandbox(_ arguments: [String], environment: [String: String]? = nil) async throws
        -> (ChildProcess, URL)
    {
        let child = try ChildProcess(
            executable: try LocationTest.executable(), arguments: ["sandbox", "--port", "0"] + arguments,
            environment: environment)
        let prefix = "IFTTT Connect sandbox listening on "
        var url: URL?
        while let line = await child.nextLine() {
            if line.hasPrefix(prefix) {
                url = URL(string: String(line.dropFirst(prefix.count)))
                break
            }
        }
        return (child, try #require(url, "no readiness line: \(child.lines)"))
    }

    @Test func resetPutsEveryTableBackToTheSeedAndNeedsAServiceKey() async throws {
        try await SandboxTest.withDemo { client in
            let posted = try await client.post(
                "/v1/location_events", token: SandboxTest.aliceToken, body: Self.oneEvent)
            #expect(posted.status == 200)
            #expect(try await Self.aliceEvents(client.base) == 1)

            let anonymous = try await client.post("/sandbox/reset")
            #expect(anonymous.status == 401)
            let asUser = try await client.post("/sandbox/reset", token: SandboxTest.aliceToken)
            #expect(asUser.status == 401)
            let wrongKey = try await client.post("/sandbox/reset", serviceKey: "not-a-key")
            #expect(wrongKey.status == 401)
            #expect(try await Self.aliceEvents(client.base) == 1)

            let reset = try await client.post("/sandbox/reset", serviceKey: SandboxTest.serviceKey)
            #expect(reset.status == 200)
            #expect(try reset.json["type"] == "sandbox_reset")
            let elapsed = try #require(try reset.json["elapsed_ms"]?.doubleValue)
            #expect(elapsed >= 0)
            #expect(try await Self.aliceEvents(client.base) == 0)
            // The seed is back whole: the demo users' tokens and the service key still work.
            #expect(try await client.get("/v2/me", token: SandboxTest.bobToken).status == 200)
            #expect(try await client.post("/sandbox/reset", serviceKey: SandboxTest.serviceKey).status == 200)
        }
    }

    @Test func theResetCommandResetsARunningSandbox() async throws {
        try await SandboxTest.withDemo { client in
            #expect(
                try await client.post("/v1/location_events", token: SandboxTest.aliceToken, body: Self.oneEvent).status
                    == 200)
            let api = ["--api", client.base.absoluteString]
            let refused = try await CLISecretInputTests.run(["reset"] + api, environment: ["IFTTT_SERVICE_KEY": "nope"])
            #expect(refused.status == 1)
            #expect(refused.errors.contains("refused the reset (401)"), "\(refused.errors)")
            #expect(try await Self.aliceEvents(client.base) == 1)
            let done = try await CLISecretInputTests.run(
                ["reset"] + api, environment: ["IFTTT_SERVICE_KEY": SandboxTest.serviceKey])
            #expect(done.status == 0, "\(done.errors)")
            #expect(done.output.contains("reset to its seed in"), "\(done.output)")
            #expect(try await Self.aliceEvents(client.base) == 0)
        }
    }

    /// Before: after Ctrl-C the `.sqlite` file was often 4,096 bytes with every row in `-wal`, so a CI cache that
    /// kept the file kept an empty database. Now the log is checkpointed on SIGINT and SIGTERM.
    @Test(arguments: [SIGINT, SIGTERM])
    func theDatabaseFileAloneHoldsEverythingAfterASignal(signal: Int32) async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("sandbox.sqlite")
        let (child, url) = try await Self.startSandbox(["--db", database.path])
        for _ in 0..<3 {
            let body = JSONValue.array([LocationEventTests.event()]).serializedData()
            #expect(
                try await Client(base: url).post("/v1/location_events", token: SandboxTest.aliceToken, body: body)
                    .status == 200)
        }
        child.send(signal)
        #expect(await child.finish().status == 0)
        // Only the file itself, as a cache would keep it.
        let copy = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: database, to: copy.appendingPathComponent("sandbox.sqlite"))
        let queue = try DatabaseQueue(path: copy.appendingPathComponent("sandbox.sqlite").path)
        let events = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM location_events") }
        #expect(events == 3)
        let walSize = (try? FileManager.default.attributesOfItem(atPath: database.path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)
    }

    @Test func anEphemeralSandboxLeavesNothingBehind() async throws {
        let temporary = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temporary) }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        let (child, url) = try await Self.startSandbox(["--ephemeral"], environment: environment)
        let folders = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(folders.count == 1 && folders.first?.hasPrefix("ifttt-connect-") == true, "\(folders)")
        var status = stat()
        #expect(stat(temporary.appendingPathComponent(folders.first ?? "").path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(try await Self.aliceEvents(url) == 0)
        child.send(SIGTERM)
        #expect(await child.finish().status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    /// Before: every command without --api shared `~/.local/share/ifttt-connect/sandbox.sqlite`, so state leaked from
    /// one run into the next. Now an embedded sandbox is ephemeral.
    @Test func commandsWithAnEmbeddedSandboxShareNoStateAndLeaveNothing() async throws {
        let home = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let temporary = home.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let environment = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path, "TMPDIR": temporary.path,
        ]
        for _ in 0..<2 {
            let run = try await CLISecretInputTests.run(
                [
                    "connection", "show", "gx-weekly-deals", "--token-file",
                    try CLISecretInputTests.secretFile(SandboxTest.aliceToken),
                ],
                environment: environment)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.errors.contains("fresh demo database"), "\(run.errors)")
        }
        // The default database of earlier versions was never made (the SDK's own files may live in the data folder).
        #expect(
            !FileManager.default.fileExists(
                atPath: home.appendingPathComponent("data/ifttt-connect/sandbox.sqlite").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    @Test func aBadSeedFileWritesNothing() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seed = directory.appendingPathComponent("seed.json")
        // Well-formed, but it names a service nobody has: found while loading, after the demo seed would have gone in.
        try Data(#"{"user_connections": [{"user_id": "nobody", "connection_id": "gx-weekly-deals"}]}"#.utf8).write(
            to: seed)
        let database = directory.appendingPathComponent("new.sqlite")
        var configuration = SandboxTest.configuration(databasePath: database.path, seedFile: seed)
        configuration.port = 0
        await #expect(throws: SandboxError.self) {
            try await SandboxServer.withRunning(configuration) { _ in }
        }
        #expect(!FileManager.default.fileExists(atPath: database.path))

        // Not valid JSON: the message says where.
        try Data("{\n  \"users\": [\n    {\"id\": \"u\",}\n  ]\n}\n".utf8).write(to: seed)
        do {
            try await SandboxServer.withRunning(configuration) { _ in }
            Issue.record("a malformed seed file was accepted")
        } catch {
            #expect("\(error)".contains("line 3, column 16"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: database.path))
    }

    /// Before: listening on every interface, the partner backend's `user_token` called the sandbox at its LAN
    /// address over plain HTTP, which the service client refuses, and answered 502. It calls itself over loopback now.
    @Test func thePartnerBackendVouchesForATokenWhenListeningOnEveryInterface() async throws {
        var configuration = SandboxTest.configuration()
        configuration.host = "0.0.0.0"
        try await SandboxServer.withRunning(configuration) { url in
            let port = try #require(url.port)
            let loopback = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let answer = try await Client(base: loopback).post(
                "/partner/grocery_express/api/user_token", token: "gx-access-token-alice")
            #expect(answer.status == 200, "\(String(decoding: answer.data, as: UTF8.self))")
            #expect(try answer.json["user_token"]?.stringValue?.isEmpty == false)
        }
    }
}
