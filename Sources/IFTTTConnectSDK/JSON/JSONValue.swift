import Foundation

/// A parsed JSON document: the raw, loosely typed form of an IFTTT API payload.
///
/// The SDK parses payloads into `JSONValue` with ``JSONParser`` and then reads its models out of it with
/// a `JSONReader`, which knows the JSON path of every value so decoding errors can name it.
/// You rarely need this type, but it is public so that values the SDK does not model (for example an
/// unusual field value) stay available to you unchanged.
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
    public var typeName: String {
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
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number when this is a number or a string that holds one, otherwise `nil`.
    public var doubleValue: Double? {
        switch self {
        case .number(let d): return d
        case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    /// The Boolean when this is a Boolean or the string `"true"` / `"false"`, otherwise `nil`.
    public var boolValue: Bool? {
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

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Serializes the value back to compact JSON text, keys in their original order.
    public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Serializes the value to pretty-printed JSON text with two-space indentation.
    public func prettySerialized() -> String {
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
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
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
    public var members: [(key: String, value: JSONValue)] {
        storage.map { (key: $0.key, value: $0.value) }
    }

    private var storage: [Member]

    struct Member: Sendable, Hashable {
        var key: String
        var value: JSONValue
    }

    /// Creates an object from key-value pairs, in order.
    public init(_ members: [(String, JSONValue)] = []) {
        storage = members.map { Member(key: $0.0, value: $0.1) }
    }

    init(storage: [Member]) {
        self.storage = storage
    }

    /// The number of members.
    public var count: Int { storage.count }

    /// The keys in document order.
    public var keys: [String] { storage.map(\.key) }

    /// The value for `key`, or `nil` when the key is absent.
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
