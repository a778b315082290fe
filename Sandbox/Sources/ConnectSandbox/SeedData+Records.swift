import Foundation

// The record types of the seed format. Keys are snake_case, as in the IFTTT wire format; optional keys fall back to
// the documented defaults. `docs/sandbox-seed-file.md` describes every key.

extension SeedData {
    /// An IFTTT service (a "channel"), e.g. `grocery_express`.
    public struct Service: Codable, Sendable, Equatable {
        /// The service id (`service_id` on the wire), e.g. `grocery_express`.
        public var id: String
        /// The display name (`service_name`).
        public var name: String
        /// The short name (`service_short_name`). Defaults to `name`.
        public var shortName: String
        /// The brand colour as `#RRGGBB`.
        public var brandColor: String
        /// The service's page. Defaults to `https://ifttt.com/{id}`.
        public var url: String
        /// The secret key the service's backend sends as `IFTTT-Service-Key`. `nil` means the service has no backend
        /// access to the sandbox.
        public var serviceKey: String?
        /// An absolute monochrome icon URL. `nil` (the default) means the sandbox serves `/assets/icons/{id}.svg`.
        public var monochromeIconURL: String?
        /// An absolute colour icon URL. `nil` (the default) means the sandbox serves `/assets/icons/color/{id}.svg`.
        public var colorIconURL: String?

        /// Creates a service.
        public init(
            id: String, name: String, shortName: String? = nil, brandColor: String, url: String? = nil,
            serviceKey: String? = nil, monochromeIconURL: String? = nil, colorIconURL: String? = nil
        ) {
            self.id = id
            self.name = name
            self.shortName = shortName ?? name
            self.brandColor = brandColor
            self.url = url ?? "https://ifttt.com/\(id)"
            self.serviceKey = serviceKey
            self.monochromeIconURL = monochromeIconURL
            self.colorIconURL = colorIconURL
        }

        enum CodingKeys: String, CodingKey {
            case id, name
            case shortName = "short_name"
            case brandColor = "brand_color"
            case url
            case serviceKey = "service_key"
            case monochromeIconURL = "monochrome_icon_url"
            case colorIconURL = "color_icon_url"
        }

