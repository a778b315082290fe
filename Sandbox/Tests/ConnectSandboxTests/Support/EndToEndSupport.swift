import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `body` against a sandbox on an ephemeral loopback port with a fresh database file.
func withSandbox<T: Sendable>(
    failRate: Double = 0, latency: Int = 0, seed: UInt64? = nil, databasePath: String? = nil,
    redirectState: RedirectStateMode = .ignore,
    _ body: @Sendable (URL, ConnectionNetworkController) async throws -> T
) async throws -> T {
    let path = databasePath ?? temporaryDatabasePath()
    let configuration = SandboxConfiguration(
        port: 0, databasePath: path, latency: latency, failRate: failRate, randomSeed: seed,
        redirectState: redirectState)
    return try await SandboxServer.withRunning(configuration) { url in
        let controller = ConnectionNetworkController(
            configuration: .init(
                connectBaseURL: url.appendingPathComponent("v2"), locationBaseURL: url.appendingPathComponent("v1"),
                anonymousId: "e2e-tests", timeout: 10, callbackQueue: nil))
        return try await body(url, controller)
    }
}

func temporaryDatabasePath() -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-e2e-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("sandbox.sqlite").path
}

/// A raw HTTP call, for requests the SDK deliberately cannot make (a service key on a user endpoint, ...).
func rawRequest(_ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) async throws
    -> (Int, Data)
{
    var request = URLRequest(url: url)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? -1, data)
}

enum Demo {
    /// The sandbox's Grocery Express backend, asked with a partner user's session (`gx-access-token-alice`, ...).
    static func partnerBackend(_ sandbox: URL, session: String) throws -> PartnerBackend {
        try PartnerBackend.userTokenEndpoint(
            sandbox.appendingPathComponent("partner/grocery_express/api/user_token"), session: session)
    }

    static let alice = ConnectionCredentials(oauthCode: "gx-oauth-code-alice", userToken: "sandbox-user-token-alice")
    static let bob = ConnectionCredentials(userToken: "sandbox-user-token-bob")
    static let carol = ConnectionCredentials(userToken: "sandbox-user-token-carol")
    static let serviceKey = "sandbox-service-key-grocery-express"
}
