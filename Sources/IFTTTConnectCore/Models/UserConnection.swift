import Foundation

/// The authenticated user's configuration of a Connection (`user_connection`).
@_spi(Sandbox) public struct UserConnection: Sendable, Hashable {
    /// The user's features.
    public let userFeatures: [UserFeature]
    /// Whether the user turned the Connection on without configuring it (`"pending": true`, what IFTTT's activation
    /// flow leaves with `skip_config=true` until the partner's backend sets the configuration with the service key).
    public let isPending: Bool

    /// Creates a user connection that is not pending.
    public init(userFeatures: [UserFeature]) {
        self.init(userFeatures: userFeatures, isPending: false)
    }

    /// Creates a user connection.
    ///
    /// - Parameters:
    ///   - userFeatures: The user's features.
    ///   - isPending: Whether it is on without configuration.
    public init(userFeatures: [UserFeature], isPending: Bool) {
        self.userFeatures = userFeatures
        self.isPending = isPending
    }
}

/// The user's instance of a feature.
@_spi(Sandbox) public struct UserFeature: Sendable, Hashable, Identifiable {
    /// The user feature's id (`""` when the API left it out).
    public let id: String
    /// The id of the ``Connection/Feature`` it configures (`""` when the API left it out). It may name a
    /// feature the payload does not list.
    public let featureId: String
    /// Whether the user has the feature on: `true` only when the API sent the JSON boolean `true` or the number `1`
    /// (a missing key, `0` or the string `"true"` reads as off, as in ConnectSDK-iOS 2.8, whose Foundation reads a
    /// JSON `1` as `true`).
    public let isEnabled: Bool
    /// Values of the feature's own fields.
    public let userFields: [UserField]
    /// The user's trigger steps.
    public let triggers: [UserFeatureStep]
    /// The user's query steps.
    public let queries: [UserFeatureStep]
    /// The user's action steps.
    public let actions: [UserFeatureStep]

    /// Creates a user feature.
    public init(
        id: String, featureId: String, isEnabled: Bool = true, userFields: [UserField] = [],
        triggers: [UserFeatureStep] = [], queries: [UserFeatureStep] = [], actions: [UserFeatureStep] = []
    ) {
        self.id = id
        self.featureId = featureId
        self.isEnabled = isEnabled
        self.userFields = userFields
        self.triggers = triggers
        self.queries = queries
        self.actions = actions
    }
}

/// The user's instance of a trigger, query or action. For triggers its ``id`` is the trigger
/// subscription id that location events report.
@_spi(Sandbox) public struct UserFeatureStep: Sendable, Hashable, Identifiable {
    /// The per-user step id.
    public let id: String
    /// The id of the feature step it configures (`feature_trigger_id`, `feature_query_id`,
    /// `feature_action_id`), or `nil` when the API left it out (ConnectSDK-iOS 2.8 never reads it).
    public let featureStepId: String?
    /// The user's field values.
    public let userFields: [UserField]

    /// The id of the feature step it configures, or `""` when the API left it out (see ``featureStepId``).
    public var stepId: String { featureStepId ?? "" }

    /// Creates a user step.
    public init(id: String, stepId: String, userFields: [UserField] = []) {
        self.init(id: id, featureStepId: stepId, userFields: userFields)
    }

    /// Creates a user step whose feature step id may be unknown.
    public init(id: String, featureStepId: String?, userFields: [UserField] = []) {
        self.id = id
        self.featureStepId = featureStepId
        self.userFields = userFields
    }
}

/// A user's value for one field.
@_spi(Sandbox) public struct UserField: Sendable, Hashable {
    /// The field id.
    public let fieldId: String
    /// The field type, when the API sends it.
    public let fieldType: FieldType?
    /// The value.
    public let value: FieldValue

    /// Creates a user field.
    public init(fieldId: String, fieldType: FieldType? = nil, value: FieldValue) {
        self.fieldId = fieldId
        self.fieldType = fieldType
        self.value = value
    }
}
