import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK

extension LocationTrip {
    /// Configures gx-store-visits for the Grocery Express user `userId`, who has it enabled (Connections are enabled
    /// only through the activation flow), as the partner's backend does: `PUT /v2/connections/gx-store-visits/
    /// user_connection?user_id=` with the service key (the area at 1 Van Ness Ave, r=200 m, entry and exit).
    /// Returns the trigger subscription id.
    static func configureStoreVisits(
        root: URL, userId: String = "gx-user-1001", serviceKey: String = "sandbox-service-key-grocery-express"
    ) async throws -> String {
        let body = #"""
            {"user_features": [{"feature_id": "store-visit-log", "enabled": true, "user_fields": [],
              "user_feature_triggers": [{"feature_trigger_id": "ft-store-visit", "user_fields": [{"field_id": "location",
                "value": {"lat": 37.7765, "lng": -122.4172, "radius": 200, "address": "1 Van Ness Ave, San Francisco"}}]}],
              "user_feature_actions": [{"feature_action_id": "fa-log-visit", "user_fields": []}]}]}
            """#
        var url = URLComponents(
            url: root.appendingPathComponent("v2/connections/gx-store-visits/user_connection"),
            resolvingAgainstBaseURL: false)!
        url.queryItems = [URLQueryItem(name: "user_id", value: userId)]
        let request = HTTPRequest(
            method: "PUT", url: url.url!,
            headers: [
                "IFTTT-Service-Key": serviceKey, "Content-Type": "application/json", "Accept": "application/json",
            ],
            body: Data(body.utf8))
        let response = try await URLSessionTransport().send(request)
        guard response.statusCode == 200 else {
            throw LocationTripFailure("PUT user_connection of gx-store-visits answered \(response.statusCode)")
        }
        struct Reply: Decodable {
            struct UserConnection: Decodable {
                struct Feature: Decodable {
                    struct Trigger: Decodable { var id: String }
                    var user_feature_triggers: [Trigger]
                }
                var user_features: [Feature]
            }
            var user_connection: UserConnection
        }
        let reply = try JSONDecoder().decode(Reply.self, from: response.body)
        guard let id = reply.user_connection.user_features.first?.user_feature_triggers.first?.id else {
            throw LocationTripFailure("the user connection of gx-store-visits has no trigger subscription")
        }
        return id
    }
}

extension DemoScript {
    /// Step 7: Grocery Express configures alice's gx-store-visits (which she turned on in step 5), she walks across
    /// both demo geofences (the route of
    /// `Sandbox/Examples/store-trip.gpx`), and the sandbox records exactly the expected events, once each, in order.
    func locationTripSteps(_ steps: DemoSteps) async {
        steps.section("7. Location: a simulated trip across the demo geofences")
        let token = alice.userToken ?? ""
        var subscription: String?
        await steps.check("Grocery Express configures alice's gx-store-visits") {
            let visits = try await LocationTrip.configureStoreVisits(root: root)
            subscription = visits
            return "trigger subscription \(visits)"
        }
        guard let visits = subscription else { return }
        await steps.check("simulated trip") {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "ifttt-connect-demo-trip-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let trip = LocationTrip(
                root: root, token: token, connectionIds: ["gx-arrive-store", "gx-store-visits"],
                route: try Route(gpx: Data(LocationTrip.demoGPX.utf8)), storeDirectory: directory)
            let outcome = try await trip.run(log: { say("    \($0)") })
            let got = outcome.acknowledged.map { "\($0.triggerSubscriptionId) \($0.eventType)" }
            let expected = ["\(visits) entry", "\(visits) exit", "alice-arrive-trigger-1 entry"]
            try expect(got == expected, "expected \(expected), the sandbox recorded \(got)")
            return "the sandbox recorded exactly \(got.joined(separator: ", ")), once each, in order"
        }
    }
}
