import Foundation

/// ConnectSDK-iOS 2.8's geofence derivation, rewritten from its rules for the parity table (`DerivationParityTests`).
///
/// Sources read (IFTTT/ConnectSDK-iOS at `bf1b3a7`, folder `IFTTT SDK/`): `Connection+Parsing.swift`
/// (`Connection.init?(parser:)`, `parseTriggers`, `Connection.Service.init?(parser:)`), `NativeServices.swift`
/// (`Trigger.init?(json:triggerId:)`), `CLCircularRegion+Parsing.swift` (`init?(parser:triggerId:)`,
/// `addIFTTTPrefix`, `stripIFTTTPrefix`), `JSON.swift` (`Parser`'s `string`, `double`, `bool`, `url`) and
/// `LocationService.swift` (the regions of enabled Connections are the ones monitored). The rules, as 2.8 applies
/// them to what Foundation's `JSONSerialization` returns:
///
/// - The payload's `type` is `connection`; the Connection needs the strings `id`, `name`, `description`, a `url`
///   that `URL(string:)` accepts, and a primary service among the services that have `service_id`,
///   `service_name`, `service_short_name` (strings), `monochrome_icon_url` and `url` (URLs) and a `brand_color`
///   string. `is_primary` is `value as? Bool` (a JSON `true`, or a number exactly `0` or `1`), else
///   `Bool(string)` (exactly `"true"` or `"false"`), else false.
/// - Only a Connection whose `user_status` is `enabled` has its regions monitored.
/// - `user_connection` must be an object and its `user_features` an array of objects (`as? [JSON]`: one element
///   that is not an object loses them all); a user feature counts when `enabled as? Bool` is true.
/// - Each `user_feature_triggers` item needs `id as? String` (a number is not a string) and `user_fields` as an
///   array of objects (one element that is not an object loses the trigger's fields); each field whose
///   `field_id as? String` is `location` gives a region when `value`'s `lat`, `lng` and `radius` each read as a
///   `Double` (`value as? Double`, else `Double(string)`, which takes `"inf"`, `"nan"` and `"0x10"` but no space).
/// - Region: identifier `ifttt_<id>`, radius `min(radius, maximumRegionMonitoringDistance)`; regions are a `Set`
///   keyed by identifier (the first of an identifier is kept). The uploaded `trigger_subscription_id` is the
///   identifier split on `_`, stripped only when that gives exactly two parts and the first is `ifttt`.
/// - Duplicate keys in an object: `JSONSerialization` keeps the last value.
enum ConnectSDK28Derivation {
    /// A monitored region, as 2.8 has it: what CoreLocation gets, and what an event of it uploads.
    struct Region: Hashable, Comparable, CustomStringConvertible {
        var identifier: String
        var latitude: Double
        var longitude: Double
        var radius: Double
        var uploadedSubscriptionId: String

        static func < (lhs: Region, rhs: Region) -> Bool { lhs.identifier < rhs.identifier }

        var description: String {
            "\(identifier) (\(Self.number(latitude)),\(Self.number(longitude)) r=\(Self.number(radius))) uploads \"\(uploadedSubscriptionId)\""
        }

        static func number(_ value: Double) -> String {
            value.isNaN ? "nan" : value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
    }

    /// The regions 2.8 monitors for this payload, or `nil` when 2.8 cannot parse the Connection.
    static func monitoredRegions(_ payload: Data, maximumRegionMonitoringDistance: Double) -> [Region]? {
        guard let root = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any],
            root["type"] as? String == "connection", root["id"] is String, root["name"] is String,
            root["description"] is String, url(root["url"]) != nil
        else { return nil }
        let services = (root["services"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }.filter(isService)
        guard services.contains(where: { bool($0["is_primary"]) ?? false }) else { return nil }
        guard root["user_status"] as? String == "enabled" else { return [] }
        guard let userConnection = root["user_connection"] as? [String: Any],
            let features = userConnection["user_features"] as? [[String: Any]]
        else { return [] }
        var regions: [Region] = []
        var seen = Set<String>()
        for feature in features where feature["enabled"] as? Bool == true {
            guard let triggers = feature["user_feature_triggers"] as? [[String: Any]] else { continue }
            for trigger in triggers {
                guard let id = trigger["id"] as? String, let fields = trigger["user_fields"] as? [[String: Any]] else {
                    continue
                }
                for field in fields where field["field_id"] as? String == "location" {
                    let value = field["value"] as? [String: Any] ?? [:]
                    guard let latitude = double(value["lat"]), let longitude = double(value["lng"]),
                        let radius = double(value["radius"])
                    else { continue }
                    let identifier = "ifttt_" + id
                    guard seen.insert(identifier).inserted else { continue }
                    regions.append(
                        Region(
                            identifier: identifier, latitude: latitude, longitude: longitude,
                            radius: Swift.min(radius, maximumRegionMonitoringDistance),
                            uploadedSubscriptionId: stripped(identifier)))
                }
            }
        }
        return regions.sorted()
    }

    private static func isService(_ service: [String: Any]) -> Bool {
        service["service_id"] is String && service["service_name"] is String && service["service_short_name"] is String
            && url(service["monochrome_icon_url"]) != nil && service["brand_color"] is String
            && url(service["url"]) != nil
    }

    private static func url(_ value: Any?) -> URL? { (value as? String).flatMap(URL.init(string:)) }

    private static func double(_ value: Any?) -> Double? {
        if let number = value as? Double { return number }
        return (value as? String).flatMap(Double.init)
    }

    private static func bool(_ value: Any?) -> Bool? {
        if let bool = value as? Bool { return bool }
        return (value as? String).flatMap(Bool.init)
    }

    private static func stripped(_ identifier: String) -> String {
        let parts = identifier.split(separator: "_")
        return parts.count == 2 && parts[0].lowercased() == "ifttt" ? String(parts[1]) : identifier
    }
}
