import ArgumentParser
import Foundation
import IFTTTConnectSDK

/// The Connection a `button` subcommand draws: `--connection ID` from the API (see `--api`) or `--file FILE` with the
/// JSON of `GET /v2/connections/{id}`; plus the look shared by the subcommands (`--locale`, `--style`, `--width`).
struct ButtonConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The id of a Connection to fetch from the API.", valueName: "id"))
    var connection: String?

    @Option(help: ArgumentHelp("A file with a Connection's JSON.", valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp("light or dark (default light).", valueName: "style"))
    var style: String = "light"

    @Option(help: ArgumentHelp("The language of the texts, e.g. de or pt-BR (default en).", valueName: "locale"))
    var locale: String = ConnectLocalization.baseLocalization

    @Option(help: ArgumentHelp("The width available in points (default 360).", valueName: "width"))
    var width: Double = ConnectButtonGeometry.maximumWidth

    @OptionGroup var api: APIOptions

    /// The state names `--state`, `--from` and `--to` accept, in flow order.
    static var stateNames: [String] { ConnectButtonVisualState.allExamples.map(\.name) }

    func validate() throws {
        guard (connection == nil) != (file == nil) else {
            throw ValidationError("give exactly one of --connection ID and --file FILE")
        }
        guard ["light", "dark"].contains(style) else {
            throw ValidationError("--style must be light or dark, got '\(style)'")
        }
        guard width.isFinite, width > 0 else {
            throw ValidationError("--width must be a positive number, got \(width)")
        }
        guard !locale.isEmpty else { throw ValidationError("--locale must not be empty") }
    }

    /// The state called `name`, or a usage error naming `option`.
    static func state(named name: String, option: String) throws -> ConnectButtonVisualState {
        guard let state = ConnectButtonVisualState.allExamples.first(where: { $0.name == name }) else {
            throw ValidationError("\(option) must be one of \(stateNames.joined(separator: ", ")), got '\(name)'")
        }
        return state
    }

    /// The localization `--locale` asks for.
    var localization: ConnectLocalization { ConnectLocalization(identifier: locale) }

    /// The appearance of `state` for `connection` as the options ask.
    func appearance(_ state: ConnectButtonVisualState, connection: Connection) -> ConnectButtonAppearance {
        ConnectButtonAppearance(
            state: state, connection: connection, localization: localization,
            style: ConnectButtonStyle(rawValue: style) ?? .light, width: width)
    }

    /// Loads the Connection from `--file` or the API; a clear message and exit status 1 when that fails.
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
}
