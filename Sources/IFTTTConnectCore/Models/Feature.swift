import Foundation

extension Connection {
    /// A feature of a Connection: a unit the user can turn on, made of triggers, queries and actions.
    public struct Feature: Sendable, Hashable, Identifiable {
        /// The feature id.
        public let id: String
        /// The title.
        public let title: String
        /// The description, when there is one.
        @_spi(Sandbox) public let description: String?
        /// The icon.
        public let iconURL: URL?
        /// Where to fetch options for the feature's own fields.
        @_spi(Sandbox) public let fieldOptionsURL: URL?
        /// Fields that belong to the feature itself.
        @_spi(Sandbox) public let fields: [Field]
        /// The feature's triggers.
        public let triggers: [Step]
        /// The feature's queries.
        @_spi(Sandbox) public let queries: [Step]
        /// The feature's actions.
        @_spi(Sandbox) public let actions: [Step]

        /// Creates a feature.
        @_spi(Sandbox) public init(
            id: String, title: String, description: String? = nil, iconURL: URL? = nil,
            fieldOptionsURL: URL? = nil, fields: [Field] = [], triggers: [Step] = [],
            queries: [Step] = [], actions: [Step] = []
        ) {
            self.id = id
            self.title = title
            self.description = description
            self.iconURL = iconURL
            self.fieldOptionsURL = fieldOptionsURL
            self.fields = fields
            self.triggers = triggers
            self.queries = queries
            self.actions = actions
        }

        /// The description, when there is one (2.8's name).
        public var details: String? { description }

        /// All steps: triggers, then queries, then actions.
        @_spi(Sandbox) public var steps: [Step] { triggers + queries + actions }
    }

    /// One trigger, query or action of a feature.
    public struct Step: Sendable, Hashable, Identifiable {
        /// Which kind of step this is.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// A trigger (`feature_triggers`).
            case trigger
            /// A query (`feature_queries`).
            case query
            /// An action (`feature_actions`).
            case action

            /// The path segment of the Connect API for this kind (`triggers`, `queries`, `actions`).
            @_spi(Sandbox) public var pathSegment: String {
                switch self {
                case .trigger: return "triggers"
                case .query: return "queries"
                case .action: return "actions"
                }
            }
        }

        /// The kind of step.
        public let kind: Kind
        /// The feature step id (for example the feature trigger id).
        public let id: String
        /// The service's own id of the trigger, query or action (`trigger_id`, `query_id`, `action_id`).
        @_spi(Sandbox) public let typeId: String
        /// The service the step belongs to.
        @_spi(Sandbox) public let serviceId: String
        /// The label shown to users.
        public let label: String?
        /// Where to fetch options for the step's fields.
        @_spi(Sandbox) public let fieldOptionsURL: URL?
        /// Where to run the step (actions).
        @_spi(Sandbox) public let runURL: URL?
        /// The step's fields.
        public let fields: [Field]

        /// Creates a step.
        @_spi(Sandbox) public init(
            kind: Kind, id: String, typeId: String, serviceId: String, label: String? = nil,
            fieldOptionsURL: URL? = nil, runURL: URL? = nil, fields: [Field] = []
        ) {
            self.kind = kind
            self.id = id
            self.typeId = typeId
            self.serviceId = serviceId
            self.label = label
            self.fieldOptionsURL = fieldOptionsURL
            self.runURL = runURL
            self.fields = fields
        }

