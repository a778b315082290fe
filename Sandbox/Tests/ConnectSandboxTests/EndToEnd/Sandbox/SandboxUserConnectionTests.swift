import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

@Suite("Sandbox: field options, PUT user_connection, refresh")
struct SandboxUserConnectionTests {
    static let alice = ["user_id": "gx-user-1001"]
    static let key = SandboxTest.serviceKey

    @Test func fieldOptions() async throws {
        try await SandboxTest.withDemo { client in
            let path = "/v2/connections/gx-weekly-deals/triggers/grocery_express.new_weekly_deals/field_options"
            let response = try await client.get(path, query: Self.alice, serviceKey: Self.key)
            #expect(response.status == 200)
            let json = try response.json
            #expect(json["type"] == "field_options")
            let stores = try #require(json["options"]?["store"]?.arrayValue)
            #expect(stores.count == 3)
            #expect(stores[0] == ["group": "San Francisco", "label": "923 Market St", "value": "store-923-market"])

            // Bob turned the Connection off: calls that need a user_id fail (docs, "Accessing User Specific Resources").
            let bob = try await client.get(path, query: ["user_id": "gx-user-1002"], serviceKey: Self.key)
            #expect(bob.status == 404)

            let noOptions = try await client.get(
                "/v2/connections/gx-weekly-deals/actions/email.send_me_email/field_options", query: Self.alice,
                serviceKey: Self.key)
            #expect(noOptions.status == 200)
            #expect(try noOptions.json["options"] == .object([:]))

            let feature = try await client.get(
                "/v2/connections/gx-weekly-deals/features/weekly-deals-email/field_options", query: Self.alice,
                serviceKey: Self.key)
            #expect(feature.status == 200)

            #expect(try await client.get(path).status == 401)
            let unknownStep = try await client.get(
                "/v2/connections/gx-weekly-deals/triggers/grocery_express.nope/field_options", query: Self.alice,
                serviceKey: Self.key)
            #expect(unknownStep.status == 404)
            #expect(unknownStep.errorCode == "not_found")
            // A trigger id under /actions/ is unknown too.
            let wrongKind = try await client.get(
                "/v2/connections/gx-weekly-deals/actions/grocery_express.new_weekly_deals/field_options",
                query: Self.alice, serviceKey: Self.key)
            #expect(wrongKind.status == 404)
        }
    }

    /// Alice's configuration of gx-store-visits: the area at 1 Van Ness Ave.
    static let visits: JSONValue = [
        "user_features": [
            [
                "feature_id": "store-visit-log",
                "enabled": true,
                "user_fields": [],
                "user_feature_triggers": [
                    [
                        "feature_trigger_id": "ft-store-visit",
                        "user_fields": [
                            [
                                "field_id": "location",
                                "value": [
                                    "lat": 37.7765, "lng": -122.4172, "radius": 200, "address": "1 Van Ness Ave",
                                ],
                            ]
                        ],
                    ]
                ],
            ]
        ]
    ]

    @Test func putConfiguresAConnectionEnabledWithoutConfiguration() async throws {
        try await SandboxTest.withDemo(pending: [("alice", "gx-store-visits")]) { client in
            let path = "/v2/connections/gx-store-visits/user_connection"
            let response = try await client.put(path, query: Self.alice, serviceKey: Self.key, json: Self.visits)
            #expect(response.status == 200)
            let json = try response.json
            #expect(json["user_status"] == "enabled")
            #expect(json["enabled_count"] == 1)
            let userFeature = try #require(json["user_connection"]?["user_features"]?[0])
            #expect(userFeature["feature_id"] == "store-visit-log")
            let featureId = try #require(userFeature["id"]?.stringValue)
            #expect(UUID(uuidString: featureId) != nil)
            let location = try #require(userFeature["user_feature_triggers"]?[0]?["user_fields"]?[0])
            #expect(location["field_type"] == "LOCATION_ENTER_AND_EXIT")
            #expect(location["value"]?["lat"] == 37.7765)
            // The action the body omits is configured too.
            #expect(userFeature["user_feature_actions"]?[0]?["feature_action_id"] == "fa-log-visit")
            let triggerId = try #require(userFeature["user_feature_triggers"]?[0]?["id"]?.stringValue)

            // A second PUT keeps the ids of the feature and of the trigger subscription.
            let again = try await client.put(path, query: Self.alice, serviceKey: Self.key, json: Self.visits)
            let againFeature = try #require(try again.json["user_connection"]?["user_features"]?[0])
            #expect(againFeature["id"]?.stringValue == featureId)
            #expect(againFeature["user_feature_triggers"]?[0]?["id"]?.stringValue == triggerId)

            let fetched = try await client.get("/v2/connections/gx-store-visits", token: SandboxTest.aliceToken)
            #expect(try fetched.json["user_connection"]?["user_features"]?[0]?["id"]?.stringValue == featureId)
        }
    }

