import ArgumentParser
@testable import ConnectCLI
import Foundation
import Testing

/// `ifttt-connect --help` and every subcommand's `--help` at 80 columns, rendered in process by swift-argument-parser
/// (`helpMessage(for:columns:)`, the text the binary prints), compared with the references in `__Snapshots__/CLIHelp/`.
/// The command tree is walked from `IFTTTConnectCommand`, so a new subcommand fails here until its reference is
/// recorded.
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

    /// Every command below the root with its path, depth first, e.g. `[]`, `["sandbox"]`, `["location", "simulate"]`.
    static func commands(
        _ command: any ParsableCommand.Type = IFTTTConnectCommand.self,
        prefix: [String] = []
    ) -> [(path: [String], command: any ParsableCommand.Type)] {
        [(prefix, command)]
            + command.configuration.subcommands.flatMap { sub in
                commands(sub, prefix: prefix + [sub._commandName])
            }
    }

    /// Every command path below the root.
    static func commandPaths() -> [[String]] { commands().map(\.path) }

    static func referenceName(_ path: [String]) -> String {
        (["ifttt-connect"] + path).joined(separator: "-") + ".txt"
    }

    /// What `ifttt-connect <path> --help` prints at 80 columns (the help text and its newline). No help text holds a
    /// path of this machine (defaults that depend on `$HOME` are described, not expanded), so it is the same for every
    /// `$HOME` and account.
    static func help(_ command: any ParsableCommand.Type) -> String {
        IFTTTConnectCommand.helpMessage(for: command, columns: 80) + "\n"
    }

    /// The help never expands the home directory: whatever `$HOME` is, the text is the same.
    @Test func noHelpShowsTheHomeDirectory() {
        let homes = [
            ProcessInfo.processInfo.environment["HOME"], NSHomeDirectory(),
            FileManager.default.homeDirectoryForCurrentUser.path,
        ].compactMap { $0 }.filter { $0.count > 1 }
        for (path, command) in Self.commands() {
            let text = Self.help(command)
            for home in homes {
                #expect(!text.contains(home), "ifttt-connect \(path.joined(separator: " ")) --help shows \(home)")
            }
        }
    }

    @Test func everyCommandsHelpMatchesItsReference() throws {
        let commands = Self.commands()
        #expect(commands.count > 10)
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.references, withIntermediateDirectories: true)
        }
        for (path, command) in commands {
            let text = Self.help(command)
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
