import Foundation

/// A user's whole configuration of a Connection, as `PUT /v2/connections/{id}/user_connection` takes it.
public struct UserConnectionUpdate: Sendable, Hashable {
    /// One feature's configuration.
    public struct Feature: Sendable, Hashable {
        /// The feature id.
        public var featureId: String
        /// Whether the feature is on.
        public var isEnabled: Bool
        /// Values of the feature's own fields, by field id.
        public var userFields: [String: FieldValue]
        /// Trigger configurations.
        public var triggers: [Step]
        /// Query configurations.
        public var queries: [Step]
        /// Action configurations.
        public var actions: [Step]

        /// Creates a feature configuration.
        public init(
            featureId: String, isEnabled: Bool = true, userFields: [String: FieldValue] = [:], triggers: [Step] = [],
            queries: [Step] = [], actions: [Step] = []
        ) {
            self.featureId = featureId
            self.isEnabled = isEnabled
            self.userFields = userFields
            self.triggers = triggers
            self.queries = queries
            self.actions = actions
        }
    }

    /// One step's configuration.
    public struct Step: Sendable, Hashable {
        /// The feature step id (feature trigger, query or action id).
        public var stepId: String
        /// Field values, by field id.
        public var userFields: [String: FieldValue]

        /// Creates a step configuration.
        public init(stepId: String, userFields: [String: FieldValue] = [:]) {
            self.stepId = stepId
            self.userFields = userFields
        }
    }

    /// The features.
    public var features: [Feature]

    /// Creates an update.
    public init(features: [Feature]) {
        self.features = features
    }

    /// An update that turns on every feature of `connection` with the default value of each field that has one:
    /// what a user gets by accepting the defaults, and a way to finish a Connection enabled with configuration skipped.
    public static func defaults(for connection: Connection) -> UserConnectionUpdate {
        func fields(_ fields: [Connection.Field]) -> [String: FieldValue] {
            var values: [String: FieldValue] = [:]
            for field in fields { if let value = field.defaultValue { values[field.id] = value } }
            return values
        }
        func steps(_ steps: [Connection.Step]) -> [Step] {
            steps.map { Step(stepId: $0.id, userFields: fields($0.fields)) }
        }
        return UserConnectionUpdate(
            features: connection.features.map { feature in
                Feature(
                    featureId: feature.id, isEnabled: true, userFields: fields(feature.fields),
                    triggers: steps(feature.triggers), queries: steps(feature.queries), actions: steps(feature.actions))
            })
    }

    /// The request body in the Connect API's format.
    package var jsonValue: JSONValue {
        // Sorted by field id, so the same update always makes the same body.
        func fields(_ fields: [String: FieldValue]) -> JSONValue {
            .array(
                fields.sorted { $0.key < $1.key }.map {
                    .object(JSONObject([("field_id", .string($0.key)), ("value", $0.value.jsonValue)]))
                })
        }
        func steps(_ steps: [Step], key: String) -> JSONValue {
            .array(
                steps.map { .object(JSONObject([(key, .string($0.stepId)), ("user_fields", fields($0.userFields))])) })
        }
        return .object(
            JSONObject([
                (
                    "user_features",
                    .array(
                        features.map { feature in
                            .object(
                                JSONObject([
                                    ("feature_id", .string(feature.featureId)),
                                    ("enabled", .bool(feature.isEnabled)),
                                    ("user_fields", fields(feature.userFields)),
                                    ("user_feature_triggers", steps(feature.triggers, key: "feature_trigger_id")),
                                    ("user_feature_queries", steps(feature.queries, key: "feature_query_id")),
                                    ("user_feature_actions", steps(feature.actions, key: "feature_action_id")),
                                ]))
                        })
                )
            ]))
    }
}

extension FieldValue {
    /// The value in the Connect API's format (locations as `lat`/`lng` numbers).
    package var jsonValue: JSONValue {
        switch self {
        case .location(let location):
            var members: [(String, JSONValue)] = [
                ("lat", .number(location.latitude)), ("lng", .number(location.longitude)),
            ]
            if let radius = location.radius { members.append(("radius", .number(radius))) }
            if let address = location.address { members.append(("address", .string(address))) }
            if let description = location.description { members.append(("description", .string(description))) }
            if let zoom = location.zoom { members.append(("zoom", .number(zoom))) }
            return .object(JSONObject(members))
        case .choice(let choice):
            return choice.jsonValue
        case .choices(let choices):
            return .array(choices.map(\.jsonValue))
        case .string(let text):
            return .string(text)
        case .other(let json):
            return json
        }
    }
}

extension FieldValue.Choice {
    var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = []
        if let group { members.append(("group", .string(group))) }
        if let label { members.append(("label", .string(label))) }
        members.append(("value", .string(value)))
        return .object(JSONObject(members))
    }
}
