import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

// The features of a Connection in the seed format: steps, fields and dropdown options, in the IFTTT wire format.
// `docs/sandbox-seed-file.md` describes every key.

extension SeedData {
    /// The kind of a feature step.
    public enum StepKind: String, Codable, Sendable, CaseIterable {
        /// A trigger (`feature_triggers`, `trigger_id`).
        case trigger
        /// A query (`feature_queries`, `query_id`).
        case query
        /// An action (`feature_actions`, `action_id`).
        case action

        /// The path segment of the field options URL: `triggers`, `queries` or `actions`.
        public var pathSegment: String {
            switch self {
            case .trigger: "triggers"
            case .query: "queries"
            case .action: "actions"
            }
        }

        /// The key of the operation id in a feature step: `trigger_id`, `query_id` or `action_id`.
        public var operationKey: String { "\(rawValue)_id" }
        /// The key of the step list in a feature: `feature_triggers`, `feature_queries` or `feature_actions`.
        public var featureListKey: String { "feature_\(pathSegment)" }
        /// The key of the step reference in a user step: `feature_trigger_id`, `feature_query_id`, `feature_action_id`.
        public var userStepReferenceKey: String { "feature_\(rawValue)_id" }
        /// The key of the step list in a user feature: `user_feature_triggers`, `user_feature_queries`,
        /// `user_feature_actions`.
        public var userListKey: String { "user_feature_\(pathSegment)" }
    }

    /// A feature of a connection: a group of steps the user enables together.
    public struct Feature: Codable, Sendable, Equatable {
        /// The feature id.
        public var id: String
        /// The title.
        public var title: String
        /// The description. Default `""`.
        public var description: String
        /// The icon URL. `nil` means the primary service's colour icon.
        public var iconURL: String?
        /// Feature-level fields. Default `[]`.
        public var fields: [Field]
        /// Every step: its triggers, queries and actions (each step knows its ``Step/kind``), in the order of the
        /// wire format's lists `feature_triggers`, `feature_queries`, `feature_actions`.
        public var steps: [Step]

        /// Creates a feature.
        public init(
            id: String, title: String, description: String = "", iconURL: String? = nil, fields: [Field] = [],
            steps: [Step] = []
        ) {
            self.id = id
            self.title = title
            self.description = description
            self.iconURL = iconURL
            self.fields = fields
            self.steps = StepKind.allCases.flatMap { kind in steps.filter { $0.kind == kind } }
        }

        /// The steps of one kind (`feature_triggers`, `feature_queries` or `feature_actions`).
        public func steps(_ kind: StepKind) -> [Step] { steps.filter { $0.kind == kind } }

        enum CodingKeys: String, CodingKey {
            case id, title, description
            case iconURL = "icon_url"
            case fields
        }

