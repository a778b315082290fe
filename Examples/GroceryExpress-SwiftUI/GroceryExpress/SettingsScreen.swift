import IFTTTConnectSDK
import SwiftUI

/// Lets the user pause the store geofences of the Connection without turning it off.
struct SettingsScreen: View {
    @State private var geofencesEnabled = ConnectButtonController.geofencesEnabled(for: AppConfiguration.connectionId)

    var body: some View {
        Form {
            Toggle(
                "Use my location at the store",
                isOn: Binding(
                    get: { @MainActor in geofencesEnabled },
                    set: { @MainActor enabled in
                        geofencesEnabled = enabled
                        ConnectButtonController.setGeofencesEnabled(
                            enabled: enabled, for: AppConfiguration.connectionId)
                    }))
        }
        .navigationTitle("Settings")
    }
}
