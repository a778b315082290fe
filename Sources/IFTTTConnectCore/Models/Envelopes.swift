import Foundation

/// The Connect API's list envelope, `{"type":"list","data":[...]}` (a decoding detail of the package).
package struct ListEnvelope: Sendable, Hashable {
    /// The items, undecoded.
    package let data: [JSONValue]

    /// Reads a list envelope; `type` must be `"list"`.
    package init(json: JSONValue) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        guard try reader.optionalString("type") == "list" else {
            throw ConnectDecodingError(path: ".type", reason: .invalidValue("expected \"list\""))
        }
        guard let value = reader.value("data") else {
            throw ConnectDecodingError(path: "", reason: .missingKey("data"))
        }
        guard case .array(let items) = value else {
            throw ConnectDecodingError(path: ".data", reason: .typeMismatch(expected: "array", found: value.typeName))
        }
        data = items
    }
}

/// The Connect API's error envelope, `{"type":"error","code":"...","message":"...","details":[...]}`.
public struct APIErrorPayload: Sendable, Hashable, CustomStringConvertible {
    /// The machine-readable code, such as `not_found` or `unauthorized`.
    public let code: String
    /// The human-readable message.
    public let message: String
    /// Per-parameter details, when the API gives them.
    @_spi(Sandbox) public let details: [Detail]

    /// One detail of an error.
    @_spi(Sandbox) public struct Detail: Sendable, Hashable {
        /// The parameter the detail is about.
        public let parameter: String?
        /// What is wrong with it.
        public let message: String
        /// Creates a detail.
        @_spi(Sandbox) public init(parameter: String?, message: String) {
            self.parameter = parameter
            self.message = message
        }
    }

    /// Creates an error payload.
    @_spi(Sandbox) public init(code: String, message: String, details: [Detail] = []) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// Reads an error envelope; `nil` when the body is not one.
    @_spi(Sandbox) public init?(data: Data) {
        guard let json = try? JSONParser(maximumBytes: 256 * 1024, maximumDepth: 16).parse(data),
            case .object(let object) = json, object["type"]?.stringValue == "error",
            let code = object["code"]?.stringValue
        else { return nil }
        self.code = String(code.prefix(200))
        self.message = String((object["message"]?.stringValue ?? "").prefix(1000))
        if case .array(let items)? = object["details"] {
            details = items.prefix(50).compactMap { item in
                guard let message = item["message"]?.stringValue else { return nil }
                return Detail(parameter: item["parameter"]?.stringValue, message: String(message.prefix(1000)))
            }
        } else {
            details = []
        }
    }

    /// `code: message`.
    public var description: String { message.isEmpty ? code : "\(code): \(message)" }
}

/// Who a request is authenticated as (`GET /v2/me`).
public struct User: Sendable, Hashable {
    /// How the request was authenticated.
    @_spi(Sandbox) public enum AuthenticationLevel: Sendable, Hashable {
        /// No credentials.
        case none
        /// A user token.
        case user
        /// A service key (server-side calls).
        case channel
        /// A level this SDK does not know, kept as sent.
        case other(String)

        init(_ raw: String?) {
            switch raw {
            case nil, "none": self = .none
            case "user": self = .user
            case "channel": self = .channel
            case let other?: self = .other(other)
            }
        }
    }

    /// The authentication level.
    @_spi(Sandbox) public let authenticationLevel: AuthenticationLevel
    /// The IFTTT user's login, when a user is authenticated.
    public let login: String?
    /// The service, for service-key authentication.
    public let serviceId: String?

    /// Creates a user.
    @_spi(Sandbox) public init(authenticationLevel: AuthenticationLevel, login: String?, serviceId: String?) {
        self.authenticationLevel = authenticationLevel
        self.login = login
        self.serviceId = serviceId
    }

    /// Decodes a `/v2/me` payload.
    @_spi(Sandbox) public static func decode(from data: Data) throws(ConnectDecodingError) -> User {
        do throws(ConnectDecodingError) {
            let reader = try JSONReader(JSONParser().parse(data))
            return User(
                authenticationLevel: AuthenticationLevel(try reader.optionalString("authentication_level")),
                login: try reader.optionalString("user_login"),
                serviceId: try reader.optionalString("service_id"))
        } catch {
            throw error.rooted()
        }
    }
}

/// The options of a Connection's fields (`GET .../field_options`), keyed by field id.
public struct FieldOptions: Sendable, Hashable {
    /// The options of each field, by field id.
    public let options: [String: [FieldValue.Choice]]

    /// Creates field options.
    @_spi(Sandbox) public init(options: [String: [FieldValue.Choice]]) {
        self.options = options
    }

    /// Decodes a `{"type":"field_options","options":{...}}` payload.
    @_spi(Sandbox) public static func decode(from data: Data) throws(ConnectDecodingError) -> FieldOptions {
        do throws(ConnectDecodingError) {
            let reader = try JSONReader(JSONParser().parse(data))
            guard let value = reader.value("options") else {
                throw ConnectDecodingError(path: "", reason: .missingKey("options"))
            }
            guard case .object(let object) = value else {
                throw ConnectDecodingError(
                    path: ".options", reason: .typeMismatch(expected: "object", found: value.typeName))
            }
            var options: [String: [FieldValue.Choice]] = [:]
            for member in object.members {
                guard case .array(let items) = member.value else {
                    throw ConnectDecodingError(
                        path: ".options.\(member.key)",
                        reason: .typeMismatch(expected: "array", found: member.value.typeName))
                }
                var choices: [FieldValue.Choice] = []
                for (index, item) in items.enumerated() {
                    guard let choice = FieldValue.Choice(json: item) else {
                        throw ConnectDecodingError(
                            path: ".options.\(member.key)[\(index)]", reason: .missingKey("value"))
                    }
                    choices.append(choice)
                }
                options[member.key] = choices
            }
            return FieldOptions(options: options)
        } catch {
            throw error.rooted()
        }
    }
}
