import Foundation
import IFTTTConnectSDK

// A user's configuration of a Connection in the seed format (`user_connection` of the IFTTT wire format): user
// features, user steps and field values. `docs/sandbox-seed-file.md` describes every key.

extension SeedData {
    /// Whether a user's connection is on or off.
    public enum UserConnectionStatus: String, Codable, Sendable {
        /// Enabled: its triggers run.
        case enabled
        /// Disabled by the user.
        case disabled
    }

    /// A user's configuration of one connection.
    public struct UserConnection: Codable, Sendable, Equatable {
        /// The IFTTT user id.
        public var userId: String
        /// The connection id.
        public var connectionId: String
        /// `enabled` or `disabled`.
        public var status: UserConnectionStatus
        /// Whether the connection was enabled without configuration and waits for a `PUT .../user_connection`.
        /// Default `false`.
        public var pending: Bool
        /// The user's features in wire format (`user_connection.user_features`).
        public var userFeatures: [UserFeature]

        /// Creates a user connection.
        public init(
            userId: String, connectionId: String, status: UserConnectionStatus = .enabled, pending: Bool = false,
            userFeatures: [UserFeature] = []
        ) {
            self.userId = userId
            self.connectionId = connectionId
            self.status = status
            self.pending = pending
            self.userFeatures = userFeatures
        }

        enum CodingKeys: String, CodingKey {
            case userId = "user_id"
            case connectionId = "connection_id"
            case status, pending
            case userFeatures = "user_features"
        }

