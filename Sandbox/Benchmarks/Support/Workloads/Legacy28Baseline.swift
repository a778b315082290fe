import Foundation

/// How ConnectSDK-iOS 2.8 decodes a Connection, rebuilt for comparison: the response body goes through
/// `JSONSerialization` into a `Parser` tree (a dictionary stays a `[String: Any?]`, an array becomes an array of
/// parsers, each subscript wraps the value it finds in a new parser), then `Connection`, `Service` and `Feature`
/// read the same keys 2.8's initializers read, in the same way (`as?` casts, `URL(string:)`, a colour from a
/// trimmed hex string through `Scanner`, a `Set` of location triggers built from the default field of each feature
/// trigger and from the enabled user features' location fields). The UIKit and Core Location types 2.8 builds are
/// plain values here (`Color`, `CircularRegion`), so the same work runs on Linux; the region's radius is clamped to
/// a fixed maximum where 2.8 asked `CLLocationManager` for it.
public enum Legacy28Baseline {
    /// Decodes a `GET /v2/connections/{id}` body the way 2.8's connection fetch does: `Parser(content: data)`, then
    /// the applets-response parse (`type` `connection` or `list`), whose first Connection is taken.
    public static func decode(_ data: Data) -> Connection? {
        Connection.parseResponse(Parser(content: data))?.first
    }

    /// 2.8's JSON type: a dictionary whose values may be `nil`.
    typealias JSON = [String: Any?]

    /// 2.8's lazy JSON reader over the objects `JSONSerialization` returns.
    enum Parser: Collection {
        case none
        case dictionary(JSON)
        case array([Parser])
        case value(Any)

        init(content: Any?) {
            if let data = content as? Data {
                self = Parser(content: try? JSONSerialization.jsonObject(with: data))
            } else if let items = content as? [Any] {
                self = .array(items.map { Parser(content: $0) })
            } else if let object = content as? JSON {
                self = .dictionary(object)
            } else if let content {
                self = .value(content)
            } else {
                self = .none
            }
        }

        subscript(key: String) -> Parser {
            guard case .dictionary(let object) = self, let found = object[key] else { return .none }
            return Parser(content: found)
        }

        var currentValue: Any? {
            guard case .value(let value) = self else { return nil }
            return value
        }

        var string: String? { currentValue as? String }
        var bool: Bool? { (currentValue as? Bool) ?? Bool(string ?? "not_a_bool") }
        var double: Double? { (currentValue as? Double) ?? Double(string ?? "not_a_double") }
        var url: URL? { string.flatMap { URL(string: $0) } }
        var color: Color? { string.map(Color.init(hex:)) }

        subscript(position: Int) -> Parser {
            guard case .array(let items) = self, position < items.count else { return .none }
            return items[position]
        }
        var startIndex: Int { 0 }
        var endIndex: Int {
            guard case .array(let items) = self else { return 0 }
            return items.count
        }
        func index(after position: Int) -> Int { position + 1 }
    }

    /// What 2.8 builds as a `UIColor`: red, green, blue and alpha in 0...1.
    public struct Color: Hashable {
        public let red: Double, green: Double, blue: Double, alpha: Double

        /// Trims whitespace, newlines and `#`; anything but six characters is black; else the digits in hex.
        init(hex: String) {
            var trimmable = CharacterSet.whitespacesAndNewlines
            trimmable.insert("#")
            let trimmed = hex.trimmingCharacters(in: trimmable)
            guard trimmed.count == 6 else {
                (red, green, blue, alpha) = (0, 0, 0, 1)
                return
            }
            let value = Scanner(string: trimmed).scanUInt64(representation: .hexadecimal) ?? 0
            red = Double((value >> 16) & 0xFF) / 255
            green = Double((value >> 8) & 0xFF) / 255
            blue = Double(value & 0xFF) / 255
            alpha = 1
        }
    }

    /// What 2.8 builds as a `CLCircularRegion`; equal and hashed by identifier, as 2.8's `Trigger` is.
    public struct CircularRegion: Hashable {
        /// The largest radius monitored (2.8 read `CLLocationManager.maximumRegionMonitoringDistance`).
        static let maximumRadius = 100_000.0

        public let latitude: Double, longitude: Double, radius: Double, identifier: String

        /// From a value with `lat`, `lng` and `radius`, all required; the identifier is `ifttt_` + the trigger id.
        init?(parser: Parser, triggerId: String) {
            guard let latitude = parser["lat"].double, let longitude = parser["lng"].double,
                let radius = parser["radius"].double
            else { return nil }
            self.latitude = latitude
            self.longitude = longitude
            self.radius = min(radius, Self.maximumRadius)
            identifier = "ifttt_" + triggerId
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.identifier == rhs.identifier }
        public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
    }

    /// 2.8's native trigger: only location.
    public enum Trigger: Hashable {
        case location(CircularRegion)

