import ArgumentParser
@testable import ConnectCLI
import ConnectSandbox
import Foundation
import Testing

@Suite("ifttt-connect applets")
struct CLIAppletTests {
    @Test(arguments: [
        ["applets", "list"],
        ["applets", "list", "--service", "grocery_express", "--order", "name"],
        ["applets", "list", "--service", "grocery_express", "--platform", "windows"],
        ["applets", "enable", "--service", "grocery_express"],
        ["applets", "disable", "x"],
        ["applets", "list", "--service", "s", "--api", "ftp://example.com"],
    ])
    func badFlagsAreUsageErrors(arguments: [String]) {
        do {
            let command = try IFTTTConnectCommand.parseAsRoot(arguments)
            Issue.record("parsed \(arguments) as \(type(of: command))")
        } catch {
            #expect(IFTTTConnectCommand.exitCode(for: error) == .validationFailure, "\(arguments)")
        }
    }

    @Test func listEnableAndDisableAgainstASandbox() async throws {
        try await LegacyFixture.withSandbox { url in
            let api = ["--api", url.absoluteString, "--service", "grocery_express"]
            let alice = try CLISecretInputTests.secretFile(SandboxTest.aliceToken)
            let carol = try CLISecretInputTests.secretFile(SandboxTest.carolToken)
            for arguments in [
                ["applets", "list"] + api,
                [
                    "applets", "list", "--order", "enabled_count_desc", "--platform", "android", "--token-file",
                    alice,
                ] + api,
                ["applets", "list", "--platform", "none"] + api,
                ["applets", "disable", "gx-weekly-deals", "--token-file", alice] + api,
            ] {
                var command = try #require(try IFTTTConnectCommand.parseAsRoot(arguments) as? any AsyncParsableCommand)
                try await command.run()
            }
            let manager = LegacyFixture.manager(url, token: SandboxTest.aliceToken)
            #expect(try await manager.fetchApplet(id: "gx-weekly-deals").status == .disabled)
            var enable = try #require(
                try IFTTTConnectCommand.parseAsRoot(
                    ["applets", "enable", "gx-weekly-deals", "--token-file", alice] + api)
                    as? any AsyncParsableCommand)
            try await enable.run()
            #expect(try await manager.fetchApplet(id: "gx-weekly-deals").status == .enabled)

            // A never-enabled Applet: exit code 1.
            var carolEnable = try #require(
                try IFTTTConnectCommand.parseAsRoot(
                    ["applets", "enable", "gx-weekly-deals", "--token-file", carol] + api)
                    as? any AsyncParsableCommand)
            await #expect(throws: ExitCode(1)) { try await carolEnable.run() }

            let applet = try await manager.fetchApplet(id: "gx-arrive-store")
            #expect(
                AppletsCommand.line(applet)
                    == "gx-arrive-store  enabled  2 enabled  published 2025-01-15  \"\(applet.name)\"")
        }
    }
}
