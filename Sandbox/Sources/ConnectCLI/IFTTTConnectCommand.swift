import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The `ifttt-connect` command: runs the local IFTTT sandbox, the end-to-end demo and developer tools.
public struct IFTTTConnectCommand: AsyncParsableCommand {
    /// The command's configuration and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "ifttt-connect",
        abstract: "The IFTTT Connect SDK's sandbox, demo and developer tools.",
        discussion: """
            Commands that talk to an API use --api URL (the sandbox's root URL, e.g. http://127.0.0.1:8080). \
            Without it they start an embedded sandbox on an ephemeral loopback port with a fresh demo database \
            in a private temporary folder, removed when the command ends.
            """,
        version: "ifttt-connect \(SDKInfo.version)",
        subcommands: [
            SandboxCommand.self, DemoCommand.self, InspectCommand.self, ConnectionCommand.self, TokenCommand.self,
            ConnectCommand.self, ButtonCommand.self, LocationCommand.self, AppletsCommand.self, ResetCommand.self,
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
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        if let unknown = unknownHelpTopic(arguments) {
            warn("Error: there is no command '\(unknown)' to explain (see ifttt-connect --help)")
            exit(withError: ExitCode.validationFailure)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            // A bad input found while running (a file that cannot be read): its one message, without the usage the
            // parser prints for a bad command line.
            warn("Error: \(error.message)")
            exit(withError: ExitCode.validationFailure)
        } catch {
            exit(withError: error)
        }
    }
}

extension IFTTTConnectCommand {
    /// For `help A B ...`: the first word that names no subcommand at its place (`help nope` must fail, not print
    /// the root's help and succeed); `nil` when every word names one, or for any other command line.
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        var command: any ParsableCommand.Type = IFTTTConnectCommand.self
        for word in arguments.dropFirst() where !word.hasPrefix("-") {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == word }) else {
                return word
            }
            command = next
        }
        return nil
    }
}