        public var identifier: String {
            switch self {
            case .location(let region): return region.identifier
            }
        }

        /// A user field: a `location` field whose `value` holds a region.
        init?(json: JSON, triggerId: String) {
            guard let fieldId = json["field_id"] as? String, fieldId == "location",
                let region = CircularRegion(parser: Parser(content: json)["value"], triggerId: triggerId)
            else { return nil }
            self = .location(region)
        }

        /// A feature trigger's first field: a `location` field whose `default_value` holds a region.
        init?(defaultFieldParser parser: Parser, triggerId: String) {
            guard let fieldId = parser["id"].string, fieldId == "location",
                let region = CircularRegion(parser: parser["default_value"], triggerId: triggerId)
            else { return nil }
            self = .location(region)
        }
    }

    /// 2.8's `Connection`, with the fields its parser fills.
    public struct Connection {
        public enum Status: String {
            case initial = "never_enabled"
            case enabled, disabled, unknown
        }

        public struct Service {
            public let id: String, name: String, shortName: String, isPrimary: Bool
            public let templateIconURL: URL, brandColor: Color, url: URL

            init?(parser: Parser) {
                guard let id = parser["service_id"].string, let name = parser["service_name"].string,
                    let shortName = parser["service_short_name"].string,
                    let templateIconURL = parser["monochrome_icon_url"].url,
                    let brandColor = parser["brand_color"].color, let url = parser["url"].url
                else { return nil }
                self.id = id
                self.name = name
                self.shortName = shortName
                isPrimary = parser["is_primary"].bool ?? false
                self.templateIconURL = templateIconURL
                self.brandColor = brandColor
                self.url = url
            }
        }

        public struct CoverImage {
            public let url: URL?, width: Int
        }

        public struct Feature {
            public let title: String, details: String?, iconURL: URL?, triggers: Set<Trigger>

            init?(parser: Parser) {
                guard let title = parser["title"].string, let iconURL = parser["icon_url"].url else { return nil }
                self.title = title
                details = parser["description"].string
                self.iconURL = iconURL
                triggers = Set(
                    parser["feature_triggers"].compactMap { trigger -> Trigger? in
                        guard let id = trigger["id"].string, let first = trigger["fields"].first else { return nil }
                        return Trigger(defaultFieldParser: first, triggerId: id)
                    })
            }
        }

        public let id: String, name: String, description: String, url: URL, status: Status
        public let services: [Service], primaryService: Service
        public let coverImages: [Int: CoverImage]
        /// Kept unparsed, as 2.8 did: its `valuePropositions` property reads them on each call.
        let valuePropositionsParser: Parser
        public let features: [Feature]
        public let activeUserTriggers: Set<Trigger>

        init?(parser: Parser) {
            guard let id = parser["id"].string, let name = parser["name"].string,
                let description = parser["description"].string, let url = parser["url"].url
            else { return nil }
            self.id = id
            self.name = name
            self.description = description
            status = Status(rawValue: parser["user_status"].string ?? "") ?? .unknown
            services = parser["services"].compactMap(Service.init(parser:))
            self.url = url
            guard let primary = services.first(where: \.isPrimary) else { return nil }
            primaryService = primary
            let cover = parser["cover_image"]
            var covers: [Int: CoverImage] = [:]
            for width in [2880, 2160, 1440, 1080, 720, 480] {
                if let url = cover["\(width)w_url"].url { covers[width] = CoverImage(url: url, width: width) }
            }
            coverImages = covers
            valuePropositionsParser = parser["value_propositions"]
            features = parser["features"].compactMap(Feature.init(parser:))
            activeUserTriggers = Self.parseTriggers(parser)
        }

        /// The location triggers of the enabled user features (`enabled` a JSON Boolean `true`).
        static func parseTriggers(_ parser: Parser) -> Set<Trigger> {
            guard case .dictionary(let userConnection) = parser["user_connection"],
                let userFeatures = userConnection["user_features"] as? [JSON]
            else { return [] }
            let enabled = userFeatures.filter { ($0["enabled"] as? Bool) == true }
            let steps = enabled.compactMap { $0["user_feature_triggers"] as? [JSON] }.reduce([], +)
            let triggers = steps.compactMap { step -> [Trigger] in
                guard let stepId = step["id"] as? String, let fields = step["user_fields"] as? [JSON] else {
                    return []
                }
                return fields.compactMap { Trigger(json: $0, triggerId: stepId) }
            }.reduce([], +)
            return Set(triggers)
        }

        /// The applets response: `type` `connection` gives one, `list` the parsable ones of `data`.
        static func parseResponse(_ parser: Parser) -> [Connection]? {
            switch parser["type"].string {
            case "connection": return Connection(parser: parser).map { [$0] }
            case "list": return parser["data"].compactMap(Connection.init(parser:))
            default: return nil
            }
        }
    }
}
