import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTSDK

/// `ifttt-connect applets ...`: the legacy v1 Applets API through `IFTTTAPIManager`.
struct AppletsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "applets",
        abstract: "List, enable and disable a service's Applets through the legacy v1 API (IFTTTAPIManager).",
        subcommands: [List.self, Enable.self, Disable.self]
    )

    /// The options every `applets` subcommand takes.
    struct Options: ParsableArguments {
        @Option(help: ArgumentHelp("The service slug, e.g. grocery_express.", valueName: "slug"))
        var service: String

        @Option(help: SecretInput.removedFlagHelp)
        var token: String?

        @Option(name: .customLong("token-file"), help: SecretInput.userToken.fileHelp)
        var tokenFile: String?

        @Option(
            name: .customLong("invite-code"),
            help: ArgumentHelp("The invite code of an unpublished service.", valueName: "code"))
        var inviteCode: String?

        @OptionGroup var api: APIOptions

        func validate() throws {
            try SecretInput.userToken.refuse(token)
        }

        /// Runs `body` with a manager configured for the API root, the service, the token and the invite code.
        func withManager<T: Sendable>(_ body: @escaping @Sendable (IFTTTAPIManager) async throws(ConnectAPIError) -> T)
            async throws -> T
        {
            let token = try SecretInput.userToken.resolve(file: tokenFile)
            let (service, inviteCode) = (self.service, self.inviteCode)
            let result: Result<T, ConnectAPIError> = try await api.withAPI { url in
                let manager = IFTTTAPIManager(baseURL: url, anonymousId: "ifttt-connect-cli", callbackQueue: nil)
                manager.serviceSlug = service
                manager.userToken = token
                manager.inviteCode = inviteCode
                do throws(ConnectAPIError) {
                    return .success(try await body(manager))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let value):
                return value
            case .failure(let error):
                warn("error: \(error)")
                throw ExitCode(1)
            }
        }
    }

    /// `ifttt-connect applets list --service SLUG [--order O] [--platform P]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a service's Applets (GET /v1/services/{slug}/applets).",
            discussion: "Prints one line per Applet: id, status, enabled count, publication date, name."
        )

        @OptionGroup var options: Options

        @Option(
            help: ArgumentHelp(
                "default, published_at_asc, published_at_desc, enabled_count_asc or enabled_count_desc.",
                valueName: "order"))
        var order: String = "default"

        @Option(
            help: ArgumentHelp("ios, android or none (no Applets that use mobile services).", valueName: "platform"))
        var platform: String = "ios"

        func validate() throws {
            guard Self.order(order) != nil else {
                throw ValidationError(
                    "--order must be default, \(IFTTTAppletOrder.allCases.compactMap(\.queryValue).joined(separator: ", "))"
                )
            }
            guard Self.platform(platform) != nil else {
                throw ValidationError("--platform must be ios, android or none")
            }
        }

        static func order(_ text: String) -> IFTTTAppletOrder? {
            text == "default" ? .default : IFTTTAppletOrder.allCases.first { $0.queryValue == text }
        }

        static func platform(_ text: String) -> IFTTTPlatform? {
            text == "none" ? .noMobileServices : IFTTTPlatform.allCases.first { $0.queryValue == text }
        }

        func run() async throws {
            let order = Self.order(self.order) ?? .default
            let platform = Self.platform(self.platform) ?? .ios
            let applets = try await options.withManager { manager throws(ConnectAPIError) in
                try await manager.fetchApplets(order: order, platform: platform)
            }
            for applet in applets { say(AppletsCommand.line(applet)) }
            if applets.isEmpty { say("(no Applets)") }
        }
    }

    /// `ifttt-connect applets enable ID --service SLUG --token T`.
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn an activated Applet on (POST /v1/services/{slug}/applets/{id}/enable); needs a user token.")

        @Argument(help: "The Applet id.")
        var id: String

        @OptionGroup var options: Options

        func run() async throws {
            try await AppletsCommand.setStatus(true, forAppletId: id, options: options)
        }
    }

    /// `ifttt-connect applets disable ID --service SLUG --token T`.
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Turn an activated Applet off (POST /v1/services/{slug}/applets/{id}/disable); needs a user token.")

        @Argument(help: "The Applet id.")
        var id: String

        @OptionGroup var options: Options

        func run() async throws {
            try await AppletsCommand.setStatus(false, forAppletId: id, options: options)
        }
    }

    /// Turns an Applet on or off and prints its new line: the body of `enable` and `disable`.
    static func setStatus(_ enabled: Bool, forAppletId id: String, options: Options) async throws {
        let applet = try await options.withManager { manager throws(ConnectAPIError) in
            try await manager.setStatus(enabled, forAppletId: id)
        }
        say(line(applet))
    }

    /// `id  status  N enabled  published yyyy-MM-dd  "name"`.
    static func line(_ applet: IFTTTApplet) -> String {
        let published = applet.publishedAt.map { String($0.formatted(.iso8601).prefix(10)) } ?? "-"
        return
            "\(applet.id)  \(applet.status.rawValue)  \(applet.enabledCount) enabled  published \(published)  \"\(applet.name)\""
    }
}