        /// Decodes a service; `short_name` and `url` are optional.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try c.decode(String.self, forKey: .id),
                name: try c.decode(String.self, forKey: .name),
                shortName: try c.decodeIfPresent(String.self, forKey: .shortName),
                brandColor: try c.decode(String.self, forKey: .brandColor),
                url: try c.decodeIfPresent(String.self, forKey: .url),
                serviceKey: try c.decodeIfPresent(String.self, forKey: .serviceKey),
                monochromeIconURL: try c.decodeIfPresent(String.self, forKey: .monochromeIconURL),
                colorIconURL: try c.decodeIfPresent(String.self, forKey: .colorIconURL))
        }

        /// Encodes the service with snake_case keys.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(name, forKey: .name)
            try c.encode(shortName, forKey: .shortName)
            try c.encode(brandColor, forKey: .brandColor)
            try c.encode(url, forKey: .url)
            try c.encodeIfPresent(serviceKey, forKey: .serviceKey)
            try c.encodeIfPresent(monochromeIconURL, forKey: .monochromeIconURL)
            try c.encodeIfPresent(colorIconURL, forKey: .colorIconURL)
        }
    }

    /// An IFTTT user of the sandbox.
    public struct User: Codable, Sendable, Equatable {
        /// The IFTTT user id, e.g. `alice`.
        public var id: String
        /// The login (`user_login` of `/v2/me`). Defaults to `id`.
        public var login: String
        /// The e-mail address; unique, compared case-insensitively.
        public var email: String
        /// The password for the web sign-in pages. `nil` means the user cannot sign in with a password. A seed file
        /// gives it in plain text; the store keeps only a salted hash (``SandboxStore/exportSeed()`` returns the hash, which loads
        /// back unchanged).
        public var password: String?
        /// User tokens (`Authorization: Bearer ...`) that identify this user. A user may have several.
        public var tokens: [String]

        /// Creates a user.
        public init(id: String, login: String? = nil, email: String, password: String? = nil, tokens: [String] = []) {
            self.id = id
            self.login = login ?? id
            self.email = email
            self.password = password
            self.tokens = tokens
        }

        enum CodingKeys: String, CodingKey { case id, login, email, password, tokens }

        /// Decodes a user; `login`, `password` and `tokens` are optional.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try c.decode(String.self, forKey: .id),
                login: try c.decodeIfPresent(String.self, forKey: .login),
                email: try c.decode(String.self, forKey: .email),
                password: try c.decodeIfPresent(String.self, forKey: .password),
                tokens: try c.decodeIfPresent([String].self, forKey: .tokens) ?? [])
        }

        /// Encodes the user.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(login, forKey: .login)
            try c.encode(email, forKey: .email)
            try c.encodeIfPresent(password, forKey: .password)
            try c.encode(tokens, forKey: .tokens)
        }
    }

    /// A user account on a partner service, used by the token exchange (`POST /v2/user_token`).
    public struct PartnerAccount: Codable, Sendable, Equatable {
        /// The partner service, e.g. `grocery_express`.
        public var serviceId: String
        /// The partner's own user id (the `user_id` query parameter of service-key calls), e.g. `gx-user-1001`.
        public var partnerUserId: String
        /// The partner's OAuth access token for this user (`access_token` of `/v2/user_token`).
        public var accessToken: String
        /// The partner's OAuth authorization code for this user (used by the web activation flow).
        public var oauthCode: String?
        /// The IFTTT user this partner account is linked to; `nil` when no IFTTT user has connected it.
        public var userId: String?
        /// The username on the partner's own sign-in page (the service's OAuth authorization page that the
        /// activation pages send a user through when the flow has no valid `code`). `nil`: no sign-in.
        public var login: String?
        /// The password of the partner's sign-in page. Stored as a salted hash; in a seed file, plain text.
        public var password: String?

        /// Creates a partner account.
        public init(
            serviceId: String, partnerUserId: String, accessToken: String, oauthCode: String? = nil,
            userId: String? = nil, login: String? = nil, password: String? = nil
        ) {
            self.serviceId = serviceId
            self.partnerUserId = partnerUserId
            self.accessToken = accessToken
            self.oauthCode = oauthCode
            self.userId = userId
            self.login = login
            self.password = password
        }

        enum CodingKeys: String, CodingKey {
            case serviceId = "service_id"
            case partnerUserId = "partner_user_id"
            case accessToken = "access_token"
            case oauthCode = "oauth_code"
            case userId = "user_id"
            case login, password
        }

        /// Encodes the account; `user_id` is written as `null` when unlinked.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(serviceId, forKey: .serviceId)
            try c.encode(partnerUserId, forKey: .partnerUserId)
            try c.encode(accessToken, forKey: .accessToken)
            try c.encodeIfPresent(oauthCode, forKey: .oauthCode)
            try c.encode(userId, forKey: .userId)
            try c.encodeIfPresent(login, forKey: .login)
            try c.encodeIfPresent(password, forKey: .password)
        }
    }

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

        /// Creates a connection definition.
        public init(
            id: String, name: String, description: String = "", published: Bool = true, inviteCode: String? = nil,
            primaryServiceId: String, serviceIds: [String]? = nil, coverImage: [String: String]? = nil,
            valuePropositions: [ValueProposition]? = nil, features: [Feature],
            fieldOptions: [String: [String: [FieldOption]]] = [:], publishedAt: String? = nil,
            platform: AppletPlatform? = nil
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
                platform: try c.decodeIfPresent(AppletPlatform.self, forKey: .platform))
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
        /// `feature_triggers`.
        public var featureTriggers: [Step]
        /// `feature_queries`.
        public var featureQueries: [Step]
        /// `feature_actions`.
        public var featureActions: [Step]

        /// Creates a feature.
        public init(
            id: String, title: String, description: String = "", iconURL: String? = nil, fields: [Field] = [],
            featureTriggers: [Step] = [], featureQueries: [Step] = [], featureActions: [Step] = []
        ) {
            self.id = id
            self.title = title
            self.description = description
            self.iconURL = iconURL
            self.fields = fields
            self.featureTriggers = featureTriggers
            self.featureQueries = featureQueries
            self.featureActions = featureActions
        }

        /// The steps of one kind.
        public func steps(_ kind: StepKind) -> [Step] {
            switch kind {
            case .trigger: featureTriggers
            case .query: featureQueries
            case .action: featureActions
            }
        }

        enum CodingKeys: String, CodingKey {
            case id, title, description
            case iconURL = "icon_url"
            case fields
            case featureTriggers = "feature_triggers"
            case featureQueries = "feature_queries"
            case featureActions = "feature_actions"
        }

        /// Decodes a feature in wire format. Each step must carry the id key of its list (`trigger_id` in
        /// `feature_triggers`, and so on).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func steps(_ key: CodingKeys, _ kind: StepKind) throws -> [Step] {
                let list = try c.decodeIfPresent([Step].self, forKey: key) ?? []
                for (i, step) in list.enumerated() where step.kind != kind {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: c.codingPath + [key, IndexKey(i)],
                            debugDescription: "a step in \(key.stringValue) needs \"\(kind.operationKey)\""))
                }
                return list
            }
            self.init(
                id: try c.decode(String.self, forKey: .id),
                title: try c.decode(String.self, forKey: .title),
                description: try c.decodeIfPresent(String.self, forKey: .description) ?? "",
                iconURL: try c.decodeIfPresent(String.self, forKey: .iconURL),
                fields: try c.decodeIfPresent([Field].self, forKey: .fields) ?? [],
                featureTriggers: try steps(.featureTriggers, .trigger),
                featureQueries: try steps(.featureQueries, .query),
                featureActions: try steps(.featureActions, .action))
        }

        /// Encodes the feature.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(title, forKey: .title)
            try c.encode(description, forKey: .description)
            try c.encodeIfPresent(iconURL, forKey: .iconURL)
            try c.encode(fields, forKey: .fields)
            try c.encode(featureTriggers, forKey: .featureTriggers)
            try c.encode(featureQueries, forKey: .featureQueries)
            try c.encode(featureActions, forKey: .featureActions)
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
        public var defaultValue: SandboxJSON

        /// Creates a field.
        public init(
            id: String, label: String? = nil, type: String = "TEXT_FIELD", required: Bool = false,
            hidden: Bool = false, defaultValue: SandboxJSON = .null
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
                defaultValue: try c.decodeIfPresent(SandboxJSON.self, forKey: .defaultValue) ?? .null)
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
                let list = try c.decodeIfPresent([UserStep].self, forKey: key) ?? []
                for (i, step) in list.enumerated() where step.kind != kind {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: c.codingPath + [key, IndexKey(i)],
                            debugDescription: "an entry of \(key.stringValue) needs \"\(kind.userStepReferenceKey)\""))
                }
                return list
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

        /// Encodes the user feature.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(id, forKey: .id)
            try c.encode(featureId, forKey: .featureId)
            try c.encode(enabled, forKey: .enabled)
            try c.encode(userFields, forKey: .userFields)
            try c.encode(userFeatureTriggers, forKey: .userFeatureTriggers)
            try c.encode(userFeatureQueries, forKey: .userFeatureQueries)
            try c.encode(userFeatureActions, forKey: .userFeatureActions)
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
        public var value: SandboxJSON

        /// Creates a user field.
        public init(fieldId: String, fieldType: String? = nil, value: SandboxJSON) {
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
                value: try c.decodeIfPresent(SandboxJSON.self, forKey: .value) ?? .null)
        }

        /// Encodes the user field in the order `field_id`, `field_type`, `value`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(fieldId, forKey: .fieldId)
            try c.encodeIfPresent(fieldType, forKey: .fieldType)
            try c.encode(value, forKey: .value)
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
