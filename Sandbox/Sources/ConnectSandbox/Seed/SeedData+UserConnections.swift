import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

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
        /// Every user step (each knows its ``UserStep/kind``), in the order of the wire format's lists
        /// `user_feature_triggers`, `user_feature_queries`, `user_feature_actions`.
        public var userSteps: [UserStep]

        /// Creates a user feature.
        public init(
            id: String? = nil, featureId: String, enabled: Bool = true, userFields: [UserField] = [],
            userSteps: [UserStep] = []
        ) {
            self.id = id
            self.featureId = featureId
            self.enabled = enabled
            self.userFields = userFields
            self.userSteps = StepKind.allCases.flatMap { kind in userSteps.filter { $0.kind == kind } }
        }

        /// The user steps of one kind.
        public func userSteps(_ kind: StepKind) -> [UserStep] { userSteps.filter { $0.kind == kind } }

        /// Replaces the user steps of one kind.
        public mutating func setUserSteps(_ kind: StepKind, _ steps: [UserStep]) {
            userSteps = StepKind.allCases.flatMap { $0 == kind ? steps : userSteps($0) }
        }

        enum CodingKeys: String, CodingKey {
            case id
            case featureId = "feature_id"
            case enabled
            case userFields = "user_fields"
        }

        /// Decodes a user feature; everything but `feature_id` is optional.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try c.decodeIfPresent(String.self, forKey: .id),
                featureId: try c.decode(String.self, forKey: .featureId),
                enabled: try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true,
                userFields: try c.decodeIfPresent([UserField].self, forKey: .userFields) ?? [],
                userSteps: try decoder.decodeStepLists(
                    key: \.userListKey,
                    problem: { "an entry of \($0.userListKey) needs \"\($0.userStepReferenceKey)\"" }))
        }

        /// Encodes the user feature in wire format, its steps in the three lists.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(id, forKey: .id)
            try c.encode(featureId, forKey: .featureId)
            try c.encode(enabled, forKey: .enabled)
            try c.encode(userFields, forKey: .userFields)
            try encoder.encodeStepLists(userSteps, key: \.userListKey)
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
protocol SeedStep: Codable {
    /// Whether this is a trigger, query or action.
    var kind: SeedData.StepKind { get }
}

extension SeedData.Step: SeedStep {}
extension SeedData.UserStep: SeedStep {}

/// A coding key named by a string: the keys of the three step lists (from ``SeedData/StepKind``), table columns.
struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// The steps of the three lists named `key(kind)` (an absent list has none), triggers first; a step filed in
    /// the wrong list fails decoding with `problem(kind)`, at its index in that list.
    func decodeStepLists<Step: SeedStep>(key: (SeedData.StepKind) -> String, problem: (SeedData.StepKind) -> String)
        throws -> [Step]
    {
        let c = try container(keyedBy: NamedKey.self)
        var steps: [Step] = []
        for kind in SeedData.StepKind.allCases {
            let listKey = NamedKey(key(kind))
            let list = try c.decodeIfPresent([Step].self, forKey: listKey) ?? []
            if let index = list.firstIndex(where: { $0.kind != kind }) {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: c.codingPath + [listKey, IndexKey(index)], debugDescription: problem(kind)))
            }
            steps += list
        }
        return steps
    }
}

extension Encoder {
    /// Writes `steps` into the three lists named `key(kind)`, each in order (an empty list is written as `[]`).
    func encodeStepLists<Step: SeedStep>(_ steps: [Step], key: (SeedData.StepKind) -> String) throws {
        var c = container(keyedBy: NamedKey.self)
        for kind in SeedData.StepKind.allCases {
            try c.encode(steps.filter { $0.kind == kind }, forKey: NamedKey(key(kind)))
        }
    }
}
