@testable import ConnectCLI
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Bad inputs to the built `ifttt-connect`: each one ends at once with a non-zero status and one message naming the
/// input, never framework internals, and nothing is lost or overwritten. Each case failed before (a hang, exit 0, or
/// a message without the input).
@Suite("ifttt-connect bad inputs", .serialized, .timeLimit(.minutes(3)))
struct CLIBadInputTests {
    typealias CLI = CLISecretInputTests

    /// No message carries these.
    static func expectNoInternals(_ text: String) {
        for word in [
            "NSCocoaErrorDomain", "NSXMLParserErrorDomain", "errno:", "bind(descriptor", "Usage: ifttt-connect <",
        ] {
            #expect(!text.contains(word), "\(text)")
        }
    }

    @Test(
        arguments: [
            (["sandbox", "--port", "-1"], "--port must be between 0 and 65535"),
            (["sandbox", "--latency", "-5"], "--latency must be between 0 and 600000 ms"),
            (["sandbox", "--fail-rate", "-0.5"], "--fail-rate must be between 0 and 1"),
            (["sandbox", "--db", "/nonexistent/dir/x.sqlite"], "the directory /nonexistent/dir does not exist"),
            (["sandbox", "--db", "x.sqlite", "--ephemeral"], "--ephemeral and --db exclude each other"),
            (
                ["sandbox", "--seed-file", "/no/such/seed.json"],
                "--seed-file: cannot read /no/such/seed.json: No such file"
            ),
            (["sandbox", "--seed-file", "/"], "--seed-file: cannot read /: Is a directory"),
            (["sandbox", "--log-format", "xml"], "--log-format must be text or json"),
            (["help", "nope"], "there is no command 'nope'"),
            (["help", "location", "nope"], "there is no command 'nope'"),
            (
                ["button", "render", "--connection", "gx-weekly-deals", "--locale", "klingon"],
                "'klingon' is none of the shipped"
            ),
            (["location", "journal-stress", "--store", "/tmp/x", "--count", "-1"], "--count must be at least 1"),
            (["location", "lifecycle", "--store", "/tmp/x", "--capacity", "-3"], "--capacity must be at least 1"),
            (
                ["connect", "gx-weekly-deals", "--unvouched", "--timeout", "-1"],
                "--timeout must be between 1 and 86400"
            ),
        ] as [([String], String)])
    func usageErrorsNameTheInput(arguments: [String], message: String) async throws {
        let run = try await CLI.run(arguments)
        #expect(run.status == 64, "\(arguments): \(run.errors)")
        #expect(run.errors.contains(message), "\(arguments): \(run.errors)")
        #expect(run.output.isEmpty, "\(arguments): \(run.output)")
    }

