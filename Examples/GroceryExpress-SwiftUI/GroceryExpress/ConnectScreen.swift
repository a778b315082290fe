import IFTTTConnectSDK
import SwiftUI

/// The Connect Button for "Show my list when I arrive at the store", and a link to the settings.
@MainActor
struct ConnectScreen: View {
    @StateObject private var model = ConnectButtonModel(
        configuration: ConnectionConfiguration(
            connectionId: AppConfiguration.connectionId,
            suggestedUserEmail: AppConfiguration.userEmail,
            credentialProvider: GroceryExpressCredentials(),
            redirectURL: AppConfiguration.redirectURL))

    var body: some View {
        VStack(spacing: 24) {
            Text("See your shopping list the moment you walk into the store.")
                .multilineTextAlignment(.center)
            ConnectButtonView(
                state: model.state, connection: model.connection, style: .dynamic,
                onTap: { model.tap() },
                onFooterTap: { model.footerTapped($0) },
                onEmailConfirm: { model.confirm(email: $0) })
            if let error = model.lastError {
                Text(error).font(.footnote).foregroundStyle(.secondary)
            }
            NavigationLink(destination: SettingsScreen()) {
                Text("Settings")
            }
        }
        .padding(20)
        .navigationTitle("Grocery Express")
    }
}
