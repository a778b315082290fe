import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// Turns a requested user configuration (`PUT /v2/connections/{id}/user_connection`, or a seed file's user
/// connection) into the stored one: validated against the connection's features, with `field_type`s from the
/// definitions, normalized values, and stable ids.
enum UserConnectionConfigurator {
    /// Builds the new user features of a `PUT` body.
    ///
    /// * Unknown feature, step or field ids, duplicates, values of the wrong shape, and missing required fields of
    ///   enabled features are collected and thrown together as one 422 ``APIError`` with details, each naming its
    ///   parameter as a JSON pointer into the body (`/user_features/0/feature_id`), as IFTTT's error example does.
    /// * A user feature or step that already existed for the same feature or feature step keeps its `id` (trigger
    ///   subscription ids stay stable); new ones get a UUID.
    /// * Every step of a configured feature gets a user step, even when the body omits it.
    /// * Fields that the body omits (a whole step's configuration included) get their default value when they have
    ///   one, required or not: IFTTT's docs say omitting a configuration removes it; a required field without a
    ///   default is still a 422.
    static func configure(
        _ requested: [SeedData.UserFeature], connection: SeedData.Connection, existing: SeedData.UserConnection?
    ) throws(APIError) -> [SeedData.UserFeature] {
        var details: [APIError.Detail] = []
        var seenFeatures = Set<String>()
        var result: [SeedData.UserFeature] = []

        for (fi, requestedFeature) in requested.enumerated() {
            let path = "/user_features/\(fi)"
            guard let feature = connection.feature(id: requestedFeature.featureId) else {
                details.append(
                    .init(
                        parameter: "\(path)/feature_id",
                        message: "Unknown feature \"\(requestedFeature.featureId)\" for this connection."))
                continue
            }
            guard seenFeatures.insert(feature.id).inserted else {
                details.append(
                    .init(
                        parameter: "\(path)/feature_id",
                        message: "The feature \"\(feature.id)\" is configured twice."))
                continue
            }
            let previous = existing?.userFeatures.first { $0.featureId == feature.id }
            let checkRequired = requestedFeature.enabled
            var out = SeedData.UserFeature(
                id: previous?.id ?? newId(), featureId: feature.id, enabled: requestedFeature.enabled)
            out.userFields = resolve(
                requestedFeature.userFields, definitions: feature.fields,
                options: connection.fieldOptions[feature.id] ?? [:], path: "\(path)/user_fields",
                owner: "feature \"\(feature.id)\"", checkRequired: checkRequired, details: &details)

            for kind in SeedData.StepKind.allCases {
                let listPath = "\(path)/\(kind.userListKey)"
                let requestedSteps = requestedFeature.userSteps(kind)
                var seenSteps = Set<String>()
                for (si, userStep) in requestedSteps.enumerated() {
                    if !feature.steps(kind).contains(where: { $0.id == userStep.featureStepId }) {
                        details.append(
                            .init(
                                parameter: "\(listPath)/\(si)/\(kind.userStepReferenceKey)",
                                message:
                                    "Unknown feature \(kind.rawValue) \"\(userStep.featureStepId)\" in feature \"\(feature.id)\"."
                            ))
                    } else if !seenSteps.insert(userStep.featureStepId).inserted {
                        details.append(
                            .init(
                                parameter: "\(listPath)/\(si)/\(kind.userStepReferenceKey)",
                                message:
                                    "The feature \(kind.rawValue) \"\(userStep.featureStepId)\" is configured twice."))
                    }
                }
                var steps: [SeedData.UserStep] = []
                for step in feature.steps(kind) {
                    let index = requestedSteps.firstIndex { $0.featureStepId == step.id }
                    let previousStep = previous?.userSteps(kind).first { $0.featureStepId == step.id }
                    let fields = resolve(
                        index.map { requestedSteps[$0].userFields } ?? [], definitions: step.fields,
                        options: connection.fieldOptions[step.typeId] ?? [:],
                        path: index.map { "\(listPath)/\($0)/user_fields" } ?? listPath,
                        owner: "feature \(kind.rawValue) \"\(step.id)\"", checkRequired: checkRequired,
                        details: &details)
                    steps.append(
                        SeedData.UserStep(
                            id: previousStep?.id ?? newId(), kind: kind, featureStepId: step.id, userFields: fields))
                }
                out.setUserSteps(kind, steps)
            }
            result.append(out)
        }
        if !details.isEmpty {
            throw APIError.unprocessable("The user connection configuration is invalid.", details: details)
        }
        return result
    }

