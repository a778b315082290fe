import Foundation

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
    public func serialized() -> Data {
        var out = String()
        out.reserveCapacity(256)
        write(into: &out)
        return Data(out.utf8)
    }

    /// The compact JSON text of this value.
    public var jsonString: String {
        var out = String()
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null:
            out += "null"
        case .bool(let b):
            out += b ? "true" : "false"
        case .number(let d):
            out += Self.format(d)
        case .string(let s):
            Self.writeString(s, into: &out)
        case .array(let elements):
            out += "["
            for (i, e) in elements.enumerated() {
                if i > 0 { out += "," }
                e.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(m.key, into: &out)
                out += ":"
                m.value.write(into: &out)
            }
            out += "}"
        }
    }

    private static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 9_007_199_254_740_992 {
            return String(Int64(d))
        }
        return "\(d)"
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        // Most strings need no escaping: append them whole (a large share of the time of every response).
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
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
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
