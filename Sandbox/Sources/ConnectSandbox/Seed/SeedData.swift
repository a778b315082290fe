import Foundation

/// The sandbox's seed file format: services, users, partner accounts, connections and user connections.
///
/// A seed file is a JSON object with the snake_case keys `services`, `users`, `partner_accounts`, `connections` and
/// `user_connections` (each optional, default `[]`). Connections carry their `features` in the IFTTT wire format of
/// `GET /v2/connections/{id}`. `docs/sandbox-seed-file.md` documents every key; the built-in demo data
/// (``demo()``) is `Resources/demo-seed.json` in this format.
///
/// Loading a seed into a store upserts: records with the same id are replaced, everything else stays.
public struct SeedData: Codable, Sendable, Equatable {
    /// The services.
    public var services: [Service]
    /// The IFTTT users.
    public var users: [User]
    /// Accounts of users on partner services, for the token exchange.
    public var partnerAccounts: [PartnerAccount]
    /// The connection definitions.
    public var connections: [Connection]
    /// Users' configurations of connections.
    public var userConnections: [UserConnection]

    /// Creates seed data.
    public init(
        services: [Service] = [], users: [User] = [], partnerAccounts: [PartnerAccount] = [],
        connections: [Connection] = [], userConnections: [UserConnection] = []
    ) {
        self.services = services
        self.users = users
        self.partnerAccounts = partnerAccounts
        self.connections = connections
        self.userConnections = userConnections
    }

    enum CodingKeys: String, CodingKey {
        case services, users
        case partnerAccounts = "partner_accounts"
        case connections
        case userConnections = "user_connections"
    }

