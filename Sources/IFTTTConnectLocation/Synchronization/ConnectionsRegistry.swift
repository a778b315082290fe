import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// A Connection as the synchronizer keeps it between launches: its status and its geofences, nothing else.
@_spi(Sandbox) public struct StoredConnection: Sendable, Hashable, Codable, Identifiable {
    /// One geofence of the Connection.
    public struct Region: Sendable, Hashable, Codable {
        /// The user feature trigger id.
        public var triggerSubscriptionId: String
        /// Latitude of the centre in degrees.
        public var latitude: Double
        /// Longitude of the centre in degrees.
        public var longitude: Double
        /// Radius in metres as configured.
        public var radius: Double
        /// `LocationTransitions` raw bits.
        public var transitions: Int
    }

    /// The Connection id.
    public var id: String
    /// The user's status (`enabled`, `disabled`, `never_enabled`, `unknown`).
    public var status: String
    /// The geofences of the user's enabled location triggers.
    public var regions: [Region]
    /// Whether the Connection has location triggers; `nil` until it was fetched once.
    public var hasLocationTriggers: Bool?

    /// A Connection known only by id (from `activate(connections:)`), assumed enabled until fetched.
    public init(id: String) {
        self.id = id
        self.status = Connection.Status.enabled.rawValue
        self.regions = []
        self.hasLocationTriggers = nil
    }

    /// The stored form of a fetched Connection.
    public init(_ connection: Connection) {
        self.id = connection.id
        self.status = connection.status.rawValue
        self.regions = connection.locationRegions.map {
            Region(
                triggerSubscriptionId: $0.triggerSubscriptionId, latitude: $0.latitude, longitude: $0.longitude,
                radius: $0.radius, transitions: $0.transitions.rawValue)
        }
        self.hasLocationTriggers =
            !regions.isEmpty
            || connection.features.contains { feature in
                feature.triggers.contains { trigger in trigger.fields.contains { $0.type?.isLocation == true } }
            }
    }

    /// Whether automatic synchronization fetches this Connection: it has location triggers, or it was never fetched.
    public var needsSynchronization: Bool { hasLocationTriggers ?? true }

    /// The Connection's geofences when it is enabled, else none.
    public func geofences(radiusLimits: RadiusLimits) -> [Geofence] {
        guard status == Connection.Status.enabled.rawValue else { return [] }
        return regions.map {
            Geofence(
                LocationRegion(
                    triggerSubscriptionId: $0.triggerSubscriptionId, connectionId: id, latitude: $0.latitude,
                    longitude: $0.longitude, radius: $0.radius,
                    transitions: LocationTransitions(rawValue: $0.transitions)),
                radiusLimits: radiusLimits)
        }
    }
}

/// The Connections the user activated, persisted in `connections.json` (0600) in the storage directory.
///
/// The file also records whether synchronization is active, so a launch in the background by a geofence
/// crossing can upload it. The per-Connection geofence switch is not here but in ``GeofenceToggleStore``, so
/// refreshing a Connection can never reset it.
struct ConnectionsRegistry {
    struct File: Codable {
        var version = 1
        var active = false
        var connections: [StoredConnection] = []
    }

    let url: URL
    private(set) var isActive = false
    private(set) var connections: [String: StoredConnection] = [:]
    private var order: [String] = []

    init(directory: URL) {
        url = directory.appendingPathComponent("connections.json")
    }

    /// Reads the file; a missing or unreadable file is an empty, inactive registry.
    ///
    /// Launch reads it, so it is decoded with the SDK's own JSON parser (about 5x faster than `JSONDecoder` on
    /// 1,000 Connections); a file that does not have the expected shape goes through `JSONDecoder`, which
    /// decides as before.
    mutating func load() {
        guard let data = try? ProtectedFile.read(url),
            let file = File(fast: data) ?? (try? JSONDecoder().decode(File.self, from: data))
        else { return }
        isActive = file.active
        connections = [:]
        order = []
        for connection in file.connections where connections[connection.id] == nil {
            connections[connection.id] = connection
            order.append(connection.id)
        }
    }

    /// The stored Connections in the order they were added.
    var all: [StoredConnection] { order.compactMap { connections[$0] } }

    mutating func setActive(_ active: Bool) throws(LocationError) {
        isActive = active
        try save()
    }

    /// Adds Connections known only by id; stored ones keep their data. Returns whether anything changed.
    @discardableResult
    mutating func add(ids: [String]) throws(LocationError) -> Bool {
        var changed = false
        for id in ids where !id.isEmpty && connections[id] == nil {
            connections[id] = StoredConnection(id: id)
            order.append(id)
            changed = true
        }
        if changed { try save() }
        return changed
    }

