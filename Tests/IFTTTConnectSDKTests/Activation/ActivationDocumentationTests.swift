import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The iOS example's credential provider of Activation.md, with stand-ins for the app's session and Keychain.
final class ActivationDocumentationCredentials: ConnectionCredentialProvider {
    struct Session {
        var iftttOAuthCode: String
        var token: String
    }

    let session: Session
    let keychain: [String: String]

    init(session: Session, keychain: [String: String] = [:]) {
        self.session = session
        self.keychain = keychain
    }

    var oauthCode: String { session.iftttOAuthCode }
    var userToken: String? { keychain["ifttt_user_token"] }
    var inviteCode: String? { nil }
    /// Grocery Express's backend: POST with the user's session, answers {"user_token": "..."} or null.
    var partnerBackend: PartnerBackend? {
        try? PartnerBackend.userTokenEndpoint(
            URL(string: "https://api.groceryexpress.example/ifttt/user_token")!,
            session: session.token)
    }
}

@Suite("Activation documentation")
struct ActivationDocumentationTests {
    @Test func theProviderExampleGivesItsBackendAndTheSnapshotKeepsIt() {
        let credentials = ActivationDocumentationCredentials(session: .init(iftttOAuthCode: "code", token: "s-1"))
        let backend = credentials.partnerBackend
        #expect(backend?.name == "partner backend at api.groceryexpress.example")
        #expect(ConnectionCredentials(snapshotOf: credentials).partnerBackend != nil)
    }

    /// `PartnerBackend.userTokenEndpoint` speaks the sandbox backend's shape: POST, the session as a bearer token,
    /// `{"user_token": ...}` or `null`; failures are typed and never show the session.
    @Test func theEndpointBackendSendsTheSessionAndReadsTheToken() async throws {
        let answers = Locked(["{\"user_token\":\"tok-1\"}", "{\"user_token\":null}", "{}"])
        let transport = RecordingTransport { request in
            if request.headers["Authorization"] == "Bearer bad-session" {
                return HTTPResponse(
                    statusCode: 401, body: Data(#"{"errors":[{"message":"unknown session bad-session"}]}"#.utf8))
            }
            return HTTPResponse(statusCode: 200, body: Data(answers.withLock { $0.removeFirst() }.utf8))
        }
        let url = URL(string: "http://127.0.0.1:8080/partner/grocery_express/api/user_token")!
        let backend = try PartnerBackend.userTokenEndpoint(url, session: "gx-session", transport: transport)
        #expect(try await backend.userToken() == "tok-1")
        #expect(try await backend.userToken() == nil)
        await #expect(throws: ConnectAPIError.self) { _ = try await backend.userToken() }
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST" && request.url == url)
        #expect(request.headers["Authorization"] == "Bearer gx-session")
        let refused = try PartnerBackend.userTokenEndpoint(url, session: "bad-session", transport: transport)
        do {
            _ = try await refused.userToken()
            Issue.record("a 401 must throw")
        } catch {
            #expect((error as? ConnectAPIError)?.isAuthenticationFailure == true)
            #expect(!"\(error)".contains("bad-session"))
        }
        #expect(throws: ConnectAPIError.self) {
            try PartnerBackend.userTokenEndpoint(URL(string: "http://api.example.com/t")!, session: "s")
        }
        #expect(throws: ConnectAPIError.self) { try PartnerBackend.userTokenEndpoint(url, session: "") }
    }

    @Test func theVerifierExampleComparesLogins() async throws {
        // ConnectionConfiguration.redirectUserVerifier's example, as a configuration would set it.
        struct Backend: Sendable {
            let login: String
            func iftttLogin() async -> String? { login }
        }
        let myBackend = Backend(login: "alice")
        var configuration = ConnectionConfiguration(
            connectionId: "gx-arrive-store", suggestedUserEmail: "a@example.com",
            credentialProvider: ConnectionCredentials(), redirectURL: URL(string: "groceryexpress://ifttt/callback")!)
        configuration.redirectUserVerifier = { redirected in
            await myBackend.iftttLogin() == redirected.login
        }
        #expect(configuration.userTokenTrust == .vouched)
        #expect(configuration.redirectStatePolicy == .verifyWhenMissing)
        let verifier = try #require(configuration.redirectUserVerifier)
        #expect(await verifier(RedirectedUser(userToken: "t", login: "alice", connectionId: "gx-arrive-store")))
        #expect(await !verifier(RedirectedUser(userToken: "t", login: "bob", connectionId: "gx-arrive-store")))
    }
}
