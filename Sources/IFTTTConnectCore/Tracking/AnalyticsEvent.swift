import Foundation

/// One usage-analytics event, in the shape IFTTT's `POST /v2/sdk/events` expects.
///
/// Events never carry an email address, a user token or anything typed by the user: only which element of
/// the SDK's UI was shown or used, the Connection's id and status, and the time.
@_spi(Sandbox) public struct AnalyticsEvent: Sendable, Hashable {
    /// The event's name on the wire.
    public enum Name: String, Sendable, Hashable, CaseIterable {
        /// A screen was shown (`sdk.pageviewed`).
        case pageViewed = "sdk.pageviewed"
        /// A Connection changed state (`sdk.statechange`).
        case stateChange = "sdk.statechange"
        /// Something was tapped (`sdk.click`).
        case click = "sdk.click"
        /// Something was shown (`sdk.impression`).
        case impression = "sdk.impression"
    }

    /// Where in the UI an event happened.
    public struct Location: Sendable, Hashable {
        /// The kind of place, such as `connect_button`.
        public var type: String
        /// Which one, such as the Connection id or the host app's name.
        public var id: String?

        /// Creates a location.
        public init(type: String, id: String?) {
            self.type = type
            self.id = id
        }

        /// The Connect Button, optionally with an id.
        public static func connectButton(_ id: String?) -> Location { Location(type: "connect_button", id: id) }
    }

    /// What an event is about.
    public struct Object: Sendable, Hashable {
        /// The kind of object, such as `connection` or `button`.
        public var type: String
        /// Which one.
        public var id: String?
        /// Extra properties sent before the standard ones, such as `object_status`.
        public var attributes: [String: String]

        /// Creates an object.
        public init(type: String, id: String?, attributes: [String: String] = [:]) {
            self.type = type
            self.id = id
            self.attributes = attributes
        }

        /// A Connection, with its status as `object_status`.
        public static func connection(_ connection: Connection) -> Object {
            Object(type: "connection", id: connection.id, attributes: ["object_status": connection.status.rawValue])
        }

        /// The email step (never the email itself).
        public static let connectionEmail = Object(type: "connection_email", id: nil)
        /// The "works with IFTTT" footer.
        public static let worksWithIFTTT = Object(type: "works_with_ifttt", id: "button")
        /// The About page.
        public static let aboutPage = Object(type: "modal", id: "connect_information")

        /// A button of the About page: a service's name, `privacy_policy`, `manage`, or the Connection's name.
        public static func aboutButton(_ id: String) -> Object { Object(type: "button", id: id) }
    }

    /// The states a ``Name/stateChange`` event reports.
    public enum State: String, Sendable, Hashable {
        /// The user turned the Connection on for the first time.
        case created
        /// The user turned the Connection on again.
        case enabled
    }

    /// The event's name.
    public var name: Name
    /// When it happened.
    public var timestamp: Date
    /// Where it happened.
    public var location: Location?
    /// Where the user came from.
    public var sourceLocation: Location?
    /// What it is about.
    public var object: Object?
    /// The new state, for state changes.
    public var state: State?

    /// Creates an event.
    public init(
        name: Name, timestamp: Date, location: Location? = nil, sourceLocation: Location? = nil,
        object: Object? = nil, state: State? = nil
    ) {
        self.name = name
        self.timestamp = timestamp
        self.location = location
        self.sourceLocation = sourceLocation
        self.object = object
        self.state = state
    }

    /// The button showed `connection` inside the host app named `hostName`.
    public static func impression(of connection: Connection, hostName: String?, at time: Date) -> AnalyticsEvent {
        AnalyticsEvent(
            name: .impression, timestamp: time, location: .connectButton(hostName), object: .connection(connection))
    }

    /// The user tapped `object` on the button or About page of `connectionId`.
    public static func click(_ object: Object, connectionId: String?, at time: Date) -> AnalyticsEvent {
        AnalyticsEvent(name: .click, timestamp: time, location: .connectButton(connectionId), object: object)
    }

    /// `connection` was turned on (`created` the first time, `enabled` after that).
    public static func stateChange(of connection: Connection, to state: State, at time: Date) -> AnalyticsEvent {
        AnalyticsEvent(name: .stateChange, timestamp: time, object: .connection(connection), state: state)
    }

    /// The activation-complete screen of `connectionId` was shown.
    public static func pageView(connectionId: String, at time: Date) -> AnalyticsEvent {
        AnalyticsEvent(name: .pageViewed, timestamp: time, location: .connectButton(connectionId))
    }

    /// The time as epoch milliseconds, rounded, as a string (the wire format).
    public var timestampString: String {
        String(Int64((timestamp.timeIntervalSince1970 * 1000).rounded()))
    }

    /// The event as JSON: `name`, `timestamp`, and `properties` without the absent values.
    package var jsonValue: JSONValue {
        var properties: [(String, JSONValue)] = []
        for key in (object?.attributes.keys.sorted() ?? []) {
            if let value = object?.attributes[key] { properties.append((key, .string(value))) }
        }
        func add(_ key: String, _ value: String?) {
            if let value { properties.append((key, .string(value))) }
        }
        add("location_type", location?.type)
        add("location_id", location?.id)
        add("source_location_type", sourceLocation?.type)
        add("source_location_id", sourceLocation?.id)
        add("object_type", object?.type)
        add("object_id", object?.id)
        add("state", state?.rawValue)
        return .object(
            JSONObject([
                ("name", .string(name.rawValue)),
                ("timestamp", .string(timestampString)),
                ("properties", .object(JSONObject(properties))),
            ]))
    }
}
