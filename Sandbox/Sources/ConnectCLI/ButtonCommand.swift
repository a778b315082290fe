import ArgumentParser
import Foundation
import IFTTTConnectSDK

/// `ifttt-connect button ...`: Connect Button tools.
struct ButtonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "button",
        abstract: "Work with the Connect Button's appearance.",
        subcommands: [Render.self, Animate.self, Accessibility.self]
    )

    /// `ifttt-connect button render --connection ID|--file FILE --state STATE [--style] [--locale] [--width]`.
    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the Connect Button of a Connection in one state as SVG on standard output.",
            discussion: """
                The Connection comes from the API (--connection ID, see --api) or from a file holding the JSON of \
                GET /v2/connections/{id} (--file FILE). States: \(Render.stateNames.joined(separator: ", ")).
                """
        )

        @Option(help: ArgumentHelp("The id of a Connection to fetch from the API.", valueName: "id"))
        var connection: String?

        @Option(help: ArgumentHelp("A file with a Connection's JSON.", valueName: "file"))
        var file: String?

        @Option(help: ArgumentHelp("The button state.", valueName: "state"))
        var state: String

        @Option(help: ArgumentHelp("light or dark (default light).", valueName: "style"))
        var style: String = "light"

        @Option(help: ArgumentHelp("The language of the texts, e.g. de or pt-BR (default en).", valueName: "locale"))
        var locale: String = ConnectLocalization.baseLocalization

        @Option(help: ArgumentHelp("The width available in points (default 360).", valueName: "width"))
        var width: Double = ConnectButtonGeometry.maximumWidth

        @OptionGroup var api: APIOptions

        /// The state names `--state` accepts, in flow order.
        static var stateNames: [String] { ConnectButtonVisualState.allExamples.map(\.name) }

        func validate() throws {
            guard (connection == nil) != (file == nil) else {
                throw ValidationError("give exactly one of --connection ID and --file FILE")
            }
            guard Self.stateNames.contains(state) else {
                throw ValidationError(
                    "--state must be one of \(Self.stateNames.joined(separator: ", ")), got '\(state)'")
            }
            guard ["light", "dark"].contains(style) else {
                throw ValidationError("--style must be light or dark, got '\(style)'")
            }
            guard width.isFinite, width > 0 else {
                throw ValidationError("--width must be a positive number, got \(width)")
            }
            guard !locale.isEmpty else { throw ValidationError("--locale must not be empty") }
        }

        /// The SVG of `connection` as the options ask.
        func svg(for connection: Connection) -> String {
            let visual = ConnectButtonVisualState.allExamples.first { $0.name == state } ?? .connect
            let appearance = ConnectButtonAppearance(
                state: visual, connection: connection, localization: ConnectLocalization(identifier: locale),
                style: ConnectButtonStyle(rawValue: style) ?? .light, width: width)
            return ConnectButtonSVGRenderer.render(appearance)
        }

        /// Loads the Connection from `--file` or the API.
        func loadConnection() async throws -> Connection {
            if let file {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: file))
                } catch {
                    warn("error: cannot read \(file): \(error.localizedDescription)")
                    throw ExitCode(1)
                }
                do throws(ConnectDecodingError) {
                    return try Connection.decode(from: data)
                } catch {
                    warn("error: \(file) is not a Connection: \(error)")
                    throw ExitCode(1)
                }
            }
            let id = connection ?? ""
            let result: Result<Connection, ConnectAPIError> = try await api.withAPI { url in
                do throws(ConnectAPIError) {
                    return .success(
                        try await ConnectionNetworkController(configuration: .sandbox(url))
                            .fetchConnection(for: id, credentialProvider: ConnectionCredentials()))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let connection): return connection
            case .failure(let error):
                warn("error: \(error)")
                throw ExitCode(1)
            }
        }

        func run() async throws {
            say(svg(for: try await loadConnection()))
        }
    }
}