    /// Completes a seed file's user features: missing ids become deterministic (`{user}-{feature or step id}`) so
    /// that loading the same seed twice keeps them, and missing `field_type`s come from the definitions.
    /// References were checked by ``SeedData/validate(source:)`` before.
    static func completeSeed(_ userConnection: SeedData.UserConnection, connection: SeedData.Connection)
        -> SeedData.UserConnection
    {
        var result = userConnection
        result.userFeatures = userConnection.userFeatures.map { userFeature in
            var out = userFeature
            let feature = connection.feature(id: userFeature.featureId)
            out.id = userFeature.id ?? "\(userConnection.userId)-\(userFeature.featureId)"
            out.userFields = typed(userFeature.userFields, feature?.fields ?? [])
            for kind in SeedData.StepKind.allCases {
                out.setUserSteps(
                    kind,
                    userFeature.userSteps(kind).map { userStep in
                        var step = userStep
                        step.id = userStep.id ?? "\(userConnection.userId)-\(userStep.featureStepId)"
                        let definition = feature?.steps(kind).first { $0.id == userStep.featureStepId }
                        step.userFields = typed(userStep.userFields, definition?.fields ?? [])
                        return step
                    })
            }
            return out
        }
        return result
    }

    private static func typed(_ fields: [SeedData.UserField], _ definitions: [SeedData.Field]) -> [SeedData.UserField] {
        fields.map { field in
            var out = field
            if out.fieldType == nil { out.fieldType = definitions.first { $0.id == field.fieldId }?.type }
            return out
        }
    }

    private static func newId() -> String { UUID().uuidString.lowercased() }

    /// Validates requested field values against their definitions and returns them in definition order.
    private static func resolve(
        _ requested: [SeedData.UserField], definitions: [SeedData.Field], options: [String: [SeedData.FieldOption]],
        path: String, owner: String, checkRequired: Bool, details: inout [APIError.Detail]
    ) -> [SeedData.UserField] {
        var seen = Set<String>()
        for (i, field) in requested.enumerated() {
            if !definitions.contains(where: { $0.id == field.fieldId }) {
                details.append(
                    .init(
                        parameter: "\(path)/\(i)/field_id",
                        message: "Unknown field \"\(field.fieldId)\" in \(owner)."))
            } else if !seen.insert(field.fieldId).inserted {
                details.append(
                    .init(
                        parameter: "\(path)/\(i)/field_id",
                        message: "The field \"\(field.fieldId)\" is set twice."))
            }
        }
        var out: [SeedData.UserField] = []
        for definition in definitions {
            let index = requested.firstIndex { $0.fieldId == definition.id }
            let value = index.map { requested[$0].value } ?? .null
            if isBlank(value) {
                // Omitted (or blank): the user's configuration of the field is removed, so its default applies
                // when it has one (IFTTT's docs: omitting a step's configuration removes it), required or not.
                if !definition.defaultValue.isNull {
                    out.append(
                        .init(fieldId: definition.id, fieldType: definition.type, value: definition.defaultValue))
                } else if definition.required, checkRequired {
                    details.append(
                        .init(
                            parameter: index.map { "\(path)/\($0)/value" } ?? path,
                            message: "The required field \"\(definition.id)\" of \(owner) is missing."))
                }
                continue
            }
            switch normalize(value, definition: definition, options: options[definition.id] ?? []) {
            case .success(let normalized):
                out.append(.init(fieldId: definition.id, fieldType: definition.type, value: normalized))
            case .failure(let problem):
                details.append(
                    .init(
                        parameter: "\(path)/\(index ?? 0)/value",
                        message: "Field \"\(definition.id)\": \(problem.message)"))
            }
        }
        return out
    }

