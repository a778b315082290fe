import Foundation
import Testing
@testable import IFTTTConnectCore

/// Compiles the `redirectUserVerifier` example of Activation.md.
enum ActivationVerifierDocumentationExample {
    /// Stands for the app's backend in the example.
    struct Backend: Sendable {
        let login: String
        func linkedIFTTTLogin() async -> String? { login }
    }

    static func configure(email: String, credentials: ConnectionCredentials, redirectURL: URL, backend: Backend)
        -> ConnectionConfiguration
    {
        var configuration = ConnectionConfiguration(
            connectionId: "gx-arrive-store",
            suggestedUserEmail: email,
            credentialProvider: credentials,
            redirectURL: redirectURL)
        configuration.redirectUserVerifier = { redirected in
            // Your backend: POST /v2/user_token for the signed-in partner user, then GET /v2/me with that token.
            await backend.linkedIFTTTLogin() == redirected.login
        }
        return configuration
    }
}

@Suite("Activation documentation")
struct ActivationDocumentationTests {
    @Test func theVerifierExampleComparesLogins() async throws {
        let configuration = ActivationVerifierDocumentationExample.configure(
            email: "a@example.com", credentials: ConnectionCredentials(),
            redirectURL: URL(string: "groceryexpress://ifttt/callback")!,
            backend: .init(login: "alice"))
        #expect(configuration.redirectStatePolicy == .verifyWhenMissing)
        let verifier = try #require(configuration.redirectUserVerifier)
        #expect(await verifier(RedirectedUser(userToken: "t", login: "alice", connectionId: "gx-arrive-store")))
        #expect(await !verifier(RedirectedUser(userToken: "t", login: "bob", connectionId: "gx-arrive-store")))
    }
}