        /// Decodes a user connection; `status` defaults to `enabled`, `pending` to `false`.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                userId: try c.decode(String.self, forKey: .userId),
                connectionId: try c.decode(String.self, forKey: .connectionId),
                status: try c.decodeIfPresent(UserConnectionStatus.self, forKey: .status) ?? .enabled,
                pending: try c.decodeIfPresent(Bool.self, forKey: .pending) ?? false,
                userFeatures: try c.decodeIfPresent([UserFeature].self, forKey: .userFeatures) ?? [])
        }
    }

    /// One entry of `user_connection.user_features`.
    public struct UserFeature: Codable, Sendable, Equatable {
        /// The user feature id. `nil` in a seed file or a `PUT` body means "assign one".
        public var id: String?
        /// The feature it configures.
        public var featureId: String
        /// Whether the user turned this feature on. Default `true`.
        public var enabled: Bool
        /// Feature-level field values.
        public var userFields: [UserField]
        /// `user_feature_triggers`.
        public var userFeatureTriggers: [UserStep]
        /// `user_feature_queries`.
        public var userFeatureQueries: [UserStep]
        /// `user_feature_actions`.
        public var userFeatureActions: [UserStep]

        /// Creates a user feature.
        public init(
            id: String? = nil, featureId: String, enabled: Bool = true, userFields: [UserField] = [],
            userFeatureTriggers: [UserStep] = [], userFeatureQueries: [UserStep] = [],
            userFeatureActions: [UserStep] = []
        ) {
            self.id = id
            self.featureId = featureId
            self.enabled = enabled
            self.userFields = userFields
            self.userFeatureTriggers = userFeatureTriggers
            self.userFeatureQueries = userFeatureQueries
            self.userFeatureActions = userFeatureActions
        }

        /// The user steps of one kind.
        public func userSteps(_ kind: StepKind) -> [UserStep] {
            switch kind {
            case .trigger: userFeatureTriggers
            case .query: userFeatureQueries
            case .action: userFeatureActions
            }
        }

        /// Replaces the user steps of one kind.
        public mutating func setUserSteps(_ kind: StepKind, _ steps: [UserStep]) {
            switch kind {
            case .trigger: userFeatureTriggers = steps
            case .query: userFeatureQueries = steps
            case .action: userFeatureActions = steps
            }
        }

        enum CodingKeys: String, CodingKey {
            case id
            case featureId = "feature_id"
            case enabled
            case userFields = "user_fields"
            case userFeatureTriggers = "user_feature_triggers"
            case userFeatureQueries = "user_feature_queries"
            case userFeatureActions = "user_feature_actions"
        }

        /// Decodes a user feature; everything but `feature_id` is optional.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func steps(_ key: CodingKeys, _ kind: StepKind) throws -> [UserStep] {
                try c.decodeSteps(
                    forKey: key, kind: kind,
                    problem: "an entry of \(key.stringValue) needs \"\(kind.userStepReferenceKey)\"")
            }
            self.init(
                id: try c.decodeIfPresent(String.self, forKey: .id),
                featureId: try c.decode(String.self, forKey: .featureId),
                enabled: try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true,
                userFields: try c.decodeIfPresent([UserField].self, forKey: .userFields) ?? [],
                userFeatureTriggers: try steps(.userFeatureTriggers, .trigger),
                userFeatureQueries: try steps(.userFeatureQueries, .query),
                userFeatureActions: try steps(.userFeatureActions, .action))
        }
    }

    /// A user's instance of a feature step (a trigger subscription, query or action configuration).
    public struct UserStep: Codable, Sendable, Equatable {
        /// The per-user step id; for triggers this is the trigger subscription id. `nil` means "assign one".
        public var id: String?
        /// Whether it refers to a trigger, query or action.
        public var kind: StepKind
        /// The feature step it configures (`feature_trigger_id`, `feature_query_id` or `feature_action_id`).
        public var featureStepId: String
        /// The field values.
        public var userFields: [UserField]

        /// Creates a user step.
        public init(id: String? = nil, kind: StepKind, featureStepId: String, userFields: [UserField] = []) {
            self.id = id
            self.kind = kind
            self.featureStepId = featureStepId
            self.userFields = userFields
        }

        private enum Keys: String, CodingKey {
            case id
            case triggerId = "feature_trigger_id"
            case queryId = "feature_query_id"
            case actionId = "feature_action_id"
            case userFields = "user_fields"
        }

        /// Decodes a user step; one of `feature_trigger_id`, `feature_query_id`, `feature_action_id` decides its kind.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            let candidates: [(Keys, StepKind)] = [(.triggerId, .trigger), (.queryId, .query), (.actionId, .action)]
            var found: (StepKind, String)?
            for (key, kind) in candidates {
                if let value = try c.decodeIfPresent(String.self, forKey: key) {
                    guard found == nil else {
                        throw DecodingError.dataCorruptedError(
                            forKey: key, in: c,
                            debugDescription:
                                "a user step has only one of feature_trigger_id, feature_query_id, feature_action_id")
                    }
                    found = (kind, value)
                }
            }
            guard let (kind, stepId) = found else {
                throw DecodingError.keyNotFound(
                    Keys.triggerId,
                    .init(
                        codingPath: c.codingPath,
                        debugDescription: "a user step needs feature_trigger_id, feature_query_id or feature_action_id")
                )
            }
            self.init(
                id: try c.decodeIfPresent(String.self, forKey: .id), kind: kind, featureStepId: stepId,
                userFields: try c.decodeIfPresent([UserField].self, forKey: .userFields) ?? [])
        }

        /// Encodes the user step with the reference key of its kind.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(id, forKey: .id)
            switch kind {
            case .trigger: try c.encode(featureStepId, forKey: .triggerId)
            case .query: try c.encode(featureStepId, forKey: .queryId)
            case .action: try c.encode(featureStepId, forKey: .actionId)
            }
            try c.encode(userFields, forKey: .userFields)
        }
    }

    /// A user's value for one field (`{"field_id","field_type","value"}`).
    public struct UserField: Codable, Sendable, Equatable {
        /// The field id.
        public var fieldId: String
        /// The field type. Optional in input: the sandbox fills it from the field definition.
        public var fieldType: String?
        /// The value: a string, or an object for location and collection fields, or an array for checkboxes.
        public var value: JSONValue

        /// Creates a user field.
        public init(fieldId: String, fieldType: String? = nil, value: JSONValue) {
            self.fieldId = fieldId
            self.fieldType = fieldType
            self.value = value
        }

        enum CodingKeys: String, CodingKey {
            case fieldId = "field_id"
            case fieldType = "field_type"
            case value
        }

        /// Decodes a user field; a missing `value` is `null`.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                fieldId: try c.decode(String.self, forKey: .fieldId),
                fieldType: try c.decodeIfPresent(String.self, forKey: .fieldType),
                value: try c.decodeSortedJSON(forKey: .value))
        }
    }
}

/// A coding key for an array index, used in error paths.
struct IndexKey: CodingKey {
    var stringValue: String { "Index \(intValue ?? 0)" }
    var intValue: Int?
    init(_ index: Int) { self.intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A step of a feature (``SeedData/Step``) or of a user feature (``SeedData/UserStep``): a trigger, query or action.
protocol SeedStep: Decodable {
    /// Whether this is a trigger, query or action.
    var kind: SeedData.StepKind { get }
}

extension SeedData.Step: SeedStep {}
extension SeedData.UserStep: SeedStep {}

extension KeyedDecodingContainer {
    /// The steps listed under `key` (none when the key is absent), each of which must be of `kind`; the first that is
    /// not fails decoding with `problem`, at its index in the list.
    func decodeSteps<Step: SeedStep>(forKey key: Key, kind: SeedData.StepKind, problem: String) throws -> [Step] {
        let list = try decodeIfPresent([Step].self, forKey: key) ?? []
        if let index = list.firstIndex(where: { $0.kind != kind }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath + [key, IndexKey(index)], debugDescription: problem))
        }
        return list
    }
}
