import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The Codable way, for comparison: `JSONDecoder` into `Decodable` structs that mirror the wire format, then the same
/// model values the SDK builds. Loose values (ids as numbers or strings, booleans as strings) are accepted as the SDK
/// accepts them.
public enum CodableBaseline {
    struct Failure: Error {}

    /// Decodes `data` with `JSONDecoder` into the wire structs, then builds the SDK's `Connection` from them.
    public static func decode(_ data: Data) throws -> Connection {
        let wire = try JSONDecoder().decode(WireConnection.self, from: data)
        guard let url = URL(string: wire.url) else { throw Failure() }
        let status: Connection.Status
        switch wire.user_status {
        case "never_enabled": status = .initial
        case "enabled": status = .enabled
        case "disabled": status = .disabled
        default: status = .unknown
        }
        var covers: [Connection.CoverImage] = []
        for (key, text) in wire.cover_image ?? [:] {
            if key.hasSuffix("w_url"), let width = Int(key.dropLast(5)), let text, let u = URL(string: text) {
                covers.append(.init(width: width, url: u))
            }
        }
        return try Connection(
            id: wire.id, name: wire.name, description: wire.description ?? "", url: url, status: status,
            services: wire.services.map(\.model), coverImages: covers,
            valuePropositions: (wire.value_propositions ?? []).map(\.model), features: wire.features.map(\.model),
            userConnection: wire.user_connection.map { UserConnection(userFeatures: $0.user_features.map(\.model)) },
            enabledCount: wire.enabled_count)
    }

