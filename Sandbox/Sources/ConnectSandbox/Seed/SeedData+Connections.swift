import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

// The Connection record type of the seed format and its value propositions. Keys are snake_case, as in the IFTTT
// wire format; optional keys fall back to the documented defaults. `docs/sandbox-seed-file.md` describes every key.

extension SeedData {
    /// A Connection definition: its services and its features in the IFTTT wire format.
    public struct Connection: Codable, Sendable, Equatable {
        /// The connection id, e.g. `gx-weekly-deals`.
        public var id: String
        /// The name shown to users.
        public var name: String
        /// The description shown to users. Default `""`.
        public var description: String
        /// Whether anyone may see the connection. An unpublished one needs the `IFTTT-Invite-Code` header (or the
        /// service key of its primary service). Default `true`.
        public var published: Bool
        /// The invite code that unlocks an unpublished connection.
        public var inviteCode: String?
        /// The service that owns the connection (`is_primary: true`).
        public var primaryServiceId: String
        /// The other services shown on the connection, in order. `nil` means: the services of the feature steps,
        /// in order of appearance.
        public var serviceIds: [String]?
        /// The cover image URLs keyed like the wire format (`480w_url` ... `4320w_url`). `nil` means images served
        /// by the sandbox.
        public var coverImage: [String: String]?
        /// The value propositions. `nil` means one per feature (its title and icon).
        public var valuePropositions: [ValueProposition]?
        /// The features, in the wire format of `GET /v2/connections/{id}` (URLs are ignored and rebuilt).
        public var features: [Feature]
        /// Dropdown options, keyed by step type id (`service_id.trigger_id`, e.g. `grocery_express.new_weekly_deals`)
        /// or by feature id for feature-level fields, then by field id.
        public var fieldOptions: [String: [String: [FieldOption]]]
        /// When the connection was published, as ISO 8601 (`2017-02-16T11:10:43-08:00`); shown as the legacy
        /// Applet's `published_at`. `nil` means ``SeedData/defaultPublishedAt``.
        public var publishedAt: String?
        /// Which mobile services the connection uses, for the legacy `platform` filter. `nil` means
        /// ``SeedData/AppletPlatform/none``.
        public var platform: AppletPlatform?
        /// What `POST .../queries/{query_id}/perform` answers: result items keyed by step type id
        /// (`service_id.query_id`). A query without an entry answers an empty list.
        public var queryResults: [String: [JSONValue]]

        /// Creates a connection definition.
        public init(
            id: String, name: String, description: String = "", published: Bool = true, inviteCode: String? = nil,
            primaryServiceId: String, serviceIds: [String]? = nil, coverImage: [String: String]? = nil,
            valuePropositions: [ValueProposition]? = nil, features: [Feature],
            fieldOptions: [String: [String: [FieldOption]]] = [:], publishedAt: String? = nil,
            platform: AppletPlatform? = nil, queryResults: [String: [JSONValue]] = [:]
        ) {
            self.id = id
            self.name = name
            self.description = description
            self.published = published
            self.inviteCode = inviteCode
            self.primaryServiceId = primaryServiceId
            self.serviceIds = serviceIds
            self.coverImage = coverImage
            self.valuePropositions = valuePropositions
            self.features = features
            self.fieldOptions = fieldOptions
            self.publishedAt = publishedAt
            self.platform = platform
            self.queryResults = queryResults
        }

        enum CodingKeys: String, CodingKey {
            case id, name, description, published
            case inviteCode = "invite_code"
            case primaryServiceId = "primary_service_id"
            case serviceIds = "service_ids"
            case coverImage = "cover_image"
            case valuePropositions = "value_propositions"
            case features
            case fieldOptions = "field_options"
            case publishedAt = "published_at"
            case platform
            case queryResults = "query_results"
        }

        /// Decodes a connection; see the seed file documentation for the optional keys.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try c.decode(String.self, forKey: .id),
                name: try c.decode(String.self, forKey: .name),
                description: try c.decodeIfPresent(String.self, forKey: .description) ?? "",
                published: try c.decodeIfPresent(Bool.self, forKey: .published) ?? true,
                inviteCode: try c.decodeIfPresent(String.self, forKey: .inviteCode),
                primaryServiceId: try c.decode(String.self, forKey: .primaryServiceId),
                serviceIds: try c.decodeIfPresent([String].self, forKey: .serviceIds),
                coverImage: try c.decodeIfPresent([String: String].self, forKey: .coverImage),
                valuePropositions: try c.decodeIfPresent([ValueProposition].self, forKey: .valuePropositions),
                features: try c.decode([Feature].self, forKey: .features),
                fieldOptions: try c.decodeIfPresent([String: [String: [FieldOption]]].self, forKey: .fieldOptions)
                    ?? [:],
                publishedAt: try c.decodeIfPresent(String.self, forKey: .publishedAt),
                platform: try c.decodeIfPresent(AppletPlatform.self, forKey: .platform),
                queryResults: (try c.decodeIfPresent([String: [JSONValue]].self, forKey: .queryResults) ?? [:])
                    .mapValues { $0.map { $0.sortedByKey() } })
        }

        /// Encodes the connection.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(name, forKey: .name)
            try c.encode(description, forKey: .description)
            try c.encode(published, forKey: .published)
            try c.encodeIfPresent(inviteCode, forKey: .inviteCode)
            try c.encode(primaryServiceId, forKey: .primaryServiceId)
            try c.encodeIfPresent(serviceIds, forKey: .serviceIds)
            try c.encodeIfPresent(coverImage, forKey: .coverImage)
            try c.encodeIfPresent(valuePropositions, forKey: .valuePropositions)
            try c.encode(features, forKey: .features)
            if !fieldOptions.isEmpty { try c.encode(fieldOptions, forKey: .fieldOptions) }
            try c.encodeIfPresent(publishedAt, forKey: .publishedAt)
            try c.encodeIfPresent(platform, forKey: .platform)
            if !queryResults.isEmpty { try c.encode(queryResults, forKey: .queryResults) }
        }

        /// The feature with the given id.
        public func feature(id: String) -> Feature? { features.first { $0.id == id } }

        /// The step whose type id (`service_id.operation_id`) and kind match, with its feature.
        public func step(kind: StepKind, typeId: String) -> (feature: Feature, step: Step)? {
            for feature in features {
                if let step = feature.steps(kind).first(where: { $0.typeId == typeId }) { return (feature, step) }
            }
            return nil
        }
    }

    /// One entry of `value_propositions`.
    public struct ValueProposition: Codable, Sendable, Equatable {
        /// The text.
        public var description: String
        /// The icon URL.
        public var iconURL: String?

        /// Creates a value proposition.
        public init(description: String, iconURL: String? = nil) {
            self.description = description
            self.iconURL = iconURL
        }

        enum CodingKeys: String, CodingKey {
            case description
            case iconURL = "icon_url"
        }
    }
}
