import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore

/// Compares the SDK's ``JSONParser`` with Foundation's `JSONSerialization` on the same bytes: both accept or
/// both refuse, and what they accept has the same values. Used by `FuzzCorpusTests` over the committed corpus
/// and compiled into the `json` fuzz target by `scripts/fuzz.sh`, so every generated input is compared too;
/// ``compareRoundTrip(_:)`` checks the SDK's writer the same way (`JSONRoundTripTests`).
///
/// Tolerated on purpose, because the SDK is stricter by design: it refuses nesting deeper than
/// ``JSONParser/maximumDepth``, payloads over ``JSONParser/maximumBytes`` and number literals it cannot hold
/// (``ConnectDecodingError/Reason/numberOutOfRange``), which `JSONSerialization` may still accept; and it
/// refuses a trailing comma (`[1,2,]`, `{"a":1,}`) and NUL bytes after the value (`6\0`), which RFC 8259
/// forbids and `JSONSerialization` accepts; and it reads only UTF-8 without a byte order mark (RFC 8259 §8.1),
/// while `JSONSerialization` also reads UTF-16 and UTF-32 (guessed from NUL bytes among the first four) and skips
/// a byte order mark.
/// Numbers are compared as `Double`s (the SDK's representation) within 8 units in the last place: the SDK
/// rounds decimal literals correctly (`Double(String)`), `JSONSerialization` can be a few units off on long
/// mantissas (`1.7976931348623157400` gives `...153`).
enum JSONDifferential {
    /// `nil` when the two parsers agree on `data`, otherwise what differs.
    static func compare(_ data: Data) -> String? {
        let ours: JSONValue
        do {
            ours = try JSONParser().parse(data)
        } catch {
            if isOtherEncoding(data) { return nil }
            switch error.reason {
            case .nestingTooDeep, .payloadTooLarge, .numberOutOfRange: return nil
            case .malformedJSON(let offset, _)
            where isTrailingComma(data, at: offset) || isTrailingNUL(data, at: offset):
                return nil
            default: break
            }
            if let theirs = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
                return "the SDK refused (\(error.reason)) what JSONSerialization read as \(theirs)"
            }
            return nil
        }
        let theirs: Any
        do {
            theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return "JSONSerialization refused (\(error)) what the SDK read as \(ours)"
        }
        return difference(ours, theirs, path: "$")
    }

    /// `nil` when ``JSONValue``'s public `Codable` path agrees with the parser on `data`: what the parser reads,
    /// `JSONDecoder` reads as the same value, and `JSONEncoder`'s text of it parses back to the same value.
    /// Objects are compared by key (the coders keep no member order); where the parser kept a duplicated key,
    /// the coders may keep any one of its values. Tolerated: `JSONDecoder` refuses a number literal that
    /// underflows a `Double` (`1e-400`), which the parser and `JSONSerialization` read as 0 (found by the `json`
    /// fuzz target); `JSONValue` then throws a `DecodingError` naming the path, as for any value it cannot read.
    static func compareCodable(_ data: Data) -> String? {
        guard let ours = try? JSONParser().parse(data) else { return nil }
        let decoded: JSONValue
        do {
            decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            if let path = codingPath(of: error), case .number(let value)? = value(at: path, in: ours),
                value == 0 || value.isSubnormal
            {
                return nil
            }
            return "JSONDecoder refused (\(error)) what the SDK read as \(ours)"
        }
        if let problem = difference(ours, decoded, path: "$") {
            return "JSONDecoder: \(problem)"
        }
        let encoded: Data
        do {
            encoded = try JSONEncoder().encode(ours)
        } catch {
            return "JSONEncoder refused (\(error)) \(ours)"
        }
        guard let again = try? JSONParser().parse(encoded) else {
            return "the SDK refused JSONEncoder's \(String(decoding: encoded, as: UTF8.self))"
        }
        return difference(ours, again, path: "$").map { "JSONEncoder round trip: \($0)" }
    }

    /// `nil` when `value` survives the SDK's own writer: `serialized()` and `prettySerialized()` both parse back to
    /// `value` (`parse(serialize(v)) == v`), and `serialized()` is byte for byte what `JSONSerialization` writes for
    /// every string and number in it (see ``foundationText(_:)`` for where both are defined). Used by
    /// `JSONRoundTripTests` over the corpora and generated values, and by the `json` fuzz target on every input.
    static func compareRoundTrip(_ value: JSONValue) -> String? {
        for (name, text) in [("serialized()", value.serialized()), ("prettySerialized()", value.prettySerialized())] {
            let again: JSONValue
            do {
                again = try JSONParser().parse(Data(text.utf8))
            } catch {
                return "the SDK refused its own \(name) text \(text.debugDescription): \(error.reason)"
            }
            if again != value {
                return "\(name) does not round-trip: \(text.debugDescription) reads back as \(again), not \(value)"
            }
        }
        if let expected = foundationText(value), expected != value.serialized() {
            let written = value.serialized().debugDescription
            return "serialized() wrote \(written), JSONSerialization \(expected.debugDescription)"
        }
        return nil
    }

    /// What `JSONSerialization` writes for `value` (compact, slashes unescaped), built from its text for each string
    /// and number, in the SDK's member order (`JSONSerialization` orders object keys its own way, or not at all).
    /// `nil` where the two are not both defined to write the same: a negative zero (the SDK writes `0`), an integer
    /// of 2^53 or more (the SDK writes the exponent form), and on Apple's platforms any non-integer number
    /// (`NSJSONSerialization` may print more digits).
    static func foundationText(_ value: JSONValue) -> String? {
        func fragment(_ object: Any) -> String? {
            let options: JSONSerialization.WritingOptions = [.fragmentsAllowed, .withoutEscapingSlashes]
            return (try? JSONSerialization.data(withJSONObject: object, options: options)).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            guard number.isFinite, !(number == 0 && number.sign == .minus) else { return nil }
            if number == number.rounded() && number.magnitude >= 9_007_199_254_740_992 { return nil }
            #if canImport(Darwin)
            guard number == number.rounded() else { return nil }
            #endif
            return fragment(NSNumber(value: number))
        case .string(let string): return fragment(string)
        case .array(let items):
            let texts = items.compactMap(foundationText)
            guard texts.count == items.count else { return nil }
            return "[" + texts.joined(separator: ",") + "]"
        case .object(let object):
            var texts: [String] = []
            for member in object.members {
                guard let key = fragment(member.key), let text = foundationText(member.value) else { return nil }
                texts.append(key + ":" + text)
            }
            return "{" + texts.joined(separator: ",") + "}"
        }
    }

    private static func codingPath(of error: any Error) -> [any CodingKey]? {
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?, .dataCorrupted(let context)?, .valueNotFound(_, let context)?:
            return context.codingPath
        default:
            return nil
        }
    }

    /// The value at a coding path (array indices, then object keys, the first of duplicates).
    private static func value(at path: [any CodingKey], in root: JSONValue) -> JSONValue? {
        var current = root
        for key in path {
            switch current {
            case .array(let items):
                guard let index = key.intValue, items.indices.contains(index) else { return nil }
                current = items[index]
            case .object(let object):
                guard let next = object[key.stringValue] else { return nil }
                current = next
            default:
                return nil
            }
        }
        return current
    }

    /// `value` with every object's members sorted by key, the last of duplicated keys kept.
    static func unordered(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .array(items.map(unordered))
        case .object(let object):
            var last: [String: JSONValue] = [:]
            for member in object.members { last[member.key] = unordered(member.value) }
            return .object(JSONObject(last.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        default:
            return value
        }
    }

    /// The first difference between two values: numbers within 8 units in the last place, objects by key, and
    /// a key `ours` holds several times matching any one of its values.
    private static func difference(_ ours: JSONValue, _ theirs: JSONValue, path: String) -> String? {
        switch (ours, theirs) {
        case (.number(let a), .number(let b)):
            return (a - b).magnitude <= 8 * max(a.magnitude.ulp, b.magnitude.ulp) ? nil : "\(path): \(a) vs \(b)"
        case (.array(let a), .array(let b)) where a.count == b.count:
            for index in a.indices {
                if let problem = difference(a[index], b[index], path: "\(path)[\(index)]") { return problem }
            }
            return nil
        case (.object(let a), .object(let b)) where Set(a.keys) == Set(b.keys):
            for member in b.members {
                let candidates = a.members.filter { $0.key == member.key }.map(\.value)
                let problems = candidates.map { difference($0, member.value, path: "\(path).\(member.key)") }
                if !problems.contains(where: { $0 == nil }), let problem = problems.first { return problem }
            }
            return nil
        default:
            return ours == theirs ? nil : "\(path): \(ours) vs \(theirs)"
        }
    }

    private static func difference(_ ours: JSONValue, _ theirs: Any, path: String) -> String? {
        switch ours {
        case .null:
            return theirs is NSNull ? nil : "\(path): null vs \(theirs)"
        case .bool(let value):
            guard let number = theirs as? NSNumber, isBoolean(number) else { return "\(path): \(value) vs \(theirs)" }
            return number.boolValue == value ? nil : "\(path): \(value) vs \(number)"
        case .number(let value):
            guard let number = theirs as? NSNumber, !isBoolean(number) else { return "\(path): \(value) vs \(theirs)" }
            let other = number.doubleValue
            let tolerance = 8 * max(value.magnitude.ulp, other.magnitude.ulp)
            return (value - other).magnitude <= tolerance ? nil : "\(path): \(value) vs \(other)"
        case .string(let value):
            return (theirs as? String) == value ? nil : "\(path): \(value.debugDescription) vs \(theirs)"
        case .array(let values):
            guard let array = theirs as? [Any], array.count == values.count else {
                return "\(path): array vs \(theirs)"
            }
            for (index, value) in values.enumerated() {
                if let problem = difference(value, array[index], path: "\(path)[\(index)]") { return problem }
            }
            return nil
        case .object(let object):
            guard let dictionary = theirs as? [String: Any] else { return "\(path): object vs \(theirs)" }
            guard Set(object.keys) == Set(dictionary.keys) else {
                return "\(path): keys \(object.keys.sorted()) vs \(dictionary.keys.sorted())"
            }
            // With a duplicated key JSONSerialization keeps the last value; compare against the last one too.
            var last: [String: JSONValue] = [:]
            for member in object.members { last[member.key] = member.value }
            for (key, value) in last {
                if let problem = difference(value, dictionary[key] as Any, path: "\(path).\(key)") { return problem }
            }
            return nil
        }
    }

    /// Whether the SDK stopped at a `]` or `}` that follows a comma (whitespace aside).
    private static func isTrailingComma(_ data: Data, at offset: Int) -> Bool {
        let bytes = [UInt8](data)
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "]") || bytes[offset] == UInt8(ascii: "}") else {
            return false
        }
        var index = offset - 1
        while index >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index -= 1 }
        return index >= 0 && bytes[index] == UInt8(ascii: ",")
    }

    /// Whether everything from `offset` on is NUL bytes or whitespace, with at least one NUL.
    private static func isTrailingNUL(_ data: Data, at offset: Int) -> Bool {
        let rest = [UInt8](data).dropFirst(offset)
        return rest.contains(0) && rest.allSatisfy { [0x00, 0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// Whether `JSONSerialization` may read `data` as UTF-16 or UTF-32, or skip a byte order mark.
    private static func isOtherEncoding(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(4))
        return head.contains(0) || head.starts(with: [0xEF, 0xBB, 0xBF]) || head.starts(with: [0xFE, 0xFF])
            || head.starts(with: [0xFF, 0xFE])
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return String(cString: number.objCType) == "c" && String(describing: type(of: number)).contains("Boolean")
        #endif
    }
}
