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

    /// `ifttt-connect button render --connection ID|--file FILE --state STATE [--style] [--locale] [--width]
    /// [--text-size] [--layout-direction]`.
    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the Connect Button of a Connection in one state as SVG on standard output.",
            discussion: """
                The Connection comes from the API (--connection ID, see --api) or from a file holding the JSON of \
                GET /v2/connections/{id} (--file FILE). States: \(Render.stateNames.joined(separator: ", ")).
                With --connection the connecting service's icon is loaded through the SDK (as the app would) and \
                embedded; with --file, or when it does not load, the knob shows the service's monogram.
                Text sizes: \(ConnectTextSize.allCases.map(\.rawValue).joined(separator: ", ")).
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

        @Option(
            help: ArgumentHelp(
                "The text size (Dynamic Type), as UIKit's content size category names (default large).",
                valueName: "category"))
        var textSize: String = ConnectTextSize.large.rawValue

        @Option(help: ArgumentHelp("ltr or rtl (default ltr).", valueName: "direction"))
        var layoutDirection: String = ConnectLayoutDirection.leftToRight.rawValue

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
            guard ConnectTextSize(rawValue: textSize) != nil else {
                throw ValidationError(
                    "--text-size must be one of \(ConnectTextSize.allCases.map(\.rawValue).joined(separator: ", ")), "
                        + "got '\(textSize)'")
            }
            guard ConnectLayoutDirection(rawValue: layoutDirection) != nil else {
                throw ValidationError("--layout-direction must be ltr or rtl, got '\(layoutDirection)'")
            }
        }

        /// The SVG of `connection` as the options ask, with the service icon when one was loaded.
        func svg(for connection: Connection, icon: ConnectButtonIconImage? = nil) -> String {
            let visual = ConnectButtonVisualState.allExamples.first { $0.name == state } ?? .connect
            let appearance = ConnectButtonAppearance(
                state: visual, connection: connection, localization: ConnectLocalization(identifier: locale),
                style: ConnectButtonStyle(rawValue: style) ?? .light, width: width,
                textSize: ConnectTextSize(rawValue: textSize) ?? .large,
                layoutDirection: ConnectLayoutDirection(rawValue: layoutDirection) ?? .leftToRight, icon: icon)
            return ConnectButtonSVGRenderer.render(appearance)
        }

        /// Loads the Connection from `--file` or the API; from the API also the connecting service's icon, through
        /// the SDK's icon loader (no disk cache), while the sandbox runs.
        func loadConnectionAndIcon() async throws -> (Connection, ConnectButtonIconImage?) {
            if let file {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: file))
                } catch {
                    warn("error: cannot read \(file): \(error.localizedDescription)")
                    throw ExitCode(1)
                }
                do throws(ConnectDecodingError) {
                    return (try Connection.decode(from: data), nil)
                } catch {
                    warn("error: \(file) is not a Connection: \(error)")
                    throw ExitCode(1)
                }
            }
            let id = connection ?? ""
            let result: Result<(Connection, ConnectButtonIconImage?), ConnectAPIError> = try await api.withAPI { url in
                do throws(ConnectAPIError) {
                    let transport = URLSessionTransport()
                    let connection = try await ConnectionNetworkController(
                        configuration: .sandbox(url, transport: transport)
                    ).fetchConnection(for: id, credentialProvider: ConnectionCredentials())
                    var icon: ConnectButtonIconImage?
                    if let iconURL = connection.connectingService.monochromeIconURL {
                        switch await ServiceIconLoader(transport: transport, cacheDirectory: nil).icon(for: iconURL) {
                        case .success(let loaded): icon = loaded
                        case .failure(let error): warn("note: the service icon did not load (\(error)); monogram")
                        }
                    }
                    return .success((connection, icon))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let loaded): return loaded
            case .failure(let error):
                warn("error: \(error)")
                throw ExitCode(1)
            }
        }

        /// Loads the Connection from `--file` or the API (without its icon).
        func loadConnection() async throws -> Connection {
            try await loadConnectionAndIcon().0
        }

        func run() async throws {
            let (connection, icon) = try await loadConnectionAndIcon()
            say(svg(for: connection, icon: icon))
        }
    }
}
