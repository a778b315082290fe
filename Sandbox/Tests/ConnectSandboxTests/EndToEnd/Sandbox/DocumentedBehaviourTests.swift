@testable import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

/// One test per way the sandbox let integrators write code that cannot work against IFTTT, or missed what IFTTT's
/// Connect API docs promise (issue 20). Each failed on the sandbox before the change; each uses only HTTP and the
/// seed file, so it reads as what an integrator sees.
@Suite("The sandbox as IFTTT documents it")
struct DocumentedBehaviourTests {
    static let key = SandboxTest.serviceKey
    static let alice = ["user_id": "gx-user-1001"]
    static let bob = ["user_id": "gx-user-1002"]

    /// A demo sandbox plus a seed file of `json`.
    static func withSeed<T>(_ json: String, reject: Double = 0, _ body: (Client) async throws -> T) async throws -> T {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("seed.json")
        try Data(json.utf8).write(to: file)
        var configuration = SandboxTest.configuration(seedFile: file, randomSeed: 7)
        configuration.rejectLocationEvents = reject
        return try await SandboxServer.withRunning(configuration) { url in try await body(Client(base: url)) }
    }

    /// Docs, "Accessing User Specific Resources": calls that require a user_id "fail if the user does not have the
    /// connection enabled"; Connections are enabled through IFTTT's own flows.
    @Test func putUserConnectionNeverEnablesAConnection() async throws {
        try await SandboxTest.withDemo { client in
            let empty: JSONValue = ["user_features": []]
            // Carol has no Connection; a bare user token used to switch gx-weekly-deals on for her.
            let carol = try await client.put(
                "/v2/connections/gx-weekly-deals/user_connection", token: SandboxTest.carolToken, json: empty)
            #expect(carol.status == 401)
            // Alice never activated gx-store-visits: the service key cannot enable it for her.
            let never = try await client.put(
                "/v2/connections/gx-store-visits/user_connection", query: Self.alice, serviceKey: Self.key, json: empty)
            #expect(never.status == 404)
            #expect(never.errorCode == "not_found")
            // Bob turned gx-weekly-deals off: a PUT does not turn it back on.
            let off = try await client.put(
                "/v2/connections/gx-weekly-deals/user_connection", query: Self.bob, serviceKey: Self.key, json: empty)
            #expect(off.status == 404)
            let bob = try await client.get("/v2/connections/gx-weekly-deals", token: SandboxTest.bobToken)
            #expect(try bob.json["user_status"] == "disabled")
            #expect(
                try await client.get("/v2/connections/gx-store-visits", token: SandboxTest.aliceToken)
                    .json["user_status"] == "never_enabled")
            // Alice has gx-weekly-deals enabled: her configuration can be replaced.
            let enabled = try await client.put(
                "/v2/connections/gx-weekly-deals/user_connection", query: Self.alice, serviceKey: Self.key, json: empty)
            #expect(enabled.status == 200)
        }
    }

    /// Docs: field options, "Update a Connection" and "Refresh a Connection" are "Service-authenticated with user_id".
    @Test func serviceEndpointsRefuseUserTokens() async throws {
        try await SandboxTest.withDemo { client in
            let token = SandboxTest.aliceToken
            let options = try await client.get(
                "/v2/connections/gx-weekly-deals/triggers/grocery_express.new_weekly_deals/field_options", token: token)
            #expect(options.status == 401)
            let put = try await client.put(
                "/v2/connections/gx-weekly-deals/user_connection", token: token, json: ["user_features": []])
            #expect(put.status == 401)
            let refresh = try await client.post("/v2/connections/gx-weekly-deals/user_connection/refresh", token: token)
            #expect(refresh.status == 401)
            // The service key with alice's user_id works.
            let asService = try await client.post(
                "/v2/connections/gx-weekly-deals/user_connection/refresh", query: Self.alice, serviceKey: Self.key)
            #expect(asService.status == 204)
        }
    }

    /// Docs: "Run an Action", "Perform a Query", "Test Trigger Event Webhook", and the provisional access code.
    @Test func runPerformTestAndProvisionalCodeAnswerAsDocumented() async throws {
        try await SandboxTest.withDemo { client in
            // The run_url the Connection hands out answers.
            let connection = try await client.get(
                "/v2/connections/gx-weekly-deals", query: Self.alice, serviceKey: Self.key)
            let runURL = try #require(
                try connection.json["features"]?[0]?["feature_actions"]?[0]?["run_url"]?.stringValue)
            #expect(runURL.hasSuffix("/v2/connections/gx-weekly-deals/actions/email.send_me_email/run"))
            let runPath = try #require(URL(string: runURL)?.path)
            let run = try await client.post(
                runPath, serviceKey: Self.key,
                body: Data(#"{"user_id": "gx-user-1001", "fields": {"subject": "Hi"}}"#.utf8))
            #expect(run.status == 204)
            #expect(run.data.isEmpty)
            // The docs' examples send user_id as a number; so may a partner whose ids are numbers.
            let noUser = try await client.post(runPath, serviceKey: Self.key, body: Data("{}".utf8))
            #expect(noUser.status == 400)

            let perform = try await client.post(
                "/v2/connections/gx-weekly-deals/queries/grocery_express.list_deals/perform", serviceKey: Self.key,
                body: Data(#"{"user_id": "gx-user-1001", "limit": 1}"#.utf8))
            #expect(perform.status == 200)
            let result = try perform.json
            #expect(result["type"] == "list")
            #expect(result["data"]?.arrayValue?.count == 1)
            let cursor = try #require(result["next"]?["cursor"]?.stringValue)
            #expect(result["next"]?["fields"]?["store"] == "store-923-market")
            let next = try await client.post(
                "/v2/connections/gx-weekly-deals/queries/grocery_express.list_deals/perform", serviceKey: Self.key,
                body: JSONValue.object(["user_id": "gx-user-1001", "limit": 1, "cursor": .string(cursor)])
                    .serializedData())
            #expect(try next.json["data"]?[0]?["id"] == "deal-coffee")
            #expect(try next.json["next"] == nil)
            // A dropdown override must be one of the field options: the docs' own error example.
            let badOption = try await client.post(
                "/v2/connections/gx-weekly-deals/queries/grocery_express.list_deals/perform", serviceKey: Self.key,
                body: Data(#"{"user_id": "gx-user-1001", "fields": {"store": "Cats"}}"#.utf8))
            #expect(badOption.status == 422)
            #expect(try badOption.json["details"]?[0]?["parameter"] == "/fields/store")
            #expect(
                try badOption.json["details"]?[0]?["message"]
                    == "Not a valid option for this field. Use the field options request to get valid options.")

            let test = try await client.post(
                "/v2/connections/gx-weekly-deals/triggers/grocery_express.new_weekly_deals/test", serviceKey: Self.key,
                body: Data(#"{"user_id": "gx-user-1001", "user_feature_id": "alice-deals-feature"}"#.utf8))
            #expect(test.status == 204)
            let dispatches = try await client.get(
                "/sandbox/dispatches", query: ["kind": "trigger_test"], serviceKey: Self.key)
            let webhook = try #require(try dispatches.json["data"]?[0]?["body"])
            #expect(webhook["data"]?["user_feature_trigger_id"] == "alice-deals-trigger-1")
            #expect(webhook["data"]?["trigger_id"] == "grocery_express.new_weekly_deals")

            let code = try await client.post(
                "/v2/provisional_access_code", serviceKey: Self.key, body: Data(#"{"oauth_code": "foo"}"#.utf8))
            #expect(code.status == 201)
            #expect(try code.json["provisional_access_code"]?.stringValue?.isEmpty == false)
            #expect(try await client.post("/v2/provisional_access_code", token: SandboxTest.aliceToken).status == 401)
        }
    }

    /// Docs, "Connect URL": `https://ifttt.com/connect/{id}?email=&redirect_uri=&code=&skip_config=`.
    @Test func theConnectURLStartsTheActivation() async throws {
        try await SandboxTest.withDemo { client in
            let issued = try await client.post(
                "/v2/provisional_access_code", serviceKey: Self.key,
                body: Data(#"{"oauth_code": "gx-oauth-code-alice"}"#.utf8))
            let code = try #require(try issued.json["provisional_access_code"]?.stringValue)
            let query = ["email": "alice@example.com", "redirect_uri": "groceryexpress://ifttt/callback", "code": code]
            let page = try await client.get("/connect/gx-weekly-deals", query: query)
            #expect(page.status == 200)
            #expect(page.contentType?.hasPrefix("text/html") == true)
            let html = String(decoding: page.data, as: UTF8.self)
            #expect(html.contains("/access/api/gx-weekly-deals?"))
            #expect(html.contains("code=gx-oauth-code-alice"))
            #expect(html.contains("sdk_return_to=groceryexpress%3A%2F%2Fifttt%2Fcallback"))
            // The code is single-use: the second time, the user goes through the service's own sign-in.
            let again = String(
                decoding: try await client.get("/connect/gx-weekly-deals", query: query).data, as: UTF8.self)
            #expect(!again.contains("code=gx-oauth-code-alice"))
            #expect(try await client.get("/connect/gx-weekly-deals").status == 400)  // no email
            let unregistered = try await client.get(
                "/connect/gx-weekly-deals",
                query: ["email": "a@example.com", "redirect_uri": "https://evil.example/cb"])
            #expect(unregistered.status == 400)
            let skipWithoutRedirect = try await client.get(
                "/connect/gx-weekly-deals", query: ["email": "a@example.com", "skip_config": "true"])
            #expect(skipWithoutRedirect.status == 400)
        }
    }

    /// The legacy Applet's `embedded_url` and IFTTT/ifttt-api-example's `POST /v1/services/{id}/user_token`.
    @Test func theLegacyEmbedURLAndTokenExchangeAnswer() async throws {
        try await SandboxTest.withDemo { client in
            let applet = try await client.get("/v1/services/grocery_express/applets/gx-weekly-deals")
            let embedded = try #require(try applet.json["embedded_url"]?.stringValue)
            let path = try #require(URL(string: embedded)?.path)
            let page = try await client.get(
                path, query: ["user_id": "gx-user-1001", "redirect_uri": "groceryexpress://ifttt/callback"])
            #expect(page.status == 200)
            #expect(String(decoding: page.data, as: UTF8.self).contains("/access/api/gx-weekly-deals?"))

            let exchange = try await client.post(
                "/v1/services/grocery_express/user_token", serviceKey: Self.key,
                body: Data(#"{"user_id": "gx-user-1001", "token": "gx-access-token-alice"}"#.utf8))
            #expect(exchange.status == 200)
            #expect(try exchange.json["type"] == "user_token")
            let token = try #require(try exchange.json["user_token"]?.stringValue)
            let me = try await client.get("/v1/me", token: token)
            #expect(try me.json["type"] == "me")
            #expect(try me.json["user_login"] == "alice")
        }
    }

    /// Docs: "The redirect_uri must be registered to your service on the IFTTT Platform".
    @Test func redirectsMustBeRegisteredForTheService() async throws {
        let seed = #"""
            {"services": [{"id": "grocery_express", "name": "Grocery Express", "brand_color": "#1BAF5D",
              "service_key": "sandbox-service-key-grocery-express", "redirect_uris": ["myapp://connected"]}]}
            """#
        try await Self.withSeed(seed) { client in
            let registered = try await client.get(
                "/access/api/gx-weekly-deals", query: ["sdk_return_to": "myapp://connected"])
            #expect(registered.status == 200)
            // Loopback is not a free pass any more.
            let loopback = try await client.get(
                "/access/api/gx-weekly-deals", query: ["sdk_return_to": "http://127.0.0.1:4567/cb"])
            #expect(loopback.status == 400)
        }
    }

    /// Docs, "Show a Connection": the example's shapes.
    @Test func responsesHaveTheDocumentedShapes() async throws {
        let pending = #"""
            {"user_connections": [{"user_id": "alice", "connection_id": "gx-store-visits", "pending": true}]}
            """#
        try await Self.withSeed(pending) { client in
            let response = try await client.get("/v2/connections/gx-arrive-store", token: SandboxTest.aliceToken)
            #expect(response.contentType == "application/json; charset=utf-8")
            let json = try response.json
            #expect(json["url"] == "https://ifttt.com/applets/gx-arrive-store")
            let location = try #require(json["services"]?.first(where: "service_id", is: "location"))
            let trigger = try #require(location["triggers"]?[0])
            #expect(trigger["id"] == "enter_region_location")
            #expect(trigger["user_triggers"]?[0]?["fields"]?[0]?["id"] == "location")
            let defaultValue = try #require(
                json["features"]?[0]?["feature_triggers"]?[0]?["fields"]?[0]?["default_value"])
            #expect(defaultValue["latitude"] == "37.784")
            #expect(defaultValue["longitude"] == "-122.4075")
            #expect(defaultValue["lat"] == nil)

            // A Connection enabled with skip_config shows no sandbox-only `pending` member.
            let visits = try await client.get("/v2/connections/gx-store-visits", token: SandboxTest.aliceToken)
            #expect(try visits.json["user_status"] == "enabled")
            #expect(try visits.json["user_connection"]?["pending"] == nil)

            // Error details name parameters as JSON pointers, as the docs' example does.
            let invalid = try await client.put(
                "/v2/connections/gx-weekly-deals/user_connection", query: Self.alice, serviceKey: Self.key,
                json: ["user_features": [["feature_id": "nope"]]])
            #expect(invalid.status == 422)
            #expect(try invalid.json["details"]?[0]?["parameter"] == "/user_features/0/feature_id")
        }
    }

    /// IFTTT documents no refusal of an event whose trigger subscription is gone; refusals are the opt-in fault.
    @Test func aStaleTriggerSubscriptionDoesNotFailTheBatch() async throws {
        func event(_ subscription: String) -> JSONValue {
            [
                "record_id": .string(UUID().uuidString), "region_type": "geo",
                "occurred_at": "2026-05-01T09:00:00+0000",
                "event_type": "entry", "channel_id": "941030000", "trigger_subscription_id": .string(subscription),
                "installation_id": "install-1",
            ]
        }
        let batch = JSONValue.array([event("alice-arrive-trigger-1"), event("a-reconfigured-subscription")])
        try await SandboxTest.withDemo { client in
            let upload = try await client.post(
                "/v1/location_events", token: SandboxTest.aliceToken, body: batch.serializedData())
            #expect(upload.status == 200)
            let listed = try await client.get("/v1/location_events", token: SandboxTest.aliceToken)
            #expect(try listed.json["data"]?.arrayValue?.count == 1)
        }
        try await Self.withSeed("{}", reject: 0.000_001) { client in
            let upload = try await client.post(
                "/v1/location_events", token: SandboxTest.aliceToken, body: batch.serializedData())
            #expect(upload.status == 422)
            #expect(try upload.json["details"]?[0]?["parameter"] == "/1/trigger_subscription_id")
        }
    }
}
