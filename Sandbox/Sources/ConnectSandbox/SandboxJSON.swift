import Foundation
import IFTTTConnectSDK

/// A JSON value whose objects keep their member order.
///
/// The sandbox builds every response body from `SandboxJSON` so that key order is fixed and `null` is written
/// explicitly where the IFTTT wire format has it (for example `"user_status": null`). Free-form values of a seed file
/// (field `default_value`s, user field values) are stored as `SandboxJSON` too. When a value is decoded through
/// `Decodable`, object members are sorted by key, so that the output never depends on hash order.
public enum SandboxJSON: Sendable, Equatable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number. Integral values within ±2^53 are written without a fraction.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([SandboxJSON])
    /// An object, as an ordered list of members.
    case object([Member])

    /// One member of a JSON object.
    public struct Member: Sendable, Equatable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: SandboxJSON

        /// Creates a member.
        public init(_ key: String, _ value: SandboxJSON) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the first member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> SandboxJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string when this is `.string`, else `nil`.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number when this is `.number`, or a string that parses as a `Double`; else `nil`.
    ///
    /// IFTTT sends location coordinates both as numbers and as numeric strings, so the sandbox accepts both.
    public var numericValue: Double? {
        switch self {
        case .number(let d): return d
        case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// The elements when this is `.array`, else `nil`.
    public var arrayValue: [SandboxJSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// `true` when this is `.null`.
    public var isNull: Bool { self == .null }

    /// A string or `null` for an optional string.
    static func optional(_ string: String?) -> SandboxJSON {
        string.map(SandboxJSON.string) ?? .null
    }

    // MARK: Serialization

    /// The compact JSON text of this value (UTF-8).
    public func serialized() -> Data { Data(jsonString.utf8) }

    /// The compact JSON text of this value, members in order. Written by the SDK's own JSON writer
    /// (`JSONValue.serialized()`), so the sandbox and the SDK format numbers and escape strings the same way.
    public var jsonString: String { sdkValue.serialized() }

    /// The same value as the SDK's public `JSONValue`, object members in the same order.
    public var sdkValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let d): .number(d)
        case .string(let s): .string(s)
        case .array(let elements): .array(elements.map(\.sdkValue))
        case .object(let members): .object(JSONObject(members.map { ($0.key, $0.value.sdkValue) }))
        }
    }
}

extension SandboxJSON: Codable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON value. Object members are sorted by key.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            let keys = keyed.allKeys.sorted { $0.stringValue < $1.stringValue }
            self = .object(try keys.map { Member($0.stringValue, try keyed.decode(SandboxJSON.self, forKey: $0)) })
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [SandboxJSON] = []
            while !unkeyed.isAtEnd {
                elements.append(try unkeyed.decode(SandboxJSON.self))
            }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? single.decode(Double.self) {
            self = .number(d)
        } else if let s = try? single.decode(String.self) {
            self = .string(s)
        } else {
            throw DecodingError.dataCorruptedError(in: single, debugDescription: "Expected a JSON value")
        }
    }

    /// Encodes the value; object members are written in order.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let d):
            var c = encoder.singleValueContainer()
            if d == d.rounded(), abs(d) < 9_007_199_254_740_992 {
                try c.encode(Int64(d))
            } else {
                try c.encode(d)
            }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let elements):
            var c = encoder.unkeyedContainer()
            for e in elements { try c.encode(e) }
        case .object(let members):
            var c = encoder.container(keyedBy: AnyKey.self)
            for m in members { try c.encode(m.value, forKey: AnyKey(stringValue: m.key)) }
        }
    }
}

extension SandboxJSON: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates `.number`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// Creates `.number`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// Creates `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// Creates `.array`.
    public init(arrayLiteral elements: SandboxJSON...) { self = .array(elements) }
    /// Creates `.object`, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, SandboxJSON)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }
}
