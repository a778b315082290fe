import Foundation

extension Connection {
    /// Decodes a Connection from a Connect API payload: an object with `"type": "connection"` (or no type),
    /// or a `{"type":"list","data":[...]}` envelope, whose first Connection is taken.
    ///
    /// ```swift
    /// let connection = try Connection.decode(from: data)
    /// print(connection.primaryService.name, connection.status)
    /// ```
    /// - Throws: ``ConnectDecodingError`` naming the JSON path of the problem.
    @_spi(Sandbox) public static func decode(from data: Data) throws(ConnectDecodingError) -> Connection {
        try decode(json: JSONParser().parse(data))
    }

    /// Decodes a Connection with a parser of other limits (see ``decode(from:)``).
    package static func decode(from data: Data, parser: JSONParser) throws(ConnectDecodingError) -> Connection {
        try decode(json: parser.parse(data))
    }

    /// Decodes a Connection from parsed JSON (see ``decode(from:)``).
    package static func decode(json: JSONValue) throws(ConnectDecodingError) -> Connection {
        do throws(ConnectDecodingError) {
            let reader = try JSONReader(json)
            switch try reader.optionalString("type") {
            case nil, "connection":
                return try Connection(reader: reader)
            case "list":
                let connections = try decodeList(json: json)
                guard let first = connections.first else {
                    throw ConnectDecodingError(path: ".data", reason: .invalidValue("the list holds no Connection"))
                }
                return first
            case let other?:
                throw ConnectDecodingError(
                    path: ".type",
                    reason: .invalidValue("expected \"connection\" or \"list\", got \"\(other.prefix(40))\""))
            }
        } catch {
            throw error.rooted()
        }
    }

    /// Decodes every Connection of a `{"type":"list","data":[...]}` envelope.
    /// - Throws: ``ConnectDecodingError`` naming the JSON path of the problem.
    @_spi(Sandbox) public static func decodeList(from data: Data) throws(ConnectDecodingError) -> [Connection] {
        try decodeList(json: JSONParser().parse(data))
    }

    /// Decodes every Connection of a list envelope with a parser of other limits (see ``decodeList(from:)``).
    package static func decodeList(from data: Data, parser: JSONParser) throws(ConnectDecodingError)
        -> [Connection]
    {
        try decodeList(json: parser.parse(data))
    }

    /// Decodes every Connection of a parsed list envelope.
    package static func decodeList(json: JSONValue) throws(ConnectDecodingError) -> [Connection] {
        do throws(ConnectDecodingError) {
            let envelope = try ListEnvelope(json: json)
            var result: [Connection] = []
            result.reserveCapacity(envelope.data.count)
            for (index, item) in envelope.data.enumerated() {
                do throws(ConnectDecodingError) {
                    result.append(try Connection(reader: JSONReader(item)))
                } catch {
                    throw error.prefixed(".data[\(index)]")
                }
            }
            return result
        } catch {
            throw error.rooted()
        }
    }

    init(reader: JSONReader) throws(ConnectDecodingError) {
        let id = try reader.string("id")
        let name = try reader.string("name")
        let url = try reader.url("url")
        // As in 2.8, a service without one of its required keys is left out; the Connection fails only when
        // no primary service remains (naming the first left-out service, which may have been the primary).
        let (services, firstDropped) = try reader.arrayDropping("services", Service.init(json:))
        guard services.contains(where: \.isPrimary) else {
            throw firstDropped ?? ConnectDecodingError(path: ".services", reason: .noPrimaryService)
        }
        let coverImages: [CoverImage] =
            try reader.nested("cover_image") { value throws(ConnectDecodingError) in
                guard case .object(let object) = value else {
                    throw ConnectDecodingError(
                        path: "", reason: .typeMismatch(expected: "object", found: value.typeName))
                }
                return object.members.compactMap { member in
                    guard member.key.hasSuffix("w_url"), let width = Int(member.key.dropLast(5)), width > 0,
                        let text = member.value.stringValue, let url = JSONReader.webURL(text)
                    else { return nil }
                    return CoverImage(width: width, url: url)
                }
            } ?? []
        let enabledCount = try reader.optionalDouble("enabled_count")
        try self.init(
            id: id,
            name: name,
            description: reader.optionalString("description") ?? "",
            url: url,
            status: Status(wireValue: reader.value("user_status")?.stringValue),
            services: services,
            coverImages: coverImages,
            valuePropositions: reader.array("value_propositions", ValueProposition.init(json:)),
            // As in 2.8, a feature without its title is left out rather than failing the Connection.
            features: reader.arrayDroppingIncomplete("features", Feature.init(json:)),
            userConnection: reader.nested("user_connection", UserConnection.init(json:)),
            enabledCount: enabledCount.flatMap { $0 >= 0 && $0 < 1e15 ? Int($0) : nil }
        )
    }
}

extension Connection.Service {
    init(json: JSONValue) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        self.init(
            id: try reader.string("service_id"),
            name: try reader.string("service_name"),
            shortName: try reader.optionalString("service_short_name"),
            isPrimary: try reader.bool("is_primary", default: false),
            monochromeIconURL: try reader.optionalWebURL("monochrome_icon_url"),
            colorIconURL: try reader.optionalWebURL("color_icon_url"),
            brandColor: try reader.optionalString("brand_color").flatMap(ConnectColor.init(hex:)),
            url: try reader.optionalWebURL("url")
        )
    }
}

