import ArgumentParser
@testable import ConnectCLI
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

/// Secrets reach `ifttt-connect` without a command line: an environment variable or a file works quietly, and the
/// former secret flags are usage errors (a process's arguments are readable by every local user). And `connect`
/// opens the browser on the loopback receiver's launch URL, never on the activation URL with its `state` and code.
@Suite("ifttt-connect secrets off the command line")
struct CLISecretInputTests {
    /// What a run of the built binary printed.
    struct Run: Sendable {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `ifttt-connect arguments` with `environment` added to a copy of ours without any `IFTTT_` variable.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        let executable = try LocationTest.executable()
        return try await offCooperativePool {
            let process = TestProcess()
            process.executableURL = executable
            process.arguments = arguments
            var base = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("IFTTT_") }
            base.merge(environment) { $1 }
            process.environment = base
            // Files, not pipes: nothing to drain while the process runs.
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let (output, errors) = (directory.appendingPathComponent("out"), directory.appendingPathComponent("err"))
            for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus,
                output: try String(contentsOf: output, encoding: .utf8),
                errors: try String(contentsOf: errors, encoding: .utf8))
        }
    }

    /// A file holding `secret`, mode 0600, in a fresh directory.
    static func secretFile(_ secret: String, mode: Int = 0o600) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("secret").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data((secret + "\n").utf8)))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func tokenExchangeTakesItsSecretsFromFilesAndTheEnvironmentWithoutAWord() async throws {
        try await SandboxTest.withDemo { client in
            let api = ["--api", client.base.absoluteString]
            let keyFile = try Self.secretFile(SandboxTest.serviceKey)
            let tokenFile = try Self.secretFile("gx-access-token-alice")
            let output = URL(fileURLWithPath: keyFile).deletingLastPathComponent().appendingPathComponent("token").path
            let fromFiles = try await Self.run(
                [
                    "token", "exchange", "--user-id", "gx-user-1001", "--service-key-file", keyFile,
                    "--access-token-file", tokenFile, "--output", output,
                ] + api)
            #expect(fromFiles.status == 0, "\(fromFiles.errors)")
            #expect(!fromFiles.errors.contains("warning"), "\(fromFiles.errors)")
            let token = try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(in: .newlines)
            #expect(!token.isEmpty && !fromFiles.output.contains(token))

            let fromEnvironment = try await Self.run(
                ["token", "exchange", "--user-id", "gx-user-1001", "--show-token"] + api,
                environment: [
                    "IFTTT_SERVICE_KEY": SandboxTest.serviceKey, "IFTTT_ACCESS_TOKEN": "gx-access-token-alice",
                ])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.errors)")
            #expect(fromEnvironment.output.contains("user token obtained for gx-user-1001"))
            #expect(!fromEnvironment.errors.contains("warning"), "\(fromEnvironment.errors)")
        }
    }

    /// Issue 30, hole 2: every secret flag worked (with a warning), so another local user read the code or the
    /// partner session from `/proc/PID/cmdline` and used it first. Failed before the fix (exit 0, the token
    /// exchanged). Now each flag stops the command before it does anything, with a usage error (exit 64) naming the
    /// environment variable and the file flag, never the secret.
    @Test func everySecretFlagIsAUsageErrorNamingTheSafeWays() async throws {
        try await SandboxTest.withDemo { client in
            let api = ["--api", client.base.absoluteString]
            let output = try SandboxTest.temporaryDirectory().appendingPathComponent("token").path
            let exchange = try await Self.run(
                [
                    "token", "exchange", "--user-id", "gx-user-1001", "--service-key", SandboxTest.serviceKey,
                    "--access-token", "gx-access-token-alice", "--output", output,
                ] + api)
            #expect(exchange.status == 64, "\(exchange.errors)")
            #expect(exchange.errors.contains("--service-key is not accepted"), "\(exchange.errors)")
            #expect(exchange.errors.contains("IFTTT_SERVICE_KEY") && exchange.errors.contains("--service-key-file"))
            #expect(!FileManager.default.fileExists(atPath: output))
            // The error names the flag, never the secret.
            #expect(!exchange.errors.contains(SandboxTest.serviceKey) && !exchange.errors.contains("gx-access-token"))

            let cases: [([String], SecretInput)] = [
                (["connection", "show", "gx-arrive-store", "--token", SandboxTest.aliceToken], .userToken),
                (["applets", "list", "--service", "grocery_express", "--token", SandboxTest.aliceToken], .userToken),
                (["connect", "gx-arrive-store", "--code", "gx-oauth-code-alice", "--unvouched"], .oauthCode),
                (["connect", "gx-arrive-store", "--partner-session", "gx-access-token-alice"], .partnerSession),
                (
                    ["token", "exchange", "--user-id", "u", "--service-key-file", "/dev/null", "--access-token", "a"],
                    .accessToken
                ),
            ]
            for (arguments, input) in cases {
                let run = try await Self.run(arguments + api)
                #expect(run.status == 64, "\(arguments): \(run.errors)")
                #expect(run.errors.contains(input.removedFlagMessage), "\(arguments): \(run.errors)")
            }
            let quiet = try await Self.run(
                ["connection", "show", "gx-arrive-store", "--token-file", try Self.secretFile(SandboxTest.aliceToken)]
                    + api)
            #expect(quiet.status == 0 && quiet.output.contains("gx-arrive-store"), "\(quiet.output)")
            #expect(!quiet.errors.contains("warning"), "\(quiet.errors)")
            // No help text offers a secret flag any more.
            for command in [["connect"], ["token", "exchange"], ["connection", "show"], ["applets", "list"]] {
                let help = try await Self.run(["help"] + command)
                for input in SecretInput.all {
                    #expect(!help.output.contains("\(input.flag) <"), "\(command): \(input.flag)")
                }
            }
        }
    }

    @Test func theFileFormReadsTheFirstLineAndWarnsAboutAFileOthersCanRead() throws {
        var warnings: [String] = []
        let source = SecretInput.serviceKey
        let file = try Self.secretFile("  the-key  \nsecond line")
        #expect(
            try source.resolve(file: file, environment: [:], warning: { warnings.append($0) }) == "the-key")
        #expect(warnings.isEmpty)
        let open = try Self.secretFile("the-key", mode: 0o644)
        #expect(
            try source.resolve(file: open, environment: [:], warning: { warnings.append($0) }) == "the-key")
        #expect(warnings == ["warning: \(open) can be read by other users (mode 644); chmod 600 it"])
        let piped = try source.resolve(
            file: "-", environment: [:], readInput: { Data("from-stdin\n".utf8) }, warning: { _ in })
        #expect(piped == "from-stdin")
        #expect(try source.resolve(file: nil, environment: ["IFTTT_SERVICE_KEY": "env-key"]) == "env-key")
        #expect(try source.resolve(file: nil, environment: ["IFTTT_SERVICE_KEY": ""]) == nil)
        // The file wins over the variable.
        #expect(try source.resolve(file: file, environment: ["IFTTT_SERVICE_KEY": "env-key"]) == "the-key")
    }

    @Test func badSecretInputIsAClearUsageError() throws {
        let source = SecretInput.accessToken
        let missing = "/no/such/dir/token"
        #expect(throws: ValidationError.self) { try source.resolve(file: missing, environment: [:]) }
        do {
            _ = try source.resolve(file: missing, environment: [:])
        } catch let error as ValidationError {
            #expect(error.message.hasPrefix("cannot read --access-token-file \(missing)"))
        }
        let empty = try Self.secretFile("")
        #expect(throws: ValidationError.self) { try source.resolve(file: empty, environment: [:]) }
        for arguments in [
            ["token", "exchange", "--user-id", "u", "--service-key", "k", "--access-token-file", "t"],
            ["token", "exchange", "--user-id", "u", "--service-key-file", "k", "--access-token", "a"],
            ["connection", "show", "x", "--token", "t"],
            ["applets", "list", "--service", "s", "--token", "t", "--token-file", "f"],
            ["applets", "enable", "x", "--service", "s", "--token", "t"],
            ["connect", "c", "--code", "c", "--code-file", "f"],
            ["connect", "c", "--partner-session", "s"],
            ["connect", "c", "--user-id", "u", "--service-key", "k", "--access-token-file", "f"],
            ["location", "simulate", "--gpx", "g", "--connection", "c", "--token", "t"],
            ["location", "journal-stress", "--store", "s", "--token", "t"],
        ] {
            do {
                let command = try IFTTTConnectCommand.parseAsRoot(arguments)
                Issue.record("parsed \(arguments) as \(type(of: command))")
            } catch {
                #expect(IFTTTConnectCommand.exitCode(for: error) == .validationFailure, "\(arguments)")
                #expect(IFTTTConnectCommand.message(for: error).contains("is not accepted"), "\(arguments)")
            }
        }
    }

    @Test func theConnectCommandOpensOnlyASecretFreeLaunchURL() async throws {
        try await SandboxTest.withDemo { client in
            let request = ConnectCommand.Request(
                connectionId: "gx-store-visits", email: "alice@example.com", oauthCode: "gx-oauth-code-alice",
                voucher: .partnerSession("gx-access-token-alice", endpoint: nil), skipConfiguration: true,
                opensBrowser: false)
            let opener = await RecordingDriver(FormDrivingOpener(password: "alice-password"))
            let result = await ConnectCommand.activate(request, root: client.base, opener: opener)
            #expect(try result.get().userToken != nil)
            let opened = await opener.opened
            #expect(opened.count == 1)
            let launch = try #require(opened.first)
            #expect(launch.query == nil && launch.path.hasPrefix("/ifttt-launch/"), "\(launch)")
            for secret in ["state", "gx-oauth-code-alice", "alice", "access/api", "gx-access-token"] {
                #expect(!launch.absoluteString.contains(secret), "\(launch)")
            }
        }
    }

    @Test func tokenExchangeNeedsBothSecretsInSomeForm() throws {
        let parsed = try IFTTTConnectCommand.parseAsRoot(
            [
                "token", "exchange", "--user-id", "u", "--service-key-file", "k", "--access-token-file", "t",
                "--show-token",
            ])
        let exchange = try #require(parsed as? TokenCommand.Exchange)
        try exchange.validate(environment: [:])
        var bare = exchange
        bare.serviceKeyFile = nil
        #expect(throws: ValidationError.self) { try bare.validate(environment: [:]) }
        try bare.validate(environment: ["IFTTT_SERVICE_KEY": "k"])
        bare.accessTokenFile = nil
        #expect(throws: ValidationError.self) { try bare.validate(environment: ["IFTTT_SERVICE_KEY": "k"]) }
    }
}

/// Records the URLs the SDK opens, then lets `driver` play the browser with them.
@MainActor
final class RecordingDriver: URLOpener {
    let driver: any URLOpener
    private(set) var opened: [URL] = []

    init(_ driver: any URLOpener) {
        self.driver = driver
    }

    func canOpen(_ url: URL) -> Bool { false }

    func open(_ url: URL) async -> Bool {
        opened.append(url)
        return await driver.open(url)
    }
}
