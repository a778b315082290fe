import ArgumentParser
@testable import ConnectCLI
import Foundation
import Testing

/// `ifttt-connect --help` and every subcommand's `--help`, as the built binary prints them at 80 columns,
/// compared with the references in `__Snapshots__/CLIHelp/`. The command tree is walked from
/// `IFTTTConnectCommand`, so a new subcommand fails here until its reference is recorded.
///
/// Re-record every reference after a deliberate change to a command's help (then review the diff):
///
///     RECORD_CLI_HELP=1 swift test --package-path Sandbox --filter CLIHelpSnapshotTests
@Suite("ifttt-connect help snapshots")
struct CLIHelpSnapshotTests {
    static let recording = ProcessInfo.processInfo.environment["RECORD_CLI_HELP"] == "1"

    static var references: URL {
        SandboxTest.repository("Sandbox/Tests/ConnectSandboxTests/__Snapshots__/CLIHelp")
    }

    /// Every command path below the root, depth first, e.g. `[]`, `["sandbox"]`, `["location", "simulate"]`.
    static func commandPaths(
        _ command: any ParsableCommand.Type = IFTTTConnectCommand.self,
        prefix: [String] = []
    ) -> [[String]] {
        [prefix]
            + command.configuration.subcommands.flatMap { sub in
                commandPaths(sub, prefix: prefix + [sub._commandName])
            }
    }

    static func referenceName(_ path: [String]) -> String {
        (["ifttt-connect"] + path).joined(separator: "-") + ".txt"
    }

    /// What `ifttt-connect <path> --help` prints, with the user's home directory written as `~`.
    static func help(_ path: [String]) throws -> String {
        let process = TestProcess()
        process.executableURL = try LocationTest.executable()
        process.arguments = path + ["--help"]
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0,
            "ifttt-connect \(path.joined(separator: " ")) --help exited \(process.terminationStatus)")
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: home, with: "~")
    }

    @Test func everyCommandsHelpMatchesItsReference() async throws {
        let paths = Self.commandPaths()
        #expect(paths.count > 10)
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.references, withIntermediateDirectories: true)
        }
        for path in paths {
            let text = try await offCooperativePool { try Self.help(path) }
            let file = Self.references.appendingPathComponent(Self.referenceName(path))
            if Self.recording {
                try text.write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            guard let reference = try? String(contentsOf: file, encoding: .utf8) else {
                Issue.record(
                    "no reference \(file.lastPathComponent): record it with RECORD_CLI_HELP=1 (see this suite)")
                continue
            }
            #expect(
                text == reference,
                "ifttt-connect \(path.joined(separator: " ")) --help differs from \(file.lastPathComponent)")
        }
    }

    @Test func everyReferenceBelongsToACommand() throws {
        let expected = Set(Self.commandPaths().map(Self.referenceName))
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: Self.references.path))
        if Self.recording {
            for stale in present.subtracting(expected) {
                try FileManager.default.removeItem(at: Self.references.appendingPathComponent(stale))
            }
            return
        }
        #expect(present.subtracting(expected).isEmpty, "references of commands that no longer exist")
    }
}
