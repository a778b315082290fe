import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectService

/// `ifttt-connect token ...`: service-side token tools.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Service-side user token tools (they need your service key).",
        subcommands: [Exchange.self]
    )

    /// `ifttt-connect token exchange`.
    struct Exchange: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Exchange a partner user's OAuth access token for their IFTTT user token.",
            discussion: """
                Calls POST /v2/user_token with the IFTTT-Service-Key header. The token is written to --output \
                (mode 0600) and printed only with --show-token. Give the service key and the access token in \
                IFTTT_SERVICE_KEY and IFTTT_ACCESS_TOKEN or in files (--service-key-file, --access-token-file; - reads \
                standard input): the command line of a process is visible to every local user.
                """
        )

        @Option(name: .customLong("user-id"), help: ArgumentHelp("The user's id on your service.", valueName: "id"))
        var userId: String

        @Option(
            name: .customLong("access-token"),
            help: SecretInput.removedFlagHelp)
        var accessToken: String?

        @Option(name: .customLong("access-token-file"), help: SecretInput.accessToken.fileHelp)
        var accessTokenFile: String?

        @Option(
            name: .customLong("service-key"),
            help: SecretInput.removedFlagHelp)
        var serviceKey: String?

        @Option(name: .customLong("service-key-file"), help: SecretInput.serviceKey.fileHelp)
        var serviceKeyFile: String?

        @OptionGroup var api: APIOptions

        @Option(help: ArgumentHelp("Write the user token to this file, mode 0600.", valueName: "file"))
        var output: String?

        @Flag(name: .customLong("show-token"), help: "Print the user token.")
        var showToken = false

        @Flag(help: "Replace the --output file when it exists (it keeps its mode).")
        var force = false

        func validate() throws {
            try validate(environment: ProcessInfo.processInfo.environment)
        }

        /// Checks that both secrets are given, each in one form (the files are read by ``run()``).
        func validate(environment: [String: String]) throws {
            try SecretInput.serviceKey.refuse(serviceKey)
            try SecretInput.accessToken.refuse(accessToken)
            guard SecretInput.serviceKey.isGiven(file: serviceKeyFile, environment: environment)
            else {
                throw ValidationError("a service key is required: \(SecretInput.serviceKey.ways)")
            }
            guard SecretInput.accessToken.isGiven(file: accessTokenFile, environment: environment)
            else {
                throw ValidationError("an access token is required: \(SecretInput.accessToken.ways)")
            }
            guard output != nil || showToken else {
                throw ValidationError("the user token would be discarded: give --output FILE or --show-token")
            }
        }

        func run() async throws {
            let key = try SecretInput.serviceKey.resolve(file: serviceKeyFile) ?? ""
            let accessToken = try SecretInput.accessToken.resolve(file: accessTokenFile) ?? ""
            let userId = self.userId
            let file = output.map { OutputFile(path: $0, option: "--output") }
            try file?.check(force: force)
            let result: Result<String, ConnectServiceClient.Error> = try await api.withAPI { url in
                do {
                    let client = try ConnectServiceClient(serviceKey: key, baseURL: url.appendingPathComponent("v2"))
                    return .success(try await client.exchangeUserToken(userId: userId, accessToken: accessToken))
                } catch let error as ConnectServiceClient.Error {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let token):
                try file?.write(token)
                say("user token obtained for \(userId)" + (output.map { " (written to \($0), mode 0600)" } ?? ""))
                if showToken { say(token) }
            case .failure(let error):
                warn("error: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