        /// Decodes a feature in wire format. Each step must carry the id key of its list (`trigger_id` in
        /// `feature_triggers`, and so on).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try c.decode(String.self, forKey: .id),
                title: try c.decode(String.self, forKey: .title),
                description: try c.decodeIfPresent(String.self, forKey: .description) ?? "",
                iconURL: try c.decodeIfPresent(String.self, forKey: .iconURL),
                fields: try c.decodeIfPresent([Field].self, forKey: .fields) ?? [],
                steps: try decoder.decodeStepLists(
                    key: \.featureListKey, problem: { "a step in \($0.featureListKey) needs \"\($0.operationKey)\"" }))
        }

        /// Encodes the feature in wire format, its steps in the three lists.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(title, forKey: .title)
            try c.encode(description, forKey: .description)
            try c.encodeIfPresent(iconURL, forKey: .iconURL)
            try c.encode(fields, forKey: .fields)
            try encoder.encodeStepLists(steps, key: \.featureListKey)
        }
    }

    /// A trigger, query or action of a feature.
    public struct Step: Codable, Sendable, Equatable {
        /// The feature-step id (`feature_triggers[].id`), unique within the connection.
        public var id: String
        /// Whether this is a trigger, query or action.
        public var kind: StepKind
        /// The `trigger_id`, `query_id` or `action_id`, e.g. `new_weekly_deals`.
        public var operationId: String
        /// The service the step belongs to.
        public var serviceId: String
        /// The label. Defaults to `operationId`.
        public var label: String
        /// The step's fields.
        public var fields: [Field]

        /// Creates a step.
        public init(
            id: String, kind: StepKind, operationId: String, serviceId: String, label: String? = nil,
            fields: [Field] = []
        ) {
            self.id = id
            self.kind = kind
            self.operationId = operationId
            self.serviceId = serviceId
            self.label = label ?? operationId
            self.fields = fields
        }

        /// The step type id used in URLs and field options: `service_id.operation_id`.
        public var typeId: String { "\(serviceId).\(operationId)" }

        private enum Keys: String, CodingKey {
            case id
            case triggerId = "trigger_id"
            case queryId = "query_id"
            case actionId = "action_id"
            case serviceId = "service_id"
            case label, fields
        }

        /// Decodes a step; exactly one of `trigger_id`, `query_id`, `action_id` decides its kind.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            let candidates: [(Keys, StepKind)] = [(.triggerId, .trigger), (.queryId, .query), (.actionId, .action)]
            var found: (StepKind, String)?
            for (key, kind) in candidates {
                if let value = try c.decodeIfPresent(String.self, forKey: key) {
                    guard found == nil else {
                        throw DecodingError.dataCorruptedError(
                            forKey: key, in: c,
                            debugDescription: "a step has only one of trigger_id, query_id, action_id")
                    }
                    found = (kind, value)
                }
            }
            guard let (kind, operationId) = found else {
                throw DecodingError.keyNotFound(
                    Keys.triggerId,
                    .init(
                        codingPath: c.codingPath,
                        debugDescription: "a step needs trigger_id, query_id or action_id"))
            }
            self.init(
                id: try c.decode(String.self, forKey: .id), kind: kind, operationId: operationId,
                serviceId: try c.decode(String.self, forKey: .serviceId),
                label: try c.decodeIfPresent(String.self, forKey: .label),
                fields: try c.decodeIfPresent([Field].self, forKey: .fields) ?? [])
        }

        /// Encodes the step with the id key of its kind.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id)
            switch kind {
            case .trigger: try c.encode(operationId, forKey: .triggerId)
            case .query: try c.encode(operationId, forKey: .queryId)
            case .action: try c.encode(operationId, forKey: .actionId)
            }
            try c.encode(serviceId, forKey: .serviceId)
            try c.encode(label, forKey: .label)
            try c.encode(fields, forKey: .fields)
        }
    }

    /// A field of a step or feature.
    public struct Field: Codable, Sendable, Equatable {
        /// The field id, unique within its step.
        public var id: String
        /// The label. Defaults to `id`.
        public var label: String
        /// The IFTTT field type, e.g. `TEXT_FIELD`, `COLLECTION_SELECT`, `LOCATION_ENTER`. Default `TEXT_FIELD`.
        public var type: String
        /// Whether an enabled user feature must set it. Default `false`.
        public var required: Bool
        /// Whether the field is hidden from users (its default value is used). Default `false`.
        public var hidden: Bool
        /// The default value; any JSON. Default `null`.
        public var defaultValue: JSONValue

        /// Creates a field.
        public init(
            id: String, label: String? = nil, type: String = "TEXT_FIELD", required: Bool = false,
            hidden: Bool = false, defaultValue: JSONValue = .null
        ) {
            self.id = id
            self.label = label ?? id
            self.type = type
            self.required = required
            self.hidden = hidden
            self.defaultValue = defaultValue
        }

        enum CodingKeys: String, CodingKey {
            case id, label, type, required, hidden
            case defaultValue = "default_value"
        }

        /// Decodes a field; everything but `id` is optional.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try c.decode(String.self, forKey: .id),
                label: try c.decodeIfPresent(String.self, forKey: .label),
                type: try c.decodeIfPresent(String.self, forKey: .type) ?? "TEXT_FIELD",
                required: try c.decodeIfPresent(Bool.self, forKey: .required) ?? false,
                hidden: try c.decodeIfPresent(Bool.self, forKey: .hidden) ?? false,
                defaultValue: try c.decodeSortedJSON(forKey: .defaultValue))
        }
    }

    /// One dropdown option of a field (`{"label","value","group"}`).
    public struct FieldOption: Codable, Sendable, Equatable {
        /// The text shown.
        public var label: String
        /// The value stored.
        public var value: String
        /// The option group, or `nil`.
        public var group: String?

        /// Creates an option.
        public init(label: String, value: String, group: String? = nil) {
            self.label = label
            self.value = value
            self.group = group
        }

        enum CodingKeys: String, CodingKey { case label, value, group }

        /// Encodes the option; `group` is written as `null` when absent.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(label, forKey: .label)
            try c.encode(value, forKey: .value)
            try c.encode(group, forKey: .group)
        }
    }
}
