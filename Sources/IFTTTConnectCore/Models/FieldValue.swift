import Foundation

/// The value of a field: a default value in a feature, or a user's value in a user connection.
public enum FieldValue: Sendable, Hashable {
    /// A location, from either shape the API uses (`lat`/`lng` or `latitude`/`longitude`, numbers or strings).
    case location(LocationValue)
    /// One choice of a list (`COLLECTION_SELECT`, `DOUBLE_COLLECTION_SELECT`).
    case choice(Choice)
    /// Several choices (`CHECKBOX_MULTI`).
    case choices([Choice])
    /// Text.
    case string(String)
    /// Any other value, kept as the API sent it.
    case other(JSONValue)

    /// One option of a list field.
    public struct Choice: Sendable, Hashable {
        /// The group, for grouped lists.
        public let group: String?
        /// The label shown to the user.
        public let label: String?
        /// The value sent to the service.
        public let value: String

        /// Creates a choice.
        public init(group: String? = nil, label: String? = nil, value: String) {
            self.group = group
            self.label = label
            self.value = value
        }

        init?(json: JSONValue) {
            guard case .object(let object) = json, let raw = object["value"], !raw.isNull,
                let value = try? JSONReader.string(raw, key: "value")
            else { return nil }
            self.group = object["group"]?.stringValue
            self.label = object["label"]?.stringValue
            self.value = value
        }
    }

    /// The location, when this is one.
    @_spi(Sandbox) public var location: LocationValue? {
        if case .location(let value) = self { return value }
        return nil
    }

    /// Decodes a value using its field type when known, and its shape otherwise. Values that do not fit
    /// their type are kept as ``other(_:)`` rather than failing the whole Connection.
    init(json: JSONValue, type: FieldType?) {
        if let type {
            if type.isLocation, let location = LocationValue(json: json) {
                self = .location(location)
                return
            }
            if type == .collectionSelect || type == .doubleCollectionSelect, let choice = Choice(json: json) {
                self = .choice(choice)
                return
            }
            if type == .checkboxMulti, case .array(let items) = json {
                let choices = items.compactMap(Choice.init(json:))
                if choices.count == items.count {
                    self = .choices(choices)
                    return
                }
            }
        }
        switch json {
        case .string(let s):
            self = .string(s)
        case .object:
            if let location = LocationValue(json: json) {
                self = .location(location)
            } else if let choice = Choice(json: json) {
                self = .choice(choice)
            } else {
                self = .other(json)
            }
        default:
            self = .other(json)
        }
    }
}

/// A location field value: a point with an optional radius.
public struct LocationValue: Sendable, Hashable {
    /// Latitude in degrees, -90...90.
    public let latitude: Double
    /// Longitude in degrees, -180...180.
    public let longitude: Double
    /// Radius in metres, when the value is an area.
    public let radius: Double?
    /// The street address, when known.
    public let address: String?
    /// A description, when known.
    public let description: String?
    /// The map zoom level the user chose, when known.
    public let zoom: Double?

    /// Creates a location value.
    public init(
        latitude: Double, longitude: Double, radius: Double? = nil, address: String? = nil,
        description: String? = nil, zoom: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.address = address
        self.description = description
        self.zoom = zoom
    }

    /// Reads either shape: `lat`/`lng` or `latitude`/`longitude`, each a number or a numeric string.
    /// `nil` when the coordinates are missing, not numbers, or out of range.
    init?(json: JSONValue) {
        guard case .object(let object) = json else { return nil }
        guard let latitude = (object["lat"] ?? object["latitude"])?.doubleValue,
            let longitude = (object["lng"] ?? object["longitude"])?.doubleValue,
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        let radius = object["radius"]?.doubleValue
        self.radius = radius.flatMap { $0 >= 0 ? $0 : nil }
        self.address = object["address"]?.stringValue
        self.description = object["description"]?.stringValue
        self.zoom = object["zoom"]?.doubleValue
    }
}
