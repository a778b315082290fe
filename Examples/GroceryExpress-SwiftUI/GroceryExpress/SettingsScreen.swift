import IFTTTConnectSDK
import SwiftUI

/// IFTTT's 2.8 example settings (email, skipping configuration, locale, the new-user flow), the store geofences of
/// the Connection (paused without turning it off), and signing out of Grocery Express.
struct SettingsScreen: View {
    /// Called after a change, so the Connect screen starts over with the new settings.
    var onChange: @MainActor () -> Void = {}
    /// Called after signing out, so the app shows Grocery Express's sign-in again.
    var onSignOut: @MainActor () -> Void = {}
    @State private var email = ExampleSettings.email
    @State private var localeIdentifier = ExampleSettings.localeIdentifier
    @State private var skipsConfiguration = ExampleSettings.skipsConfiguration
    @State private var forcesNewUserFlow = ExampleSettings.forcesNewUserFlow
    @State private var geofencesEnabled = ConnectButtonController.geofencesEnabled(for: AppConfiguration.connectionId)

    var body: some View {
        Form {
            TextField(
                "Email",
                text: Binding(
                    get: { @MainActor in email },
                    set: { @MainActor value in
                        email = value
                        ExampleSettings.email = value
                        onChange()
                    }))
            TextField(
                "Locale, e.g. de (empty: the device's)",
                text: Binding(
                    get: { @MainActor in localeIdentifier },
                    set: { @MainActor value in
                        localeIdentifier = value
                        ExampleSettings.localeIdentifier = value
                        onChange()
                    }))
            Toggle(
                "Skip IFTTT's configuration screen",
                isOn: Binding(
                    get: { @MainActor in skipsConfiguration },
                    set: { @MainActor value in
                        skipsConfiguration = value
                        ExampleSettings.skipsConfiguration = value
                        onChange()
                    }))
            Toggle(
                "New-user flow (a fresh email address each time)",
                isOn: Binding(
                    get: { @MainActor in forcesNewUserFlow },
                    set: { @MainActor value in
                        forcesNewUserFlow = value
                        ExampleSettings.forcesNewUserFlow = value
                        onChange()
                    }))
            Toggle(
                "Use my location at the store",
                isOn: Binding(
                    get: { @MainActor in geofencesEnabled },
                    set: { @MainActor enabled in
                        geofencesEnabled = enabled
                        ConnectButtonController.setGeofencesEnabled(
                            enabled: enabled, for: AppConfiguration.connectionId)
                    }))
            Text("Signed in to Grocery Express as \(ExampleSettings.partnerLogin)")
            Button("Sign Out") {
                ExampleSettings.signOut()
                onSignOut()
            }
        }
        .navigationTitle("Settings")
    }
}
