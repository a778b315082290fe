import IFTTTConnectSDK
import SwiftUI

/// The Connect Button for "Show my list when I arrive at the store", and a link to the settings.
@MainActor
struct ConnectScreen: View {
    /// Called after the user signed out of Grocery Express in the settings.
    var onSignOut: @MainActor () -> Void = {}
    /// Changes when the settings change, so the button starts over with them.
    @State private var revision = 0
    @State private var lastError: String?
    /// Whether the Connection is on and whether the button is working, as the button reports it.
    @State private var status: ConnectFlowStatus?

    var body: some View {
        VStack(spacing: 24) {
            Text("See your shopping list the moment you walk into the store.")
                .multilineTextAlignment(.center)
            ConnectFlowButton(
                configuration: AppConfiguration.connectionConfiguration(),
                controllerConfiguration: AppConfiguration.controllerConfiguration,
                locale: ExampleSettings.locale,
                onStatusChange: { status = $0 }
            ) { event in
                switch event {
                case .activated(let activation):
                    GroceryExpressCredentials.save(userToken: activation.userToken)
                    ConnectButtonController.update(with: GroceryExpressCredentials())
                    ConnectButtonController.activate(connections: [activation.connection.id])
                    lastError = nil
                case .deactivated, .cancelled:
                    lastError = nil
                case .activationFailed(let error):
                    lastError = "Connecting failed: \(error)"
                case .deactivationFailed(let error):
                    lastError = "Turning it off failed: \(error)"
                }
            }
            .id(revision)
            if let status, !status.isBusy {
                Text(status.isConnected ? "Your list opens at the store." : "Not connected yet.")
                    .font(.footnote)
            }
            if let lastError {
                Text(lastError).font(.footnote).foregroundStyle(.secondary)
            }
            NavigationLink(destination: SettingsScreen(onChange: { revision += 1 }, onSignOut: onSignOut)) {
                Text("Settings")
            }
        }
        .padding(20)
        .navigationTitle("Grocery Express")
    }
}