        /// The step's full type id as the Connect API paths use it: `service_id.type_id`.
        public var qualifiedTypeId: String { "\(serviceId).\(typeId)" }
    }

    /// A configurable field of a feature or step.
    public struct Field: Sendable, Hashable, Identifiable {
        /// The field id, such as `"location"`.
        public let id: String
        /// The label.
        public let label: String?
        /// The field type, such as ``FieldType/locationEnter``.
        public let type: FieldType?
        /// Whether the user must fill it in.
        public let isRequired: Bool
        /// Whether it is hidden from the user.
        public let isHidden: Bool
        /// The default value, when there is one.
        public let defaultValue: FieldValue?

        /// Creates a field.
        @_spi(Sandbox) public init(
            id: String, label: String? = nil, type: FieldType? = nil, isRequired: Bool = false,
            isHidden: Bool = false, defaultValue: FieldValue? = nil
        ) {
            self.id = id
            self.label = label
            self.type = type
            self.isRequired = isRequired
            self.isHidden = isHidden
            self.defaultValue = defaultValue
        }
    }
}

/// The type of a field, as the Connect API names it (`LOCATION_ENTER`, `TEXT_FIELD`, ...).
///
/// Unknown types are kept as they are, so new types from the API never fail decoding.
public enum FieldType: RawRepresentable, Sendable, Hashable {
    /// A location whose entry triggers.
    case locationEnter
    /// A location whose exit triggers.
    case locationExit
    /// A location whose entry and exit both trigger (the Connect API documentation's name).
    case locationEnterAndExit
    /// A location whose entry or exit triggers (the Android SDK's name of the same type).
    case locationEnterOrExit
    /// A location with a radius.
    case locationRadius
    /// A single point.
    case locationPoint
    /// Free text.
    case textField
    /// One choice of a list.
    case collectionSelect
    /// One choice of a grouped list.
    case doubleCollectionSelect
    /// Several choices.
    case checkboxMulti
    /// A type this SDK has no case for, by its API name. ``init(rawValue:)`` makes it only for names that no other
    /// case has.
    case other(String)

    private static let named: [FieldType] = [
        .locationEnter, .locationExit, .locationEnterAndExit, .locationEnterOrExit, .locationRadius, .locationPoint,
        .textField, .collectionSelect, .doubleCollectionSelect, .checkboxMulti,
    ]

    /// The type the API names `rawValue` (such as `LOCATION_ENTER`); ``other(_:)`` for a name without its own case.
    public init(rawValue: String) {
        self = Self.named.first { $0.rawValue == rawValue } ?? .other(rawValue)
    }

    /// The API's name of the type.
    public var rawValue: String {
        switch self {
        case .locationEnter: "LOCATION_ENTER"
        case .locationExit: "LOCATION_EXIT"
        case .locationEnterAndExit: "LOCATION_ENTER_AND_EXIT"
        case .locationEnterOrExit: "LOCATION_ENTER_OR_EXIT"
        case .locationRadius: "LOCATION_RADIUS"
        case .locationPoint: "LOCATION_POINT"
        case .textField: "TEXT_FIELD"
        case .collectionSelect: "COLLECTION_SELECT"
        case .doubleCollectionSelect: "DOUBLE_COLLECTION_SELECT"
        case .checkboxMulti: "CHECKBOX_MULTI"
        case .other(let name): name
        }
    }

    /// Whether values of this type are locations.
    @_spi(Sandbox) public var isLocation: Bool { rawValue.hasPrefix("LOCATION_") }

    /// The region transitions a location trigger of this type reports, or `nil` when it is no trigger type.
    @_spi(Sandbox) public var locationTransitions: LocationTransitions? {
        switch self {
        case .locationEnter: return .enter
        case .locationExit: return .exit
        case .locationEnterAndExit, .locationEnterOrExit: return [.enter, .exit]
        default: return nil
        }
    }
}

/// Region transitions that a location trigger reports.
@_spi(Sandbox) public struct LocationTransitions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates transitions from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Entering the region.
    public static let enter = LocationTransitions(rawValue: 1 << 0)
    /// Leaving the region.
    public static let exit = LocationTransitions(rawValue: 1 << 1)

    /// `["enter"]`, `["exit"]` or `["enter", "exit"]`.
    public var names: [String] {
        var result: [String] = []
        if contains(.enter) { result.append("enter") }
        if contains(.exit) { result.append("exit") }
        return result
    }
}