extension Connection.ValueProposition {
    init(json: JSONValue) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        self.init(
            description: try reader.optionalString("description") ?? "",
            iconURL: try reader.optionalWebURL("icon_url"))
    }
}

extension Connection.Feature {
    init(json: JSONValue) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        self.init(
            id: try reader.optionalString("id") ?? "",
            title: try reader.string("title"),
            description: try reader.optionalString("description"),
            iconURL: try reader.optionalWebURL("icon_url"),
            fieldOptionsURL: try reader.optionalURL("field_options_url"),
            fields: try reader.arrayDroppingIncomplete("fields", Connection.Field.init(json:)),
            triggers: try reader.arrayDroppingIncomplete("feature_triggers") { value throws(ConnectDecodingError) in
                try Connection.Step(json: value, kind: .trigger)
            },
            queries: try reader.arrayDroppingIncomplete("feature_queries") { value throws(ConnectDecodingError) in
                try Connection.Step(json: value, kind: .query)
            },
            actions: try reader.arrayDroppingIncomplete("feature_actions") { value throws(ConnectDecodingError) in
                try Connection.Step(json: value, kind: .action)
            }
        )
    }
}

extension Connection.Step {
    init(json: JSONValue, kind: Kind) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        let typeKey: String
        switch kind {
        case .trigger: typeKey = "trigger_id"
        case .query: typeKey = "query_id"
        case .action: typeKey = "action_id"
        }
        self.init(
            kind: kind,
            id: try reader.string("id"),
            typeId: try reader.optionalString(typeKey) ?? "",
            serviceId: try reader.optionalString("service_id") ?? "",
            label: try reader.optionalString("label"),
            fieldOptionsURL: try reader.optionalURL("field_options_url"),
            runURL: try reader.optionalURL("run_url"),
            fields: try reader.arrayDroppingIncomplete("fields", Connection.Field.init(json:))
        )
    }
}

extension Connection.Field {
    init(json: JSONValue) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        let type = try reader.optionalString("type").map(FieldType.init(rawValue:))
        self.init(
            id: try reader.string("id"),
            label: try reader.optionalString("label"),
            type: type,
            isRequired: try reader.bool("required", default: false),
            isHidden: try reader.bool("hidden", default: false),
            defaultValue: reader.value("default_value").map { FieldValue(json: $0, type: type) }
        )
    }
}

extension UserConnection {
    init(json: JSONValue) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        self.init(
            userFeatures: try reader.arrayDroppingIncomplete("user_features", UserFeature.init(json:)),
            // Only the JSON boolean `true` marks it pending (a missing key or any other value: configured).
            isPending: reader.value("pending")?.boolValue == true)
    }
}

extension UserFeature {
    init(json: JSONValue) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        self.init(
            // 2.8 reads neither `id` nor `feature_id`: a user feature without them still counts.
            id: try reader.optionalString("id") ?? "",
            featureId: try reader.optionalString("feature_id") ?? "",
            // A JSON `true` (or `1`, which Foundation reads as `true`) turns a feature on, as ConnectSDK-iOS 2.8
            // reads it; missing, `"true"` or any other value: off.
            isEnabled: reader.value("enabled") == .bool(true) || reader.value("enabled") == .number(1),
            userFields: reader.arrayDroppingInvalid("user_fields", UserField.init(json:)),
            triggers: reader.arrayDroppingInvalid("user_feature_triggers") { value throws(ConnectDecodingError) in
                try UserFeatureStep(json: value, stepKey: "feature_trigger_id")
            },
            queries: reader.arrayDroppingInvalid("user_feature_queries") { value throws(ConnectDecodingError) in
                try UserFeatureStep(json: value, stepKey: "feature_query_id")
            },
            actions: reader.arrayDroppingInvalid("user_feature_actions") { value throws(ConnectDecodingError) in
                try UserFeatureStep(json: value, stepKey: "feature_action_id")
            }
        )
    }
}

extension UserFeatureStep {
    init(json: JSONValue, stepKey: String) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        // 2.8 reads only `id` (the trigger subscription id); the feature step id is optional.
        self.init(
            id: try reader.string("id"), featureStepId: try reader.optionalString(stepKey),
            userFields: reader.arrayDroppingInvalid("user_fields", UserField.init(json:)))
    }
}

extension JSONReader {
    /// The elements of an array that `element` reads, leaving out every other one (a `null`, a wrong type, a
    /// missing key), and none when the value is not an array. For the steps and fields of a user's configuration:
    /// one bad trigger or field never costs its siblings, or the Connection (ConnectSDK-iOS 2.8 skipped them too).
    fileprivate func arrayDroppingInvalid<T>(_ key: String, _ element: (JSONValue) throws(ConnectDecodingError) -> T)
        -> [T]
    {
        guard case .array(let items)? = value(key) else { return [] }
        return items.compactMap { item in try? element(item) }
    }
}

extension UserField {
    init(json: JSONValue) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        let type = try reader.optionalString("field_type").map(FieldType.init(rawValue:))
        self.init(
            fieldId: try reader.string("field_id"), fieldType: type,
            value: FieldValue(json: reader.value("value") ?? .null, type: type))
    }
}
