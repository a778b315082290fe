import Foundation

/// A free-form JSON value: a field value the SDK does not model, kept as the API sent it.
///
/// You meet it in ``FieldValue/other(_:)``: a value the SDK reads from a Connection but has no type for, or
/// one you send back in a ``UserConnectionUpdate``. It is `Codable`, so Foundation's coders read and write
/// it like any other value (object members come and go in the order the coder gives them; `serialized()`
/// keeps the document order):
///
/// ```swift
/// let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"lat":1.5,"tags":["a"]}"#.utf8))
/// let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
/// ```
///
/// Inside the SDK the same type is what its bounded parser (`package` access, invisible to apps) produces
/// and what the models are read out of; apps decode models through their `Data` entry points, such as
/// `Connection/decode(from:)`.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number. Integers up to 2^53 are exact.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its keys in document order.
    case object(JSONObject)

    /// A short name of the value's JSON type, used in error messages ("string", "object", ...).
    @_spi(Sandbox) public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The value of `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string when this is a string, otherwise `nil`.
    @_spi(Sandbox) public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number when this is a number or a string that holds one, otherwise `nil`.
    @_spi(Sandbox) public var doubleValue: Double? {
        switch self {
        case .number(let d): return d
        case .string(let s): return Double(Whitespace.trimmed(s, newlines: false)).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    /// The Boolean when this is a Boolean or the string `"true"` / `"false"`, otherwise `nil`.
    @_spi(Sandbox) public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .string(let s):
            switch s.lowercased() {
            case "true": return true
            case "false": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// The elements when this is an array, otherwise `nil`.
    @_spi(Sandbox) public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The object when this is an object, otherwise `nil`.
    @_spi(Sandbox) public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Whether this is `null`.
    @_spi(Sandbox) public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Serializes the value back to compact JSON text, keys in their original order.
    @_spi(Sandbox) public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Serializes the value to pretty-printed JSON text with two-space indentation.
    @_spi(Sandbox) public func prettySerialized() -> String {
        var out = ""
        writePretty(to: &out, indent: 0)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += JSONValue.format(d)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, member) in object.members.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    private func writePretty(to out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let close = String(repeating: "  ", count: indent)
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                item.writePretty(to: &out, indent: indent + 1)
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += close + "]"
        case .object(let object) where !object.members.isEmpty:
            out += "{\n"
            for (i, member) in object.members.enumerated() {
                out += pad
                JSONValue.writeString(member.key, to: &out)
                out += ": "
                member.value.writePretty(to: &out, indent: indent + 1)
                out += i < object.members.count - 1 ? ",\n" : "\n"
            }
            out += close + "}"
        default:
            write(to: &out)
        }
    }

    static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 9_007_199_254_740_992 { return String(Int64(d)) }
        return String(d)
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        // Most strings need no escaping: append them whole.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"  // the short escapes JSONSerialization writes too
            case "\u{C}": out += "\\f"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// A JSON object that keeps its members in document order.
///
/// API objects are small, so lookups scan the members; with duplicate keys the first one wins.
public struct JSONObject: Sendable, Hashable {
    /// The members in document order.
    @_spi(Sandbox) public var members: [(key: String, value: JSONValue)] {
        storage.map { (key: $0.key, value: $0.value) }
    }

    private var storage: [Member]

    struct Member: Sendable, Hashable {
        var key: String
        var value: JSONValue
    }

    /// Creates an object from key-value pairs, in order.
    @_spi(Sandbox) public init(_ members: [(String, JSONValue)] = []) {
        storage = members.map { Member(key: $0.0, value: $0.1) }
    }

    init(storage: [Member]) {
        self.storage = storage
    }

    /// The number of members.
    @_spi(Sandbox) public var count: Int { storage.count }

    /// The keys in document order.
    @_spi(Sandbox) public var keys: [String] { storage.map(\.key) }

    /// The value for `key`, or `nil` when the key is absent. Setting a new key appends it after the others;
    /// setting an existing key replaces its value in place; setting `nil` removes the key.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in storage where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = storage.firstIndex(where: { $0.key == key }) {
                if let newValue { storage[index].value = newValue } else { storage.remove(at: index) }
            } else if let newValue {
                storage.append(Member(key: key, value: newValue))
            }
        }
    }
}

/// Literals build values in the order they are written, so a value can be spelled as the JSON it stands for:
///
/// ```swift
/// let location: JSONValue = ["lat": 40.7, "lng": -74.0, "radius": 150, "tags": ["home"], "default": true]
/// location.serialized()   // {"lat":40.7,"lng":-74,"radius":150,"tags":["home"],"default":true}
/// ```
///
/// There is no `nil` literal: write ``JSONValue/null`` for JSON `null`, so that `nil` keeps meaning "no value" in
/// an optional.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates a Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates a number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// Creates a number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// Creates an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Creates an object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

/// An object literal keeps its order: `let object: JSONObject = ["b": 1, "a": 2]` has the keys `b`, `a`.
extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}

/// Reads and writes any JSON value through `Decoder` and `Encoder` (`JSONDecoder`, `PropertyListEncoder`, ...).
@_spi(Sandbox) extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads any JSON value from a decoder (`JSONDecoder`, `PropertyListDecoder`, ...).
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: MemberKey.self) {
            var members: [(String, JSONValue)] = []
            for key in container.allKeys {
                members.append((key.stringValue, try container.decode(JSONValue.self, forKey: key)))
            }
            self = .object(JSONObject(members))
        } else if var container = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            if let count = container.count { items.reserveCapacity(count) }
            while !container.isAtEnd { items.append(try container.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "not a JSON value the decoder can read (a number beyond a Double's range?)")
            }
        }
    }

    /// Writes the value to an encoder, members in order (the encoder may reorder them); a non-finite number
    /// is `null`, as in `serialized()`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            var container = encoder.container(keyedBy: MemberKey.self)
            for member in object.members {
                try container.encode(member.value, forKey: MemberKey(stringValue: member.key))
            }
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }
}
