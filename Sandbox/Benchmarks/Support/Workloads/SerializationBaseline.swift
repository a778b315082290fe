import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The original SDK's approach, for comparison: `JSONSerialization` into `[String: Any]`, then a
/// hand-written walk of the dictionaries that builds the same model values.
public enum SerializationBaseline {
    struct Failure: Error {}

    /// Decodes `data` with `JSONSerialization`, then walks the dictionaries into the SDK's `Connection`.
    public static func decode(_ data: Data) throws -> Connection {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw Failure() }
        guard let id = root["id"] as? String, let name = root["name"] as? String,
            let urlText = root["url"] as? String, let url = URL(string: urlText)
        else { throw Failure() }
        let services = try (root["services"] as? [[String: Any]] ?? []).map(service)
        var covers: [Connection.CoverImage] = []
        if let cover = root["cover_image"] as? [String: Any] {
            for (key, value) in cover {
                if key.hasSuffix("w_url"), let width = Int(key.dropLast(5)), let text = value as? String,
                    let u = URL(string: text)
                {
                    covers.append(.init(width: width, url: u))
                }
            }
        }
        let features = try (root["features"] as? [[String: Any]] ?? []).map(feature)
        var userConnection: UserConnection?
        if let uc = root["user_connection"] as? [String: Any] {
            userConnection = UserConnection(
                userFeatures: try (uc["user_features"] as? [[String: Any]] ?? []).map(userFeature))
        }
        let status: Connection.Status
        switch root["user_status"] as? String {
        case "never_enabled": status = .initial
        case "enabled": status = .enabled
        case "disabled": status = .disabled
        default: status = .unknown
        }
        return try Connection(
            id: id, name: name, description: root["description"] as? String ?? "", url: url,
            status: status, services: services, coverImages: covers,
            features: features, userConnection: userConnection,
            enabledCount: root["enabled_count"] as? Int)
    }

    static func string(_ any: Any?) -> String? {
        if let s = any as? String { return s }
        if let n = any as? NSNumber { return n.stringValue }
        return nil
    }

    static func double(_ any: Any?) -> Double? {
        if let s = any as? String { return Double(s) }
        if let n = any as? NSNumber { return n.doubleValue }
        return nil
    }

    static func bool(_ any: Any?) -> Bool? {
        if let b = any as? Bool { return b }
        if let s = any as? String { return s == "true" ? true : (s == "false" ? false : nil) }
        return nil
    }

    static func service(_ d: [String: Any]) throws -> Connection.Service {
        guard let id = d["service_id"] as? String, let name = d["service_name"] as? String else { throw Failure() }
        return Connection.Service(
            id: id, name: name, shortName: d["service_short_name"] as? String,
            isPrimary: bool(d["is_primary"]) ?? false,
            monochromeIconURL: (d["monochrome_icon_url"] as? String).flatMap(URL.init(string:)),
            colorIconURL: (d["color_icon_url"] as? String).flatMap(URL.init(string:)),
            brandColor: (d["brand_color"] as? String).flatMap(ConnectColor.init(hex:)),
            url: (d["url"] as? String).flatMap(URL.init(string:)))
    }

    static func feature(_ d: [String: Any]) throws -> Connection.Feature {
        guard let title = d["title"] as? String else { throw Failure() }
        func steps(_ key: String, _ kind: Connection.Step.Kind, _ typeKey: String) throws -> [Connection.Step] {
            try (d[key] as? [[String: Any]] ?? []).map { s in
                guard let id = string(s["id"]) else { throw Failure() }
                return Connection.Step(
                    kind: kind, id: id, typeId: string(s[typeKey]) ?? "",
                    serviceId: string(s["service_id"]) ?? "", label: s["label"] as? String,
                    fieldOptionsURL: (s["field_options_url"] as? String).flatMap(URL.init(string:)),
                    runURL: (s["run_url"] as? String).flatMap(URL.init(string:)),
                    fields: try (s["fields"] as? [[String: Any]] ?? []).map(field))
            }
        }
        return Connection.Feature(
            id: string(d["id"]) ?? "", title: title, description: d["description"] as? String,
            iconURL: (d["icon_url"] as? String).flatMap(URL.init(string:)),
            fieldOptionsURL: (d["field_options_url"] as? String).flatMap(URL.init(string:)),
            fields: try (d["fields"] as? [[String: Any]] ?? []).map(field),
            triggers: try steps("feature_triggers", .trigger, "trigger_id"),
            queries: try steps("feature_queries", .query, "query_id"),
            actions: try steps("feature_actions", .action, "action_id"))
    }

    static func field(_ d: [String: Any]) throws -> Connection.Field {
        guard let id = string(d["id"]) else { throw Failure() }
        let type = (d["type"] as? String).map(FieldType.init(rawValue:))
        return Connection.Field(
            id: id, label: d["label"] as? String, type: type,
            isRequired: bool(d["required"]) ?? false, isHidden: bool(d["hidden"]) ?? false,
            defaultValue: d["default_value"].flatMap { value($0) })
    }

    static func value(_ any: Any) -> FieldValue? {
        if let s = any as? String { return .string(s) }
        if let d = any as? [String: Any] {
            if let lat = double(d["lat"] ?? d["latitude"]), let lng = double(d["lng"] ?? d["longitude"]) {
                return .location(
                    LocationValue(
                        latitude: lat, longitude: lng, radius: double(d["radius"]),
                        address: d["address"] as? String, description: d["description"] as? String,
                        zoom: double(d["zoom"])))
            }
        }
        return nil
    }

    static func userFeature(_ d: [String: Any]) throws -> UserFeature {
        guard let id = string(d["id"]), let featureId = string(d["feature_id"]) else { throw Failure() }
        func steps(_ key: String, _ stepKey: String) throws -> [UserFeatureStep] {
            try (d[key] as? [[String: Any]] ?? []).map { s in
                guard let id = string(s["id"]), let stepId = string(s[stepKey]) else { throw Failure() }
                return UserFeatureStep(
                    id: id, stepId: stepId, userFields: try (s["user_fields"] as? [[String: Any]] ?? []).map(userField))
            }
        }
        return UserFeature(
            id: id, featureId: featureId, isEnabled: bool(d["enabled"]) ?? true,
            userFields: try (d["user_fields"] as? [[String: Any]] ?? []).map(userField),
            triggers: try steps("user_feature_triggers", "feature_trigger_id"),
            queries: try steps("user_feature_queries", "feature_query_id"),
            actions: try steps("user_feature_actions", "feature_action_id"))
    }

    static func userField(_ d: [String: Any]) throws -> UserField {
        guard let id = string(d["field_id"]) else { throw Failure() }
        return UserField(
            fieldId: id, fieldType: (d["field_type"] as? String).map(FieldType.init(rawValue:)),
            value: d["value"].flatMap { value($0) } ?? .string(""))
    }
}
