import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// Issue 11 item 5: every key of the spec's tables of what ConnectSDK-iOS 2.8 reads (connect-sdk-ios.md §1.5
/// Connection, Service, Feature; §4.1 user configuration) is removed in turn from a complete payload. Where 2.8
/// still produces the Connection (the key is optional, not read at all, or only leaves out the element that
/// lacks it), this SDK must decode it too.
@Suite("Decoding accepts whatever ConnectSDK-iOS 2.8 accepts")
struct DecodingTableTests {
    /// What ConnectSDK-iOS 2.8 does when the key is removed.
    enum Original: CustomStringConvertible {
        /// The Connection still decodes (maybe without the element that lacked the key).
        case decodes
        /// The Connection fails to decode.
        case fails
        var description: String { self == .decodes ? "decodes" : "fails" }
    }

    struct Row: CustomStringConvertible, Sendable {
        /// Path of the key to remove: object keys and array indices.
        let path: [PathComponent]
        let original: Original
        /// Whether this SDK decodes it (it may accept more than 2.8, never less).
        let decodes: Bool

        init(_ path: [PathComponent], _ original: Original, ours decodes: Bool? = nil) {
            self.path = path
            self.original = original
            self.decodes = decodes ?? (original == .decodes)
        }

        var description: String {
            path.map { component in
                switch component {
                case .key(let key): return "." + key
                case .index(let index): return "[\(index)]"
                }
            }.joined()
        }
    }

