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

    var body: some View {
        VStack(spacing: 24) {
            Text("See your shopping list the moment you walk into the store.")
                .multilineTextAlignment(.center)
            ConnectFlowButton(
                configuration: AppConfiguration.connectionConfiguration(),
                controllerConfiguration: AppConfiguration.controllerConfiguration,
                locale: ExampleSettings.locale
            ) { result in
                switch result {
                case .success(let activation):
                    GroceryExpressCredentials.save(userToken: activation.userToken)
                    ConnectButtonController.update(with: GroceryExpressCredentials())
                    ConnectButtonController.activate(connections: [activation.connection.id])
                    lastError = nil
                case .failure(let error):
                    lastError = "\(error)"
                }
            }
            .id(revision)
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
