import ArgumentParser
import Foundation

/// The `ifttt-connect` command: runs the local IFTTT sandbox, the end-to-end demo and developer tools.
public struct IFTTTConnectCommand: AsyncParsableCommand {
    /// The command's configuration and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "ifttt-connect",
        abstract: "The IFTTT Connect SDK's sandbox, demo and developer tools.",
        discussion: """
            Commands that talk to an API use --api URL (the sandbox's root URL, e.g. http://127.0.0.1:8080). \
            Without it they start an embedded sandbox on an ephemeral loopback port, backed by the default \
            database, for the duration of the command.
            """,
        subcommands: [
            SandboxCommand.self, DemoCommand.self, InspectCommand.self, ConnectionCommand.self, TokenCommand.self,
            ConnectCommand.self, ButtonCommand.self, LocationCommand.self, AppletsCommand.self,
        ]
    )

    /// Creates the command (ArgumentParser calls this).
    public init() {}
}

/// Writes to standard output without buffering (`print` is block-buffered when piped).
func say(_ line: String = "") {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes to standard error.
func warn(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension IFTTTConnectCommand {
    /// Parses the process arguments and runs the chosen subcommand, async or not; exits with the
    /// command's status (usage errors exit 64).
    public static func runMain(_ arguments: [String]? = nil) async {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