    enum PathComponent: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case key(String)
        case index(Int)
        init(stringLiteral value: String) { self = .key(value) }
        init(integerLiteral value: Int) { self = .index(value) }
    }

    static let primary: [PathComponent] = ["services", 0]
    static let partner: [PathComponent] = ["services", 1]
    static let feature: [PathComponent] = ["features", 0]
    static let featureTrigger: [PathComponent] = feature + ["feature_triggers", 0]
    static let featureField: [PathComponent] = featureTrigger + ["fields", 0]
    static let userFeature: [PathComponent] = ["user_connection", "user_features", 0]
    static let userTrigger: [PathComponent] = userFeature + ["user_feature_triggers", 0]
    static let userField: [PathComponent] = userTrigger + ["user_fields", 0]

    /// The table: §1.5 (Connection, Service, cover image, value propositions, Feature) and §4.1.
    static let rows: [Row] = [
        // Connection (§1.5). 2.8 requires id, name, description, url, a primary service and a known `type`.
        Row(["id"], .fails),
        Row(["name"], .fails),
        Row(["description"], .fails, ours: true),  // this SDK reads a missing description as ""
        Row(["url"], .fails),
        Row(["type"], .fails, ours: true),  // this SDK reads an object without type as a Connection
        Row(["services"], .fails),
        Row(["user_status"], .decodes),
        Row(["cover_image"], .decodes),
        Row(["cover_image", "480w_url"], .decodes),
        Row(["cover_image", "1440w_url"], .decodes),
        Row(["value_propositions"], .decodes),
        Row(["value_propositions", 0, "description"], .decodes),
        Row(["value_propositions", 0, "icon_url"], .decodes),
        Row(["features"], .decodes),
        Row(["user_connection"], .decodes),
        Row(["enabled_count"], .decodes),
        Row(["embedded_url"], .decodes),
        // The primary service: 2.8 leaves out a service missing a required key, and then has no primary.
        Row(primary + ["service_id"], .fails),
        Row(primary + ["service_name"], .fails),
        Row(primary + ["service_short_name"], .fails, ours: true),  // falls back to the name
        Row(primary + ["monochrome_icon_url"], .fails, ours: true),  // templateIconURL falls back
        Row(primary + ["brand_color"], .fails, ours: true),  // no brand colour
        Row(primary + ["url"], .fails, ours: true),  // url falls back to https://ifttt.com/<id>
        Row(primary + ["is_primary"], .fails),
        Row(primary + ["color_icon_url"], .decodes),
        // A non-primary service: 2.8 leaves it out and keeps the Connection.
        Row(partner + ["service_id"], .decodes),
        Row(partner + ["service_name"], .decodes),
        Row(partner + ["service_short_name"], .decodes),
        Row(partner + ["monochrome_icon_url"], .decodes),
        Row(partner + ["brand_color"], .decodes),
        Row(partner + ["url"], .decodes),
        Row(partner + ["is_primary"], .decodes),
        // Feature: 2.8 leaves out a feature without title or icon_url.
        Row(feature + ["title"], .decodes),
        Row(feature + ["icon_url"], .decodes),
        Row(feature + ["description"], .decodes),
        Row(feature + ["id"], .decodes),
        Row(feature + ["feature_triggers"], .decodes),
        Row(featureTrigger + ["id"], .decodes),
        Row(featureTrigger + ["trigger_id"], .decodes),
        Row(featureTrigger + ["fields"], .decodes),
        Row(featureField + ["id"], .decodes),
        Row(featureField + ["default_value"], .decodes),
        Row(featureField + ["default_value", "lat"], .decodes),
        Row(featureField + ["default_value", "lng"], .decodes),
        Row(featureField + ["default_value", "radius"], .decodes),
        // User configuration (§4.1).
        Row(["user_connection", "user_features"], .decodes),
        Row(userFeature + ["id"], .decodes),
        Row(userFeature + ["feature_id"], .decodes),
        Row(userFeature + ["enabled"], .decodes),
        Row(userFeature + ["user_feature_triggers"], .decodes),
        Row(userTrigger + ["id"], .decodes),
        Row(userTrigger + ["feature_trigger_id"], .decodes),
        Row(userTrigger + ["user_fields"], .decodes),
        Row(userField + ["field_id"], .decodes),
        Row(userField + ["field_type"], .decodes),
        Row(userField + ["value"], .decodes),
        Row(userField + ["value", "lat"], .decodes),
        Row(userField + ["value", "lng"], .decodes),
        Row(userField + ["value", "radius"], .decodes),
    ]

    static func location(_ lat: Double, _ lng: Double, _ radius: Double) -> [String: Any] {
        ["lat": lat, "lng": lng, "radius": radius, "address": "1 Main St", "description": "Store", "zoom": 15]
    }

    static func userTrigger(_ id: String, _ stepId: String, _ lat: Double) -> [String: Any] {
        [
            "id": id, "feature_trigger_id": stepId,
            "user_fields": [
                ["field_id": "location", "field_type": "LOCATION_ENTER", "value": location(lat, -122.4, 150)]
            ],
        ]
    }

    /// A complete payload with every key of the tables: two services, a feature with a location trigger,
    /// and an enabled user feature with three location triggers.
    static func payload() -> [String: Any] {
        [
            "type": "connection", "id": "gx-arrive-store", "name": "Show my list", "description": "When I arrive",
            "url": "https://ifttt.com/connect/gx-arrive-store", "user_status": "enabled", "enabled_count": 12,
            "embedded_url": "https://ifttt.com/embed/gx",
            "services": [
                [
                    "service_id": "grocery_express", "service_name": "Grocery Express", "service_short_name": "Grocery",
                    "is_primary": true, "monochrome_icon_url": "https://assets.example/gx-mono.png",
                    "color_icon_url": "https://assets.example/gx.png", "brand_color": "#1BAF5D",
                    "url": "https://ifttt.com/grocery_express",
                ],
                [
                    "service_id": "location", "service_name": "Location", "service_short_name": "Location",
                    "is_primary": false, "monochrome_icon_url": "https://assets.example/loc-mono.png",
                    "brand_color": "#0099FF", "url": "https://ifttt.com/location",
                ],
            ],
            "cover_image": [
                "480w_url": "https://assets.example/c480.png", "1440w_url": "https://assets.example/c1440.png",
            ],
            "value_propositions": [
                ["description": "Your list at the door", "icon_url": "https://assets.example/vp.png"]
            ],
            "features": [
                [
                    "id": "feature-1", "title": "Arrive", "description": "Show the list",
                    "icon_url": "https://assets.example/f.png",
                    "feature_triggers": [
                        [
                            "id": "ft-1", "trigger_id": "enter_region", "service_id": "location",
                            "fields": [
                                [
                                    "id": "location", "type": "LOCATION_ENTER",
                                    "default_value": location(37.78, -122.41, 100),
                                ]
                            ],
                        ]
                    ],
                ]
            ],
            "user_connection": [
                "user_features": [
                    [
                        "id": "uf-1", "feature_id": "feature-1", "enabled": true,
                        "user_feature_triggers": [
                            userTrigger("ut-1", "ft-1", 37.70), userTrigger("ut-2", "ft-1", 37.71),
                            userTrigger("ut-3", "ft-1", 37.72),
                        ],
                    ]
                ]
            ],
        ]
    }

    static func removing(_ path: [PathComponent], from value: Any) -> Any {
        guard let first = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch first {
        case .key(let key):
            guard var object = value as? [String: Any] else { return value }
            if rest.isEmpty {
                object.removeValue(forKey: key)
            } else if let child = object[key] {
                object[key] = removing(rest, from: child)
            }
            return object
        case .index(let index):
            guard var array = value as? [Any], array.indices.contains(index) else { return value }
            array[index] = removing(rest, from: array[index])
            return array
        }
    }

    static func data(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    }

    @Test func theCompletePayloadDecodesWithEveryPart() throws {
        let connection = try Connection.decode(from: Self.data(Self.payload()))
        #expect(connection.services.count == 2)
        #expect(connection.features.first?.triggers.first?.fields.first?.id == "location")
        #expect(connection.userConnection?.userFeatures.first?.triggers.count == 3)
        #expect(connection.locationRegions.count == 3)
    }

    @Test(arguments: rows)
    func removingAKeyDecodesWhereTheOriginalDoes(_ row: Row) throws {
        let data = try Self.data(Self.removing(row.path, from: Self.payload()))
        let result = Result { () throws(ConnectDecodingError) -> Connection in try Connection.decode(from: data) }
        if row.original == .decodes {
            #expect(row.decodes, "\(row): the table must not expect a failure where 2.8 decodes")
        }
        switch result {
        case .success:
            #expect(row.decodes, "\(row) decodes, but the table says this SDK fails like 2.8 (\(row.original))")
        case .failure(let error):
            #expect(!row.decodes, "\(row): 2.8 \(row.original), this SDK fails: \(error)")
        }
    }

    /// The case of the issue: user triggers without `feature_trigger_id` (2.8 reads only `id`) keep their 3
    /// geofences.
    @Test func userTriggersWithoutFeatureTriggerIdKeepTheirGeofences() throws {
        var payload = Self.payload()
        for index in 0..<3 {
            payload =
                Self.removing(
                    Self.userFeature + ["user_feature_triggers", .index(index), "feature_trigger_id"],
                    from: payload) as? [String: Any] ?? [:]
        }
        let connection = try Connection.decode(from: Self.data(payload))
        let triggers = try #require(connection.userConnection?.userFeatures.first?.triggers)
        #expect(triggers.map(\.id) == ["ut-1", "ut-2", "ut-3"])
        #expect(triggers.allSatisfy { $0.featureStepId == nil && $0.stepId.isEmpty })
        #expect(connection.locationRegions.map(\.identifier) == ["ifttt_ut-1", "ifttt_ut-2", "ifttt_ut-3"])
    }

    /// Elements 2.8 leaves out are left out here too, and the rest of the Connection is intact.
    @Test func incompleteElementsAreLeftOutAndTheRestKept() throws {
        let withoutPartnerId = try Connection.decode(
            from: Self.data(Self.removing(Self.partner + ["service_id"], from: Self.payload())))
        #expect(withoutPartnerId.services.map(\.id) == ["grocery_express"])
        let withoutTitle = try Connection.decode(
            from: Self.data(Self.removing(Self.feature + ["title"], from: Self.payload())))
        #expect(withoutTitle.features.isEmpty)
        #expect(withoutTitle.locationRegions.count == 3)
        let withoutUserTriggerId = try Connection.decode(
            from: Self.data(Self.removing(Self.userTrigger + ["id"], from: Self.payload())))
        #expect(withoutUserTriggerId.userConnection?.userFeatures.first?.triggers.map(\.id) == ["ut-2", "ut-3"])
        let primaryWithoutId = Self.removing(Self.primary + ["service_id"], from: Self.payload())
        #expect(throws: ConnectDecodingError(path: "$.services[0]", reason: .missingKey("service_id"))) {
            try Connection.decode(from: Self.data(primaryWithoutId))
        }
    }
}
