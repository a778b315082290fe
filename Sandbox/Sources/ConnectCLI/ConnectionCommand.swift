import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// `ifttt-connect connection ...`: Connection tools.
struct ConnectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connection",
        abstract: "Work with Connections through the Connect API.",
        subcommands: [Show.self]
    )

    /// `ifttt-connect connection show ID`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch a Connection and print its normalized summary.",
            discussion: "Exits with status 1 and the typed error when the API refuses or fails."
        )

        @Argument(help: "The Connection id.")
        var id: String

        @OptionGroup var api: APIOptions

        @Option(help: SecretInput.removedFlagHelp)
        var token: String?

        @Option(name: .customLong("token-file"), help: SecretInput.userToken.fileHelp)
        var tokenFile: String?

        @Option(
            name: .customLong("invite-code"),
            help: ArgumentHelp("The invite code of an unpublished service.", valueName: "code"))
        var inviteCode: String?

        func validate() throws {
            try SecretInput.userToken.refuse(token)
        }

        func run() async throws {
            let credentials = ConnectionCredentials(
                userToken: try SecretInput.userToken.resolve(file: tokenFile), inviteCode: inviteCode)
            let id = self.id
            let result: Result<Connection, ConnectAPIError> = try await api.withAPI { url in
                let controller = ConnectionNetworkController(configuration: .sandbox(url))
                do throws(ConnectAPIError) {
                    return .success(try await controller.fetchConnection(for: id, credentialProvider: credentials))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let connection):
                say(InspectCommand.summary(of: connection).prettySerialized())
            case .failure(let error):
                warn("error: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
