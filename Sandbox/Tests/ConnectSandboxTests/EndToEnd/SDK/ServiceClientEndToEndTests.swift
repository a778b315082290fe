import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectService
import Testing

/// Every `ConnectServiceClient` call against the sandbox's service-key endpoints, and the example partner backend.
@Suite("ConnectServiceClient and the partner backend against the sandbox")
struct ServiceClientEndToEndTests {
    static func client(
        _ url: URL, key: String = SandboxTest.serviceKey,
        logHandler: (@Sendable (String) -> Void)? = nil
    ) throws -> ConnectServiceClient {
        try ConnectServiceClient(serviceKey: key, baseURL: url.appendingPathComponent("v2"), logHandler: logHandler)
    }

    @Test func everyServiceCall() async throws {
        try await LegacyFixture.withSandbox { url in
            let client = try Self.client(url)

            // POST /v2/user_token
            let token = try await client.exchangeUserToken(userId: "gx-user-1002", accessToken: "gx-access-token-bob")
            #expect(token.hasPrefix("sandbox-user-token-"))

            // GET /v2/me, as the service and for a user.
            let service = try await client.fetchUser()
            #expect(service.authenticationLevel == .channel)
            #expect(service.login == nil)
            #expect(try await client.fetchUser(userId: "gx-user-1001").login == "alice")

            // GET /v2/connections/{id}?user_id=
            let deals = try await client.fetchConnection(id: "gx-weekly-deals", userId: "gx-user-1002")
            #expect(deals.status == .disabled)
            #expect(try await client.fetchConnection(id: "gx-weekly-deals", userId: "gx-user-1001").status == .enabled)
            // Unpublished Connections are visible to their own service's key.
            #expect(
                try await client.fetchConnection(id: "gx-early-access", userId: "gx-user-1001").id == "gx-early-access")

            // GET .../triggers/{id}/field_options?user_id= (alice has the Connection enabled; bob turned it off)
            let trigger = try #require(deals.features.first?.triggers.first)
            let options = try await client.fetchFieldOptions(
                connectionId: deals.id, for: .init(trigger), userId: "gx-user-1001")
            let stores = try #require(options.options["store"])
            #expect(!stores.isEmpty)

            // PUT .../user_connection?user_id=
            var update = UserConnectionUpdate.defaults(for: deals)
            update.features[0].triggers[0].userFields = ["store": .choice(stores[0])]
            let updated = try #require(
                try await client.updateUserConnection(connectionId: deals.id, userId: "gx-user-1001", update: update))
            #expect(updated.status == .enabled)