    @Test func versionAndKnownHelpTopicsSucceed() async throws {
        let version = try await CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.output == "ifttt-connect \(SDKInfo.version)\n")
        let help = try await CLI.run(["help", "location", "simulate"])
        #expect(help.status == 0, "\(help.errors)")
        #expect(help.output.contains("--gpx"))
    }

    @Test func tokenExchangeChecksItsOutputBeforeAnyNetworkWork() async throws {
        try await SandboxTest.withDemo { client in
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let secrets = ["IFTTT_SERVICE_KEY": SandboxTest.serviceKey, "IFTTT_ACCESS_TOKEN": "gx-access-token-alice"]
            let exchange = ["token", "exchange", "--user-id", "gx-user-1001", "--api", client.base.absoluteString]

            // Nothing to keep the token in: refused, not exchanged and dropped.
            let discarded = try await CLI.run(exchange, environment: secrets)
            #expect(discarded.status == 64)
            #expect(discarded.errors.contains("the user token would be discarded"), "\(discarded.errors)")

            // An existing file is not replaced without --force, and keeps its content and mode.
            let existing = directory.appendingPathComponent("token").path
            #expect(FileManager.default.createFile(atPath: existing, contents: Data("keep\n".utf8)))
            chmod(existing, 0o640)
            let refused = try await CLI.run(exchange + ["--output", existing], environment: secrets)
            #expect(refused.status == 64)
            #expect(refused.errors.contains("--output \(existing) exists; give --force"), "\(refused.errors)")
            #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep\n")
            let forced = try await CLI.run(exchange + ["--output", existing, "--force"], environment: secrets)
            #expect(forced.status == 0, "\(forced.errors)")
            #expect(try String(contentsOfFile: existing, encoding: .utf8) != "keep\n")
            let mode = try FileManager.default.attributesOfItem(atPath: existing)[.posixPermissions] as? Int
            #expect(mode == 0o640)
            #expect(forced.errors.contains("kept its mode 640"), "\(forced.errors)")

            // A place that cannot hold a file: refused before the exchange.
            let impossible = existing + "/inside"
            let unwritable = try await CLI.run(exchange + ["--output", impossible], environment: secrets)
            #expect(unwritable.status == 64)
            #expect(
                unwritable.errors.contains("--output \(impossible): \(existing) is not a directory"),
                "\(unwritable.errors)")
            Self.expectNoInternals(unwritable.errors)
        }
    }

    @Test func connectEndsAtOnceForAnUnknownConnectionAndWhenNobodyOpensTheLaunchURL() async throws {
        try await SandboxTest.withDemo { client in
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let tokenFile = directory.appendingPathComponent("token").path
            let api = [
                "--api", client.base.absoluteString, "--token-file", tokenFile, "--no-browser", "--unvouched",
                "--email",
                "carol@example.com",
            ]
            let start = ContinuousClock.now
            let unknown = try await CLI.run(["connect", "no-such-connection"] + api)
            #expect(unknown.status == 1)
            #expect(unknown.errors.contains("there is no Connection 'no-such-connection'"), "\(unknown.errors)")
            // The 404 is not retried (it took 14 s of retries before).
            #expect(ContinuousClock.now - start < .seconds(10))

            let nobody = try await CLI.run(["connect", "gx-weekly-deals", "--timeout", "2"] + api)
            #expect(nobody.status == 1)
            #expect(nobody.errors.contains("nobody opened the launch URL in time"), "\(nobody.errors)")
            #expect(!FileManager.default.fileExists(atPath: tokenFile))

            // A token file that cannot be written is refused before the flow starts (it was found only after the
            // user had finished, and the token was lost).
            let notADirectory = tokenFile + "/inside"
            #expect(FileManager.default.createFile(atPath: tokenFile, contents: Data("old\n".utf8)))
            let unwritable = try await CLI.run(
                ["connect", "gx-weekly-deals"] + api.prefix(2) + ["--token-file", notADirectory] + api.suffix(4))
            #expect(unwritable.status == 64)
            #expect(
                unwritable.errors.contains("--token-file \(notADirectory): \(tokenFile) is not a directory"),
                "\(unwritable.errors)")
            #expect(!unwritable.output.contains("Open this URL"))
            try FileManager.default.removeItem(atPath: tokenFile)

            // An existing token file is refused before the flow starts.
            #expect(FileManager.default.createFile(atPath: tokenFile, contents: Data("old\n".utf8)))
            let existing = try await CLI.run(["connect", "gx-weekly-deals"] + api)
            #expect(existing.status == 64)
            #expect(existing.errors.contains("--token-file \(tokenFile) exists; give --force"), "\(existing.errors)")
            #expect(!existing.output.contains("Open this URL"))
        }
    }

    @Test func locationSimulateWithNothingToMonitorFails() async throws {
        try await SandboxTest.withDemo { client in
            let run = try await CLI.run(
                [
                    "location", "simulate", "--gpx", LocationTest.storeTripGPX.path, "--connection", "gx-weekly-deals",
                    "--api", client.base.absoluteString,
                ], environment: ["IFTTT_USER_TOKEN": SandboxTest.aliceToken])
            #expect(run.status == 1)
            #expect(run.errors.contains("nothing to monitor"), "\(run.errors)")
        }
        // A GPX file without points: one message naming the file, not the error's code name.
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.gpx")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        let pointless = try await CLI.run(["location", "simulate", "--gpx", empty.path, "--connection", "x"])
        #expect(pointless.status == 1)
        #expect(
            pointless.errors == "error: \(empty.path) is not a GPX route: the GPX document has no points\n",
            "\(pointless.errors)")
        Self.expectNoInternals(pointless.errors)
        let missing = try await CLI.run(["location", "simulate", "--gpx", "/no/such/trip.gpx", "--connection", "x"])
        #expect(missing.status == 1)
        #expect(
            missing.errors.contains("cannot read /no/such/trip.gpx: No such file or directory"), "\(missing.errors)")
        Self.expectNoInternals(missing.errors)
    }

    @Test func aBusyPortIsNamedInOneMessage() async throws {
        try await SandboxTest.withDemo { client in
            let port = try #require(client.base.port)
            let run = try await CLI.run(["sandbox", "--port", "\(port)", "--ephemeral"])
            #expect(run.status == 1)
            #expect(run.errors.contains("127.0.0.1 port \(port) is already in use"), "\(run.errors)")
            #expect(run.errors.components(separatedBy: "error:").count == 2, "\(run.errors)")
            Self.expectNoInternals(run.errors)
        }
    }

    @Test func aMalformedSeedFileIsRefusedWithItsPosition() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seed = directory.appendingPathComponent("seed.json")
        try Data("{\n  \"users\": [\n    {\"id\": \"u\",}\n  ]\n}\n".utf8).write(to: seed)
        let database = directory.appendingPathComponent("new.sqlite").path
        let run = try await CLI.run(["sandbox", "--port", "0", "--db", database, "--seed-file", seed.path])
        #expect(run.status == 1)
        #expect(run.errors.contains("line 3, column 16"), "\(run.errors)")
        #expect(!run.errors.contains("Sandbox database \(database): Sandbox database"))
        #expect(!FileManager.default.fileExists(atPath: database))

        // Valid JSON in the wrong shape: the path, the line and the column of the value, and nothing written.
        try Data("{\n  \"users\": [\n    {\"id\": \"u\", \"email\": 42}\n  ]\n}\n".utf8).write(to: seed)
        let shape = try await CLI.run(["sandbox", "--port", "0", "--db", database, "--seed-file", seed.path])
        #expect(shape.status == 1)
        #expect(
            shape.errors.contains("at users[0].email (line 3, column 26): expected a string"), "\(shape.errors)")
        #expect(shape.errors.components(separatedBy: "error:").count == 2, "\(shape.errors)")
        Self.expectNoInternals(shape.errors)
        #expect(shape.output.isEmpty, "\(shape.output)")
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    /// A --db that is not the sandbox's database: one message with one prefix (it was "Sandbox database X: Sandbox
    /// database X: ..."), naming the path, and the file untouched.
    @Test func aForeignDatabaseFileIsNamedOnce() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("notes.sqlite")
        let text = Data(String(repeating: "not a database, just text. ", count: 8).utf8)
        try text.write(to: file)
        chmod(file.path, 0o600)
        let run = try await CLI.run(["sandbox", "--port", "0", "--db", file.path])
        #expect(run.status == 1)
        #expect(run.errors.contains("Sandbox database \(file.path): it is not a SQLite database"), "\(run.errors)")
        #expect(run.errors.components(separatedBy: "Sandbox database").count == 2, "\(run.errors)")
        Self.expectNoInternals(run.errors)
        #expect(try Data(contentsOf: file) == text)
    }

    @Test func jsonLogsHaveOneObjectPerRequest() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let errors = directory.appendingPathComponent("err")
        #expect(FileManager.default.createFile(atPath: errors.path, contents: nil))
        let child = try ChildProcess(
            executable: try LocationTest.executable(),
            arguments: ["sandbox", "--port", "0", "--ephemeral", "--log-format", "json"], errors: errors)
        let prefix = "IFTTT Connect sandbox listening on "
        let line = await child.nextLine() ?? ""
        let url = try #require(URL(string: String(line.dropFirst(prefix.count))))
        #expect(try await Client(base: url).get("/health").status == 200)
        #expect(try await Client(base: url).get("/v2/connections/nope").status == 404)
        child.terminate()
        #expect(await child.finish().status == 0)
        let lines = try String(contentsOf: errors, encoding: .utf8).split(separator: "\n")
        var requests: [[String: Any]] = []
        for line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            if object["method"] != nil { requests.append(object) }
        }
        #expect(requests.count == 2, "\(lines)")
        #expect(requests.first?["path"] as? String == "/health")
        #expect(requests.first?["status"] as? Int == 200)
        #expect(requests.last?["status"] as? Int == 404)
    }
}