    @Test func putKeepsTheStoredDropdownOption() async throws {
        try await SandboxTest.withDemo { client in
            let body: JSONValue = [
                "user_features": [
                    [
                        "feature_id": "weekly-deals-email",
                        "enabled": true,
                        "user_feature_triggers": [
                            [
                                "feature_trigger_id": "ft-weekly-deals",
                                "user_fields": [["field_id": "store", "value": "store-2001-mission"]],
                            ]
                        ],
                        "user_feature_queries": [
                            [
                                "feature_query_id": "fq-list-deals",
                                "user_fields": [["field_id": "store", "value": "store-2001-mission"]],
                            ]
                        ],
                        "user_feature_actions": [
                            [
                                "feature_action_id": "fa-email-deals",
                                "user_fields": [["field_id": "subject", "value": "Deals!"]],
                            ]
                        ],
                    ]
                ]
            ]
            let response = try await client.put(
                "/v2/connections/gx-weekly-deals/user_connection", query: Self.alice, serviceKey: Self.key, json: body)
            #expect(response.status == 200)
            let userFeature = try #require(try response.json["user_connection"]?["user_features"]?[0])
            #expect(userFeature["id"] == "alice-deals-feature")
            let store = try #require(userFeature["user_feature_triggers"]?[0]?["user_fields"]?[0])
            #expect(store["field_type"] == "COLLECTION_SELECT")
            // A plain option value becomes the full option.
            #expect(
                store["value"] == ["group": "San Francisco", "label": "2001 Mission St", "value": "store-2001-mission"])
            let subject = try #require(userFeature["user_feature_actions"]?[0]?["user_fields"]?[0])
            #expect(subject == ["field_id": "subject", "field_type": "TEXT_FIELD", "value": "Deals!"])
        }
    }

    @Test func putKeepsExistingIdsAndNeverReEnables() async throws {
        try await SandboxTest.withDemo { client in
            let body: JSONValue = [
                "user_features": [
                    [
                        "feature_id": "arrive-show-list",
                        "enabled": true,
                        "user_feature_triggers": [
                            [
                                "feature_trigger_id": "ft-arrive-store",
                                "user_fields": [
                                    [
                                        "field_id": "location",
                                        "value": [
                                            "latitude": 40.0, "longitude": -74.0, "radius": 300,
                                            "address": "Elsewhere",
                                        ],
                                    ]
                                ],
                            ]
                        ],
                    ]
                ]
            ]
            let response = try await client.put(
                "/v2/connections/gx-arrive-store/user_connection", query: ["user_id": "gx-user-1001"],
                serviceKey: SandboxTest.serviceKey, json: body)
            #expect(response.status == 200)
            let json = try response.json
            #expect(json["user_status"] == "enabled")
            let userFeature = try #require(json["user_connection"]?["user_features"]?[0])
            #expect(userFeature["id"] == "alice-arrive-feature")
            let trigger = try #require(userFeature["user_feature_triggers"]?[0])
            #expect(trigger["id"] == "alice-arrive-trigger-1")
            let value = try #require(trigger["user_fields"]?[0]?["value"])
            #expect(value["lat"] == 40)
            #expect(value["lng"] == -74)
            #expect(trigger["user_fields"]?[0]?["field_type"] == "LOCATION_ENTER")
            // The action was omitted in the body but is still configured, with its old id.
            #expect(userFeature["user_feature_actions"]?[0]?["id"] == "alice-arrive-action-1")

            // Once alice turns the Connection off, a PUT does not turn it back on.
            _ = try await client.post("/v2/connections/gx-arrive-store/disable", token: SandboxTest.aliceToken)
            let off = try await client.put(
                "/v2/connections/gx-arrive-store/user_connection", query: Self.alice, serviceKey: Self.key, json: body)
            #expect(off.status == 404)
            #expect(
                try await client.get("/v2/connections/gx-arrive-store", token: SandboxTest.aliceToken)
                    .json["user_status"] == "disabled")
        }
    }

    @Test func putValidation() async throws {
        try await SandboxTest.withDemo { client in
            let path = "/v2/connections/gx-weekly-deals/user_connection"
            let malformed = try await client.request(
                "PUT", path, query: Self.alice, serviceKey: Self.key, body: Data("{nope".utf8))
            #expect(malformed.status == 400)
            #expect(malformed.errorCode == "invalid_parameters")

            let wrongShape = try await client.put(
                path, query: Self.alice, serviceKey: Self.key, json: ["user_features": "x"])
            #expect(wrongShape.status == 400)

            let unknownFeature = try await client.put(
                path, query: Self.alice, serviceKey: Self.key, json: ["user_features": [["feature_id": "nope"]]])
            #expect(unknownFeature.status == 422)
            #expect(unknownFeature.errorCode == "invalid_parameters")
            #expect(try unknownFeature.json["details"]?[0]?["parameter"] == "/user_features/0/feature_id")

            let missingRequired = try await client.put(
                path, query: Self.alice, serviceKey: Self.key,
                json: ["user_features": [["feature_id": "weekly-deals-email", "enabled": true]]])
            #expect(missingRequired.status == 422)
            let details = try #require(try missingRequired.json["details"]?.arrayValue)
            #expect(details.contains { $0["message"]?.stringValue?.contains("\"store\"") == true })

            let unknownField = try await client.put(
                path, query: Self.alice, serviceKey: Self.key,
                json: [
                    "user_features": [
                        [
                            "feature_id": "weekly-deals-email",
                            "user_feature_triggers": [
                                [
                                    "feature_trigger_id": "ft-weekly-deals",
                                    "user_fields": [
                                        ["field_id": "store", "value": "store-923-market"],
                                        ["field_id": "color", "value": "red"],
                                    ],
                                ]
                            ],
                        ]
                    ]
                ])
            #expect(unknownField.status == 422)
            #expect(
                try unknownField.json["details"]?[0]?["parameter"]
                    == "/user_features/0/user_feature_triggers/0/user_fields/1/field_id")

            let unknownStep = try await client.put(
                path, query: Self.alice, serviceKey: Self.key,
                json: [
                    "user_features": [
                        [
                            "feature_id": "weekly-deals-email",
                            "user_feature_triggers": [["feature_trigger_id": "ft-nope"]],
                        ]
                    ]
                ])
            #expect(unknownStep.status == 422)

            let badOption = try await client.put(
                path, query: Self.alice, serviceKey: Self.key,
                json: [
                    "user_features": [
                        [
                            "feature_id": "weekly-deals-email",
                            "user_feature_triggers": [
                                [
                                    "feature_trigger_id": "ft-weekly-deals",
                                    "user_fields": [["field_id": "store", "value": "store-moon"]],
                                ]
                            ],
                        ]
                    ]
                ])
            #expect(badOption.status == 422)

            // Alice's configuration is unchanged.
            let alice = try await client.get("/v2/connections/gx-weekly-deals", token: SandboxTest.aliceToken)
            #expect(
                try alice.json["user_connection"]?["user_features"]?[0]?["user_feature_triggers"]?[0]?["user_fields"]?[
                    0]?[
                        "value"]?["value"] == "store-923-market")
        }
    }

    @Test func putAuthorization() async throws {
        try await SandboxTest.withDemo { client in
            let path = "/v2/connections/gx-weekly-deals/user_connection"
            let empty: JSONValue = ["user_features": []]
            #expect(try await client.put(path, json: empty).status == 401)
            #expect(try await client.put(path, token: "bad", json: empty).status == 401)
            #expect(try await client.put(path, token: SandboxTest.aliceToken, json: empty).status == 401)
            #expect(try await client.put(path, serviceKey: "bad", json: empty).status == 401)
            let noUserId = try await client.put(path, serviceKey: Self.key, json: empty)
            #expect(noUserId.status == 400)
            let unlinked = try await client.put(
                path, query: ["user_id": "gx-user-1003"], serviceKey: Self.key, json: empty)
            #expect(unlinked.status == 404)
            let neverEnabled = try await client.put(
                "/v2/connections/gx-early-access/user_connection", query: Self.alice, serviceKey: Self.key, json: empty)
            #expect(neverEnabled.status == 404)
        }
    }

    @Test func refresh() async throws {
        try await SandboxTest.withDemo { client in
            let path = "/v2/connections/gx-weekly-deals/user_connection/refresh"
            let byService = try await client.post(path, query: Self.alice, serviceKey: Self.key)
            #expect(byService.status == 204)
            #expect(byService.data.isEmpty)
            #expect(try await client.post(path, token: SandboxTest.aliceToken).status == 401)
            #expect(try await client.post(path).status == 401)
            // Bob has the Connection turned off.
            #expect(try await client.post(path, query: ["user_id": "gx-user-1002"], serviceKey: Self.key).status == 404)
        }
    }
}
