import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

extension ButtonCommand {
    /// `ifttt-connect button accessibility --connection ID|--file FILE --state STATE [--locale L]`.
    struct Accessibility: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print what assistive technologies get from the Connect Button in one state, as JSON.",
            discussion: """
                Prints {"elements": [{"label", "value", "hint", "traits"}], "announcement"}: the elements in \
                reading order (the button, the email field and confirm button in the email step, the footer) and \
                what VoiceOver announces when the state is entered; absent texts are null. States: \
                \(ButtonConnectionOptions.stateNames.joined(separator: ", ")).
                """
        )

        @OptionGroup var options: ButtonConnectionOptions

        @Option(help: ArgumentHelp("The button state.", valueName: "state"))
        var state: String

        func validate() throws {
            _ = try ButtonConnectionOptions.state(named: state, option: "--state")
        }

        /// The model of `connection` in the state asked for.
        func model(for connection: Connection) throws -> ConnectButtonAccessibility {
            let visual = try ButtonConnectionOptions.state(named: state, option: "--state")
            return ConnectButtonAccessibility(
                state: visual, serviceName: connection.connectingService.shortName,
                fullServiceName: connection.connectingService.name, localization: options.localization,
                width: options.width)
        }

        func run() async throws {
            say(try model(for: try await options.loadConnection()).json)
        }
    }
}