    /// Stores a fetched Connection, adding it if needed, and saves the file unless `persist` is `false`
    /// (a refresh of many Connections saves once, with ``save()``). Returns whether the stored data changed.
    @discardableResult
    mutating func update(_ connection: StoredConnection, persist: Bool = true) throws(LocationError) -> Bool {
        guard connections[connection.id] != connection else { return false }
        if connections[connection.id] == nil { order.append(connection.id) }
        connections[connection.id] = connection
        if persist { try save() }
        return true
    }

    mutating func remove(id: String) throws(LocationError) {
        guard connections.removeValue(forKey: id) != nil else { return }
        order.removeAll { $0 == id }
        try save()
    }

    mutating func removeAll() throws(LocationError) {
        connections = [:]
        order = []
        try save()
    }

    /// Writes the file.
    func save() throws(LocationError) {
        let file = File(active: isActive, connections: all)
        let data: Data
        do { data = try JSONEncoder().encode(file) } catch {
            throw LocationError(.storage, "cannot encode the Connections")
        }
        try ProtectedFile.write(data, to: url)
    }
}

extension ConnectionsRegistry.File {
    /// Decodes the file's usual shape (what ``ConnectionsRegistry/save()`` writes) with ``JSONParser``; `nil`
    /// for anything else.
    init?(fast data: Data) {
        guard case .object(let root)? = try? JSONParser(maximumBytes: Int.max).parse(data),
            case .number(let version)? = root["version"], case .bool(let active)? = root["active"],
            case .array(let items)? = root["connections"]
        else { return nil }
        var connections: [StoredConnection] = []
        connections.reserveCapacity(items.count)
        for item in items {
            guard case .object(let object) = item, case .string(let id)? = object["id"],
                case .string(let status)? = object["status"], case .array(let regionItems)? = object["regions"]
            else { return nil }
            var stored = StoredConnection(id: id)
            stored.status = status
            switch object["hasLocationTriggers"] {
            case nil, .null?: stored.hasLocationTriggers = nil
            case .bool(let value)?: stored.hasLocationTriggers = value
            default: return nil
            }
            stored.regions.reserveCapacity(regionItems.count)
            for regionItem in regionItems {
                guard case .object(let region) = regionItem,
                    case .string(let trigger)? = region["triggerSubscriptionId"],
                    case .number(let latitude)? = region["latitude"],
                    case .number(let longitude)? = region["longitude"],
                    case .number(let radius)? = region["radius"],
                    case .number(let transitions)? = region["transitions"],
                    let bits = Int(exactly: transitions)
                else { return nil }
                stored.regions.append(
                    StoredConnection.Region(
                        triggerSubscriptionId: trigger, latitude: latitude,
                        longitude: longitude, radius: radius, transitions: bits))
            }
            connections.append(stored)
        }
        guard let fileVersion = Int(exactly: version) else { return nil }
        self.init(version: fileVersion, active: active, connections: connections)
    }
}

/// The per-Connection geofence switch (`ConnectButtonController.setGeofencesEnabled(enabled:for:)`),
/// persisted in `geofence_toggles.json`, apart from the Connections so that no refresh resets it (spec W-10).
///
/// Reads and writes are synchronous and thread-safe; the file is read on first use, not at creation.
@_spi(Sandbox) public final class GeofenceToggleStore: Sendable {
    /// The switches, `nil` until the file is read.
    private let values = Locked<[String: Bool]?>(nil)
    /// The file.
    public let url: URL

    /// Creates a store in `directory`.
    public init(directory: URL) {
        url = directory.appendingPathComponent("geofence_toggles.json")
    }

    /// The switches, read from the file on first use; call it inside `values.withLock`.
    private func loaded(_ values: inout [String: Bool]?) -> [String: Bool] {
        if let values { return values }
        let read =
            (try? ProtectedFile.read(url)).flatMap { try? JSONDecoder().decode([String: Bool].self, from: $0) } ?? [:]
        values = read
        return read
    }

    /// Whether geofences of `connectionId` are monitored: the stored switch, `true` when never set.
    public func isEnabled(_ connectionId: String) -> Bool {
        values.withLock { loaded(&$0)[connectionId] ?? true }
    }

    /// Sets and saves the switch of `connectionId`. Returns whether it changed.
    ///
    /// - Throws: ``LocationError/Code/storage`` when the file cannot be written; the switch is then unchanged.
    @discardableResult
    public func setEnabled(_ enabled: Bool, for connectionId: String) throws(LocationError) -> Bool {
        let outcome: Result<Bool, LocationError> = values.withLock { values in
            var current = loaded(&values)
            guard current[connectionId] ?? true != enabled else { return .success(false) }
            current[connectionId] = enabled
            let data: Data
            do { data = try JSONEncoder().encode(current) } catch {
                return .failure(LocationError(.storage, "cannot encode the geofence switches"))
            }
            do throws(LocationError) { try ProtectedFile.write(data, to: url) } catch { return .failure(error) }
            values = current
            return .success(true)
        }
        return try outcome.get()
    }
}