            // POST .../user_connection/refresh?user_id=
            try await client.refreshUserConnection(connectionId: deals.id, userId: "gx-user-1001")
        }
    }

    @Test func runPerformTestAndProvisionalCodeEndToEnd() async throws {
        try await LegacyFixture.withSandbox { url in
            let client = try Self.client(url)
            let http = Client(base: url)

            try await client.runAction(
                connectionId: "gx-weekly-deals", actionId: "email.send_me_email", userId: "gx-user-1001",
                fields: ["subject": "Deals at your store"])
            let runs = try await http.get(
                "/sandbox/dispatches", query: ["kind": "action_run"], serviceKey: SandboxTest.serviceKey)
            #expect(try runs.json["data"]?[0]?["body"]?["fields"]?["subject"] == "Deals at your store")

            var page = try await client.performQuery(
                connectionId: "gx-weekly-deals", queryId: "grocery_express.list_deals", userId: "gx-user-1001",
                limit: 1)
            var ids = page.items.compactMap { $0["id"]?.stringValue }
            while let cursor = page.nextCursor {
                page = try await client.performQuery(
                    connectionId: "gx-weekly-deals", queryId: "grocery_express.list_deals", userId: "gx-user-1001",
                    fields: page.nextFields ?? [:], limit: 1, cursor: cursor)
                ids += page.items.compactMap { $0["id"]?.stringValue }
            }
            #expect(ids == ["deal-apples", "deal-coffee"])  // alice's store
            let mission = try await client.performQuery(
                connectionId: "gx-weekly-deals", queryId: "grocery_express.list_deals", userId: "gx-user-1001",
                fields: ["store": "store-2001-mission"])
            #expect(mission.items.compactMap { $0["id"]?.stringValue } == ["deal-bread"])

            try await client.testTrigger(
                connectionId: "gx-weekly-deals", triggerId: "grocery_express.new_weekly_deals", userId: "gx-user-1001")
            let tests = try await http.get(
                "/sandbox/dispatches", query: ["kind": "trigger_test"], serviceKey: SandboxTest.serviceKey)
            #expect(try tests.json["data"]?[0]?["body"]?["data"]?["user_id"] == "gx-user-1001")

            // The code pre-authenticates the Connect URL once.
            let code = try await client.createProvisionalAccessCode(oauthCode: "gx-oauth-code-alice")
            let query = ["email": "alice@example.com", "code": code]
            let page1 = String(
                decoding: try await http.get("/connect/gx-weekly-deals", query: query).data, as: UTF8.self)
            #expect(page1.contains("code=gx-oauth-code-alice"))

            // Bob turned the Connection off; an unknown action; a dropdown value that is not an option.
            func status(_ body: () async throws -> Void) async -> Int? {
                do {
                    try await body()
                    return nil
                } catch {
                    guard case .network(let network) = error as? ConnectServiceClient.Error else { return -1 }
                    return network.statusCode
                }
            }
            #expect(
                await status {
                    try await client.runAction(
                        connectionId: "gx-weekly-deals", actionId: "email.send_me_email", userId: "gx-user-1002")
                } == 404)
            #expect(
                await status {
                    try await client.runAction(
                        connectionId: "gx-weekly-deals", actionId: "email.nope", userId: "gx-user-1001")
                } == 404)
            #expect(
                await status {
                    _ = try await client.performQuery(
                        connectionId: "gx-weekly-deals", queryId: "grocery_express.list_deals", userId: "gx-user-1001",
                        fields: ["store": "Cats"])
                } == 422)
        }
    }

    @Test func serviceCallErrorsAreTyped() async throws {
        try await LegacyFixture.withSandbox { url in
            let client = try Self.client(url)
            func status(_ body: () async throws -> Void) async -> Int? {
                do {
                    try await body()
                    return nil
                } catch let error as ConnectServiceClient.Error {
                    if case .network(let network) = error { return network.statusCode ?? -1 }
                    return -2
                } catch {
                    return -3
                }
            }
            // Not linked to an IFTTT user.
            #expect(
                await status { _ = try await client.fetchConnection(id: "gx-weekly-deals", userId: "gx-user-1003") }
                    == nil)
            #expect(
                await status {
                    try await client.refreshUserConnection(connectionId: "gx-weekly-deals", userId: "gx-user-1003")
                } == 404)
            // The user has no configuration to refresh.
            #expect(
                await status {
                    try await client.refreshUserConnection(connectionId: "gx-store-visits", userId: "gx-user-1001")
                } == 404)
            #expect(
                await status { _ = try await client.fetchConnection(id: "no-such-connection", userId: "gx-user-1001") }
                    == 404)
            let wrong = try Self.client(url, key: "wrong-service-key")
            #expect(await status { _ = try await wrong.fetchUser() } == 401)
            #expect(
                await status { _ = try await wrong.fetchConnection(id: "gx-weekly-deals", userId: "gx-user-1001") }
                    == 401)
        }
    }

    /// The partner backend's own token exchange with the sandbox, over loopback.
    @Test
    func partnerBackendIssuesUserTokens() async throws {
        try await LegacyFixture.withSandbox { url in
            let http = Client(base: url)
            let path = "partner/grocery_express/api/user_token"
            let alice = try await http.request("POST", path, headers: ["Authorization": "Bearer gx-access-token-alice"])
            #expect(alice.status == 200)
            let token = try #require(try alice.json["user_token"]?.stringValue)
            let manager = LegacyFixture.manager(url, token: token)
            #expect(try await manager.fetchCurrentUser()?.username == "alice")

            // Dave's account is not linked to IFTTT: null, and the app carries on signed out.
            let dave = try await http.request("POST", path, headers: ["Authorization": "Bearer gx-access-token-dave"])
            #expect(dave.status == 200)
            #expect(try dave.json["user_token"] == .null)

            #expect(try await http.request("POST", path, headers: ["Authorization": "Bearer nope"]).status == 401)
            #expect(try await http.request("POST", path).status == 401)
            #expect(
                try await http.request(
                    "POST", "partner/location/api/user_token",
                    headers: ["Authorization": "Bearer gx-access-token-alice"]
                ).status == 404)
        }
    }
}