    private static func isBlank(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .string(let s): s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        default: false
        }
    }

    struct Problem: Error {
        var message: String
    }

    /// Checks a value against its field type and brings it into the shape IFTTT returns:
    /// locations keep their numbers and get `lat`/`lng` keys; collection selects become `{group,label,value}`;
    /// checkbox lists become `[{label,value}]`; text fields must be strings. Unknown types pass unchanged.
    static func normalize(_ value: JSONValue, definition: SeedData.Field, options: [SeedData.FieldOption])
        -> Result<JSONValue, Problem>
    {
        let type = definition.type.uppercased()
        if type.hasPrefix("LOCATION_") {
            return normalizeLocation(value, needsRadius: type != "LOCATION_POINT")
        }
        switch type {
        case "COLLECTION_SELECT", "DOUBLE_COLLECTION_SELECT":
            return choice(value, options: options).map { option in
                ["group": .optional(option.group), "label": .string(option.label), "value": .string(option.value)]
            }
        case "CHECKBOX_MULTI":
            guard let elements = value.arrayValue else { return .failure(Problem(message: "expected an array")) }
            var out: [JSONValue] = []
            for element in elements {
                switch choice(element, options: options) {
                case .success(let option):
                    out.append(["label": .string(option.label), "value": .string(option.value)])
                case .failure(let problem):
                    return .failure(problem)
                }
            }
            return .success(.array(out))
        case _ where type.hasPrefix("TEXT"):
            guard value.stringValue != nil else { return .failure(Problem(message: "expected a string")) }
            return .success(value)
        default:
            return .success(value)
        }
    }

    private static func choice(_ value: JSONValue, options: [SeedData.FieldOption])
        -> Result<SeedData.FieldOption, Problem>
    {
        let selected: String
        if let s = value.stringValue {
            selected = s
        } else if let s = value["value"]?.stringValue {
            selected = s
        } else {
            return .failure(Problem(message: "expected an option value (a string or {\"value\": ...})"))
        }
        if options.isEmpty {
            return .success(
                SeedData.FieldOption(
                    label: value["label"]?.stringValue ?? selected, value: selected, group: value["group"]?.stringValue)
            )
        }
        guard let option = options.first(where: { $0.value == selected }) else {
            return .failure(Problem(message: "\"\(selected)\" is not one of the field's options"))
        }
        return .success(option)
    }

    private static func normalizeLocation(_ value: JSONValue, needsRadius: Bool) -> Result<JSONValue, Problem> {
        guard case .object(let object) = value else {
            return .failure(Problem(message: "expected a location object {lat, lng, radius, address}"))
        }
        guard let lat = (value["lat"] ?? value["latitude"])?.doubleValue, (-90...90).contains(lat) else {
            return .failure(Problem(message: "lat must be a number between -90 and 90"))
        }
        guard let lng = (value["lng"] ?? value["longitude"])?.doubleValue, (-180...180).contains(lng) else {
            return .failure(Problem(message: "lng must be a number between -180 and 180"))
        }
        if let radius = value["radius"], !radius.isNull {
            guard let r = radius.doubleValue, r > 0 else {
                return .failure(Problem(message: "radius must be a positive number of metres"))
            }
        } else if needsRadius {
            return .failure(Problem(message: "radius is required for this location field"))
        }
        let hasShortKeys = value["lat"] != nil || value["lng"] != nil
        let renamed = object.members.map { member -> (String, JSONValue) in
            switch member.key {
            case "latitude" where !hasShortKeys: ("lat", member.value)
            case "longitude" where !hasShortKeys: ("lng", member.value)
            default: (member.key, member.value)
            }
        }
        return .success(.object(JSONObject(renamed)))
    }
}
