// The safe path for a 2.8 app: its class-based credential provider, backed by its own backend, gains one property,
// `partnerBackend`, so that an activation finishes with the IFTTT user token the backend vouches for. Everything
// else is the 2.8 code of 10-WholeApp.swift.
import Foundation
import IFTTTConnectSDK
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's API client: its backend calls IFTTT's `POST /v2/user_token` with the service key.
final class GroceryAPI: Sendable {
    let baseURL: URL
    init(baseURL: URL) { self.baseURL = baseURL }

    /// The IFTTT user token the backend holds for the signed-in user, or nil before they connected IFTTT.
    func iftttUserToken(session: String) async throws -> String? {
        var request = URLRequest(url: baseURL.appendingPathComponent("ifttt/user_token"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(session)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return answer?["user_token"] as? String
    }
}

final class VouchedCredentials: ConnectionCredentialProvider {
    private(set) var userToken: String?
    private(set) var session: String
    let api: GroceryAPI
    var oauthCode: String { return "gx-oauth-code-alice" }
    var inviteCode: String? { return nil }

    /// The one addition: the backend vouches for the token the activation hands over.
    var partnerBackend: PartnerBackend? {
        let api = self.api
        let session = self.session
        return PartnerBackend(name: "grocery api") { try await api.iftttUserToken(session: session) }
    }

    init(api: GroceryAPI, session: String) {
        self.api = api
        self.session = session
    }

    func loginUser(with token: String) { userToken = token }
    func logout() { userToken = nil }
}

/// A backend of the documented shape needs no code of its own.
func endpointCredentials(session: String) throws -> ConnectionCredentials {
    let url = URL(string: "https://api.groceryexpress.example/ifttt/user_token")!
    return ConnectionCredentials(
        oauthCode: "gx-oauth-code-alice",
        partnerBackend: try PartnerBackend.userTokenEndpoint(url, session: session))
}

func vouchedConfiguration(credentials: VouchedCredentials) -> ConnectionConfiguration {
    let configuration = ConnectionConfiguration(
        connectionId: "gx-arrive-store",
        suggestedUserEmail: "alice@example.com",
        credentialProvider: credentials,
        redirectURL: URL(string: "groceryexpress://connect_callback")!)
    print(configuration.userTokenTrust == .vouched)
    return configuration
}

func vouchingMessage(for error: ConnectButtonControllerError) -> String {
    if error == .noPartnerBackend { return "Sign in to Grocery Express first." }
    return error.localizedDescription
}
