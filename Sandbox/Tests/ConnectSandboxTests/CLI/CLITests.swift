import ArgumentParser
@testable import ConnectCLI
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

@Suite("ifttt-connect command line")
struct CLITests {
    static var fixtures: URL { SandboxTest.repository("Tests/Fixtures") }

    @Test(arguments: [
        ["sandbox", "--port", "99999"],
        ["sandbox", "--port", "abc"],
        ["sandbox", "--fail-rate", "1.5"],
        ["sandbox", "--latency", "-1"],
        ["sandbox", "--host", "127.evil.example"],
        ["sandbox", "--host", "192.0.2.1"],
        ["sandbox", "--seed-file", "/no/such/file.json"],
        ["sandbox", "--seed", "-3"],
        ["sandbox", "--unknown-flag"],
        ["inspect"],
        ["connection", "show"],
        ["connection", "show", "x", "--api", "ftp://example.com"],
        ["connection", "show", "x", "--api", "not a url"],
        ["token", "exchange", "--user-id", "u"],
        ["no-such-command"],
    ])
    func badFlagsAreUsageErrors(arguments: [String]) {
        do {
            let command = try IFTTTConnectCommand.parseAsRoot(arguments)
            Issue.record("parsed \(arguments) as \(type(of: command))")
        } catch {
            let code = IFTTTConnectCommand.exitCode(for: error)
            #expect(code == .validationFailure, "\(arguments) gave exit code \(code.rawValue)")
            #expect(!IFTTTConnectCommand.message(for: error).isEmpty)
        }
    }

    @Test func tokenExchangeNeedsAServiceKey() {
        #expect(throws: (any Error).self) {
            _ = try IFTTTConnectCommand.parseAsRoot(["token", "exchange", "--user-id", "u", "--access-token-file", "a"])
                .validateForTest(environmentKey: nil)
        }
    }

    @Test func inspectSummarizesEveryFixture() throws {
        let ios = try InspectCommand.summary(
            of: Data(contentsOf: Self.fixtures.appendingPathComponent("ios_fetch_connection_response.json")))
        #expect(ios["kind"] == .string("connection"))
        #expect(ios["status"] == .string("enabled"))
        #expect(ios["primary_service"] == .string("twitch"))
        #expect(ios["connecting_service"] == .string("youtube"))
        guard case .array(let regions)? = ios["location_regions"], let region = regions.first else {
            Issue.record("no regions")
            return
        }
        #expect(region["identifier"] == .string("ifttt_somecoolidentifier"))
        #expect(region["lat"] == .number(12.4567892))
        #expect(region["transitions"] == .array([.string("enter"), .string("exit")]))

        let android = try InspectCommand.summary(
            of: Data(contentsOf: Self.fixtures.appendingPathComponent("android_connection.json")))
        #expect(android["status"] == .string("unknown"))
        guard case .array(let androidRegions)? = android["location_regions"] else {
            Issue.record("no regions")
            return
        }
        #expect(androidRegions.first?["identifier"] == .string("ifttt_666"))
        #expect(androidRegions.first?["radius"] == .number(316.2010756871335))

        let applet = try InspectCommand.summary(
            of: Data(contentsOf: Self.fixtures.appendingPathComponent("android_legacy_applet_2018.json")))
        #expect(applet["kind"] == .string("applet"))
        #expect(applet["primary_service"] == .string("instagram"))
    }

    @Test func inspectRejectsBadInputWithThePath() throws {
        let bad = Data(
            #"{"type":"connection","id":"c","name":"N","url":"https://x.y","services":[{"service_id":"a","service_name":"A"}]}"#
                .utf8)
        #expect(throws: ConnectDecodingError(path: "$.services", reason: .noPrimaryService)) {
            try InspectCommand.summary(of: bad)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json")
        try bad.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var command = try #require(try IFTTTConnectCommand.parseAsRoot(["inspect", file.path]) as? InspectCommand)
        #expect(throws: ExitCode(1)) { try command.run() }
        command = try #require(
            try IFTTTConnectCommand.parseAsRoot(["inspect", "/no/such/file.json"]) as? InspectCommand)
        #expect(throws: ExitCode(1)) { try command.run() }
    }

    @Test func theDemoScriptPasses() async throws {
        let failures = try await SandboxServer.withRunning(
            SandboxConfiguration(port: 0, databasePath: temporaryDatabasePath())
        ) { url in
            await DemoScript(root: url).run()
        }
        #expect(failures == 0)
    }
}

extension ParsableCommand {
    /// Runs validation the way `main()` would, with `environmentKey` as the only `IFTTT_SERVICE_KEY`.
    func validateForTest(environmentKey: String?) throws {
        if let exchange = self as? TokenCommand.Exchange {
            try exchange.validate(environment: environmentKey.map { ["IFTTT_SERVICE_KEY": $0] } ?? [:])
        } else {
            var copy = self
            try copy.validate()
        }
    }
}