    /// Decodes seed data; every top-level key is optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            services: try c.decodeIfPresent([Service].self, forKey: .services) ?? [],
            users: try c.decodeIfPresent([User].self, forKey: .users) ?? [],
            partnerAccounts: try c.decodeIfPresent([PartnerAccount].self, forKey: .partnerAccounts) ?? [],
            connections: try c.decodeIfPresent([Connection].self, forKey: .connections) ?? [],
            userConnections: try c.decodeIfPresent([UserConnection].self, forKey: .userConnections) ?? [])
    }

    /// `true` when there is nothing to load.
    public var isEmpty: Bool {
        services.isEmpty && users.isEmpty && partnerAccounts.isEmpty && connections.isEmpty && userConnections.isEmpty
    }

    // MARK: Loading

    /// Reads and decodes a seed file, then checks it with ``validate(source:)``.
    ///
    /// - Throws: ``SandboxError/seedFileNotFound(path:)`` when the file cannot be read,
    ///   ``SandboxError/malformedSeedFile(path:problem:)`` when it is not valid JSON or not in the seed format
    ///   (the problem names the JSON path), ``SandboxError/invalidSeedData(source:problem:)`` when it is
    ///   inconsistent.
    public static func load(contentsOf url: URL) throws(SandboxError) -> SeedData {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .seedFileNotFound(path: url.path)
        }
        let seed = try decode(data, path: url.path)
        try seed.validate(source: url.path)
        return seed
    }

    /// Decodes seed JSON. `path` names the source in errors.
    ///
    /// - Throws: ``SandboxError/malformedSeedFile(path:problem:)``.
    public static func decode(_ data: Data, path: String) throws(SandboxError) -> SeedData {
        if let position = JSONSyntaxPosition.firstError(in: data) {
            throw .malformedSeedFile(path: path, problem: "not valid JSON at \(position)")
        }
        do {
            return try JSONDecoder().decode(SeedData.self, from: data)
        } catch let error as DecodingError {
            throw .malformedSeedFile(path: path, problem: describe(error, in: data))
        } catch {
            throw .malformedSeedFile(path: path, problem: String(describing: error))
        }
    }

    /// The name of the built-in demo seed in errors.
    public static let demoSource = "built-in demo seed (Resources/demo-seed.json)"

    /// The built-in demo data: Grocery Express, its four connections, alice, bob and carol.
    /// `docs/sandbox-seed-file.md` lists the fixed ids, tokens and keys.
    ///
    /// - Throws: a ``SandboxError`` only if the bundled resource is missing or broken (a packaging error).
    public static func demo() throws(SandboxError) -> SeedData {
        guard let url = Bundle.module.url(forResource: "demo-seed", withExtension: "json", subdirectory: "Resources")
        else {
            throw .seedFileNotFound(path: demoSource)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .seedFileNotFound(path: url.path)
        }
        let seed = try decode(data, path: demoSource)
        try seed.validate(source: demoSource)
        return seed
    }

    /// The seed as pretty-printed JSON with sorted keys, in the seed file format.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain value types cannot fail.
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }

    // MARK: Validation

    /// Checks the seed on its own: unique ids, `#RRGGBB` colours, unique step and field ids, user connections that
    /// fit the connection definitions of the same seed, field options that name existing steps and fields.
    ///
    /// References to records that are not in this seed (for example a user connection of a demo user) are checked
    /// when the seed is loaded into a store.
    ///
    /// - Throws: ``SandboxError/invalidSeedData(source:problem:)`` naming the first problem.
    public func validate(source: String) throws(SandboxError) {
        func fail(_ problem: String) -> SandboxError { .invalidSeedData(source: source, problem: problem) }
        func checkUnique(_ ids: [String], _ what: String) throws(SandboxError) {
            var seen = Set<String>()
            for id in ids where !seen.insert(id).inserted {
                throw fail("duplicate \(what) \"\(id)\"")
            }
        }

        try checkUnique(services.map(\.id), "service id")
        for (i, service) in services.enumerated() {
            if service.id.isEmpty { throw fail("services[\(i)].id is empty") }
            if !Self.isHexColor(service.brandColor) {
                throw fail("services[\(i)].brand_color \"\(service.brandColor)\" is not of the form #RRGGBB")
            }
            for (j, uri) in service.redirectURIs.enumerated() {
                var problem = ""
                if RedirectRegistration(uri, problem: &problem) == nil {
                    throw fail("services[\(i)].redirect_uris[\(j)] \"\(uri)\" \(problem)")
                }
            }
        }
        try checkUnique(services.compactMap(\.serviceKey), "service_key (shared by two services)")

        try checkUnique(users.map(\.id), "user id")
        try checkUnique(users.map { $0.email.lowercased() }, "user email")
        try checkUnique(users.map(\.login), "user login")
        try checkUnique(users.flatMap(\.tokens), "user token (listed twice)")
        for (i, user) in users.enumerated() {
            if user.id.isEmpty { throw fail("users[\(i)].id is empty") }
            if !Self.isEmail(user.email) { throw fail("users[\(i)].email \"\(user.email)\" is not an e-mail address") }
            if user.tokens.contains(where: \.isEmpty) { throw fail("users[\(i)].tokens contains an empty token") }
        }

        try checkUnique(partnerAccounts.map { "\($0.serviceId)/\($0.partnerUserId)" }, "partner account")

        try checkUnique(connections.map(\.id), "connection id")
        for (ci, connection) in connections.enumerated() {
            let at = "connections[\(ci)] (\(connection.id))"
            if connection.id.isEmpty { throw fail("connections[\(ci)].id is empty") }
            if connection.features.isEmpty { throw fail("\(at) has no features") }
            try connection.validateLegacyAppletAttributes(at: at, source: source)
            if !connection.published, (connection.inviteCode ?? "").isEmpty {
                throw fail("\(at) is unpublished but has no invite_code")
            }
            var featureIds = Set<String>()
            var stepIds = Set<String>()
            for feature in connection.features {
                if !featureIds.insert(feature.id).inserted {
                    throw fail("\(at) has two features with id \"\(feature.id)\"")
                }
                try checkUnique(feature.fields.map(\.id), "field id in feature \(feature.id) of \(connection.id)")
                for kind in StepKind.allCases {
                    for step in feature.steps(kind) {
                        if !stepIds.insert(step.id).inserted {
                            throw fail("\(at) has two steps with id \"\(step.id)\"")
                        }
                        try checkUnique(step.fields.map(\.id), "field id in step \(step.id) of \(connection.id)")
                    }
                }
            }
            for key in connection.queryResults.keys where connection.step(kind: .query, typeId: key) == nil {
                throw fail("\(at).query_results key \"\(key)\" is not a query's step type id (service_id.query_id)")
            }
            for (key, fields) in connection.fieldOptions {
                let known: [Field]
                if let feature = connection.feature(id: key) {
                    known = feature.fields
                } else if let step = StepKind.allCases.lazy.compactMap({ connection.step(kind: $0, typeId: key) }).first
                {
                    known = step.step.fields
                } else {
                    throw fail(
                        "\(at).field_options key \"\(key)\" is neither a feature id nor a step type id "
                            + "(service_id.trigger_id)")
                }
                for fieldId in fields.keys where !known.contains(where: { $0.id == fieldId }) {
                    throw fail("\(at).field_options[\"\(key)\"] names unknown field \"\(fieldId)\"")
                }
            }
        }

        try checkUnique(userConnections.map { "\($0.userId)/\($0.connectionId)" }, "user connection (user/connection)")
        for (i, userConnection) in userConnections.enumerated() {
            guard let connection = connections.first(where: { $0.id == userConnection.connectionId }) else { continue }
            if let problem = Self.problem(in: userConnection, of: connection) {
                throw fail("user_connections[\(i)]: \(problem)")
            }
        }
    }

    /// A description of the first mismatch between a user connection and its connection definition, or `nil`.
    static func problem(in userConnection: UserConnection, of connection: Connection) -> String? {
        var seenFeatures = Set<String>()
        for userFeature in userConnection.userFeatures {
            guard let feature = connection.feature(id: userFeature.featureId) else {
                return "unknown feature_id \"\(userFeature.featureId)\" for connection \(connection.id)"
            }
            if !seenFeatures.insert(feature.id).inserted {
                return "feature \"\(feature.id)\" is configured twice"
            }
            for field in userFeature.userFields where !feature.fields.contains(where: { $0.id == field.fieldId }) {
                return "unknown field \"\(field.fieldId)\" in feature \"\(feature.id)\""
            }
            for kind in StepKind.allCases {
                for userStep in userFeature.userSteps(kind) {
                    guard let step = feature.steps(kind).first(where: { $0.id == userStep.featureStepId }) else {
                        return
                            "unknown \(kind.userStepReferenceKey) \"\(userStep.featureStepId)\" in feature \"\(feature.id)\""
                    }
                    for field in userStep.userFields where !step.fields.contains(where: { $0.id == field.fieldId }) {
                        return "unknown field \"\(field.fieldId)\" in step \"\(step.id)\""
                    }
                }
            }
        }
        return nil
    }

    /// Whether `s` is `#RRGGBB`.
    static func isHexColor(_ s: String) -> Bool {
        let chars = Array(s.utf8)
        guard chars.count == 7, chars[0] == UInt8(ascii: "#") else { return false }
        return chars.dropFirst().allSatisfy {
            ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) || ($0 >= 97 && $0 <= 102)
        }
    }

    /// A plausibility check for e-mail addresses: one `@`, a non-empty local part, a dotted domain, no spaces.
    static func isEmail(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, s.count <= 254 else { return false }
        let domain = parts[1]
        guard domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix(".") else { return false }
        return !s.contains(where: { $0.isWhitespace || $0.isNewline })
    }

    /// A readable description of a decoding error with its JSON path and, given the JSON text `data`, the line and
    /// column where the value starts (for a missing key, the object that lacks it), e.g.
    /// `at connections[0].features[0] (line 4, column 9): the key "title" is missing`.
    static func describe(_ error: DecodingError, in data: Data? = nil) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            var out = ""
            for key in codingPath {
                if let index = key.intValue {
                    out += "[\(index)]"
                } else {
                    out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return out.isEmpty ? "the top level" : out
        }
        func at(_ codingPath: [any CodingKey]) -> String {
            guard let data, let start = JSONSyntaxPosition.valueStart(at: codingPath, in: data) else {
                return "at \(path(codingPath))"
            }
            return "at \(path(codingPath)) (line \(start.line), column \(start.column))"
        }
        func underlying(_ context: DecodingError.Context) -> String {
            guard let inner = context.underlyingError else { return "" }
            let text = (inner as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(inner)"
            return " (\(text))"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(at(context.codingPath)): the key \"\(key.stringValue)\" is missing"
        case .typeMismatch(let type, let context):
            return "\(at(context.codingPath)): expected \(jsonTypeName(type))"
        case .valueNotFound(let type, let context):
            return "\(at(context.codingPath)): expected \(jsonTypeName(type)), found null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return "not valid JSON\(underlying(context))"
            }
            return "\(at(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Double.Type, is Int64.Type, is UInt64.Type: return "a number"
        case is [Any].Type: return "an array"
        case is [String: Any].Type: return "an object"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") || name.contains("KeyedDecodingContainer") { return "an object" }
            return "a \(name) value"
        }
    }
}
