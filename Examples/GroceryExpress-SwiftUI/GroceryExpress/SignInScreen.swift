import SwiftUI

/// Grocery Express's own sign-in, shown while the app has no Grocery Express session: the username and password go
/// to Grocery Express's backend (``GroceryExpressBackend``), whose session the app keeps (``ExampleSettings``).
@MainActor
struct SignInScreen: View {
    /// Called once signed in, so the app shows the Connect screen.
    var onSignIn: @MainActor () -> Void
    @State private var login = ""
    @State private var password = ""
    @State private var signingIn = false
    @State private var message: String?

    var body: some View {
        Form {
            Text("Sign in to Grocery Express (in the sandbox: alice / gx-alice-password).")
            TextField("Username", text: $login)
            SecureField("Password", text: $password)
            Button("Sign In") {
                Task { await signIn() }
            }
            .disabled(signingIn || login.isEmpty || password.isEmpty)
            if let message {
                Text(message).font(.footnote).foregroundStyle(.secondary)
            }
        }
        .navigationTitle("Grocery Express")
    }

    /// Asks Grocery Express's backend; keeps the session, or says why not.
    private func signIn() async {
        signingIn = true
        message = "Signing in…"
        do {
            let trimmed = login.trimmingCharacters(in: .whitespaces)
            ExampleSettings.signIn(try await AppConfiguration.backend.signIn(login: trimmed, password: password))
            onSignIn()
        } catch {
            message = "\(error)"
            signingIn = false
        }
    }
}