    /// A string that may arrive as a JSON number.
    struct LooseString: Decodable {
        let value: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                value = text
            } else if let integer = try? container.decode(Int.self) {
                value = String(integer)
            } else {
                value = String(try container.decode(Double.self))
            }
        }
    }

    /// A Boolean that may arrive as `"true"` or `"false"`.
    struct LooseBool: Decodable {
        let value: Bool?
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                value = flag
            } else if let text = try? container.decode(String.self) {
                value = text == "true" ? true : (text == "false" ? false : nil)
            } else {
                value = nil
            }
        }
    }

    /// A number that may arrive as a string.
    struct LooseDouble: Decodable {
        let value: Double?
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                value = number
            } else if let text = try? container.decode(String.self) {
                value = Double(text)
            } else {
                value = nil
            }
        }
    }

    /// A field value: a string, or a location object.
    struct WireValue: Decodable {
        let value: FieldValue?
        struct Location: Decodable {
            let lat: LooseDouble?
            let latitude: LooseDouble?
            let lng: LooseDouble?
            let longitude: LooseDouble?
            let radius: LooseDouble?
            let zoom: LooseDouble?
            let address: String?
            let description: String?
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                value = .string(text)
            } else if let location = try? container.decode(Location.self),
                let latitude = (location.lat ?? location.latitude)?.value,
                let longitude = (location.lng ?? location.longitude)?.value
            {
                value = .location(
                    LocationValue(
                        latitude: latitude, longitude: longitude, radius: location.radius?.value,
                        address: location.address, description: location.description, zoom: location.zoom?.value))
            } else {
                value = nil
            }
        }
    }

    struct WireConnection: Decodable {
        let id: String
        let name: String
        let description: String?
        let url: String
        let user_status: String?
        let enabled_count: Int?
        let services: [WireService]
        let cover_image: [String: String?]?
        let value_propositions: [WireValueProposition]?
        let features: [WireFeature]
        let user_connection: WireUserConnection?
    }

    struct WireValueProposition: Decodable {
        let description: String?
        let icon_url: String?

        var model: Connection.ValueProposition {
            Connection.ValueProposition(description: description ?? "", iconURL: icon_url.flatMap(URL.init(string:)))
        }
    }

    struct WireService: Decodable {
        let service_id: String
        let service_name: String
        let service_short_name: String?
        let is_primary: LooseBool?
        let monochrome_icon_url: String?
        let color_icon_url: String?
        let brand_color: String?
        let url: String?

        var model: Connection.Service {
            Connection.Service(
                id: service_id, name: service_name, shortName: service_short_name,
                isPrimary: is_primary?.value ?? false,
                monochromeIconURL: monochrome_icon_url.flatMap(URL.init(string:)),
                colorIconURL: color_icon_url.flatMap(URL.init(string:)),
                brandColor: brand_color.flatMap(ConnectColor.init(hex:)), url: url.flatMap(URL.init(string:)))
        }
    }

    struct WireField: Decodable {
        let id: LooseString
        let label: String?
        let type: String?
        let required: LooseBool?
        let hidden: LooseBool?
        let default_value: WireValue?

        var model: Connection.Field {
            Connection.Field(
                id: id.value, label: label, type: type.map(FieldType.init(rawValue:)),
                isRequired: required?.value ?? false, isHidden: hidden?.value ?? false,
                defaultValue: default_value?.value)
        }
    }

    struct WireStep: Decodable {
        let id: LooseString
        let trigger_id: LooseString?
        let query_id: LooseString?
        let action_id: LooseString?
        let service_id: LooseString?
        let label: String?
        let field_options_url: String?
        let run_url: String?
        let fields: [WireField]?

        func model(_ kind: Connection.Step.Kind) -> Connection.Step {
            let typeId: LooseString? =
                switch kind {
                case .trigger: trigger_id
                case .query: query_id
                case .action: action_id
                }
            return Connection.Step(
                kind: kind, id: id.value, typeId: typeId?.value ?? "", serviceId: service_id?.value ?? "",
                label: label, fieldOptionsURL: field_options_url.flatMap(URL.init(string:)),
                runURL: run_url.flatMap(URL.init(string:)), fields: (fields ?? []).map(\.model))
        }
    }

    struct WireFeature: Decodable {
        let id: LooseString?
        let title: String
        let description: String?
        let icon_url: String?
        let field_options_url: String?
        let fields: [WireField]?
        let feature_triggers: [WireStep]?
        let feature_queries: [WireStep]?
        let feature_actions: [WireStep]?

        var model: Connection.Feature {
            Connection.Feature(
                id: id?.value ?? "", title: title, description: description,
                iconURL: icon_url.flatMap(URL.init(string:)),
                fieldOptionsURL: field_options_url.flatMap(URL.init(string:)), fields: (fields ?? []).map(\.model),
                triggers: (feature_triggers ?? []).map { $0.model(.trigger) },
                queries: (feature_queries ?? []).map { $0.model(.query) },
                actions: (feature_actions ?? []).map { $0.model(.action) })
        }
    }

    struct WireUserField: Decodable {
        let field_id: LooseString
        let field_type: String?
        let value: WireValue?

        var model: UserField {
            UserField(
                fieldId: field_id.value, fieldType: field_type.map(FieldType.init(rawValue:)),
                value: value?.value ?? .string(""))
        }
    }

    struct WireUserStep: Decodable {
        let id: LooseString
        let feature_trigger_id: LooseString?
        let feature_query_id: LooseString?
        let feature_action_id: LooseString?
        let user_fields: [WireUserField]?

        func model(_ stepId: LooseString?) throws -> UserFeatureStep {
            guard let stepId else { throw Failure() }
            return UserFeatureStep(id: id.value, stepId: stepId.value, userFields: (user_fields ?? []).map(\.model))
        }
    }

    struct WireUserFeature: Decodable {
        let id: LooseString
        let feature_id: LooseString
        let enabled: LooseBool?
        let user_fields: [WireUserField]?
        let user_feature_triggers: [WireUserStep]?
        let user_feature_queries: [WireUserStep]?
        let user_feature_actions: [WireUserStep]?

        var model: UserFeature {
            UserFeature(
                id: id.value, featureId: feature_id.value, isEnabled: enabled?.value ?? true,
                userFields: (user_fields ?? []).map(\.model),
                triggers: (user_feature_triggers ?? []).compactMap { try? $0.model($0.feature_trigger_id) },
                queries: (user_feature_queries ?? []).compactMap { try? $0.model($0.feature_query_id) },
                actions: (user_feature_actions ?? []).compactMap { try? $0.model($0.feature_action_id) })
        }
    }

    struct WireUserConnection: Decodable {
        let user_features: [WireUserFeature]
    }
}
