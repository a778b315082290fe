import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

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

        @OptionGroup var options: ButtonConnectionOptions

        @Option(help: ArgumentHelp("The button state.", valueName: "state"))
        var state: String

        @OptionGroup var layout: ButtonLayoutOptions

        /// The state names `--state` accepts, in flow order.
        static var stateNames: [String] { ConnectButtonVisualState.allExamples.map(\.name) }

        func validate() throws {
            guard Self.stateNames.contains(state) else {
                throw ValidationError(
                    "--state must be one of \(Self.stateNames.joined(separator: ", ")), got '\(state)'")
            }
        }

        /// The SVG of `connection` as the options ask, with the service icon when one was loaded.
        func svg(for connection: Connection, icon: ConnectButtonIconImage? = nil) -> String {
            let visual = ConnectButtonVisualState.allExamples.first { $0.name == state } ?? .connect
            return ConnectButtonSVGRenderer.render(
                options.appearance(
                    visual, connection: connection, textSize: layout.size, layoutDirection: layout.direction, icon: icon
                ))
        }

        /// Loads the Connection and, from the API, its service icon (``ButtonConnectionOptions``).
        func loadConnectionAndIcon() async throws -> (Connection, ConnectButtonIconImage?) {
            try await options.loadConnectionAndIcon()
        }

        /// Loads the Connection from `--file` or the API (without its icon).
        func loadConnection() async throws -> Connection {
            try await options.loadConnection()
        }

        func run() async throws {
            let (connection, icon) = try await loadConnectionAndIcon()
            say(svg(for: connection, icon: icon))
        }
    }
}
