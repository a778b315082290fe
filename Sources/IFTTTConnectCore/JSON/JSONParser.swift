import Foundation

/// A strict, bounded JSON parser (RFC 8259) that produces ``JSONValue``.
///
/// It refuses payloads larger than ``maximumBytes`` and nesting deeper than ``maximumDepth``, so hostile
/// input fails with a ``ConnectDecodingError`` instead of exhausting memory or the stack.
///
/// `package` access: every module of this package decodes with it, apps never see it. Apps decode through
/// the models' `Data` entry points (`Connection.decode(from:)`, ...) or read a free-form ``JSONValue`` with
/// `JSONDecoder`.
package struct JSONParser: Sendable {
    /// The largest payload accepted, in bytes. The default is 8 MiB.
    package var maximumBytes: Int
    /// The deepest nesting of arrays and objects accepted. The default is 128.
    package var maximumDepth: Int

    /// Creates a parser with the given limits.
    package init(maximumBytes: Int = 8 * 1024 * 1024, maximumDepth: Int = 128) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON document; anything but whitespace after it is an error.
    package func parse(_ data: Data) throws(ConnectDecodingError) -> JSONValue {
        guard data.count <= maximumBytes else {
            throw ConnectDecodingError(path: "$", reason: .payloadTooLarge(bytes: data.count, limit: maximumBytes))
        }
        let result: Result<JSONValue, ConnectDecodingError> = data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
            do throws(ConnectDecodingError) {
                scanner.skipWhitespace()
                let value = try scanner.parseValue(depth: 0)
                scanner.skipWhitespace()
                guard scanner.index == scanner.bytes.count else {
                    throw scanner.failure("unexpected content after the JSON value")
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON document from a string.
    package func parse(_ text: String) throws(ConnectDecodingError) -> JSONValue {
        try parse(Data(text.utf8))
    }
}

private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func failure(_ detail: String) -> ConnectDecodingError {
        ConnectDecodingError(path: "$", reason: .malformedJSON(offset: index, detail: detail))
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(ConnectDecodingError) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected character")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(ConnectDecodingError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end of input") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw failure("invalid literal")
        }
        index += count
    }

    mutating func parseObject(depth: Int) throws(ConnectDecodingError) -> JSONValue {
        guard depth <= maximumDepth else {
            throw ConnectDecodingError(path: "$", reason: .nestingTooDeep(limit: maximumDepth))
        }
        index += 1
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(storage: members))
        }
        // API objects mostly have 3 to 8 members: one allocation instead of growing through 1, 2, 4 and 8.
        members.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a key string")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of input in object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(JSONObject(storage: members))
            }
            throw failure("expected ',' or '}'")
        }
    }

    mutating func parseArray(depth: Int) throws(ConnectDecodingError) -> JSONValue {
        guard depth <= maximumDepth else {
            throw ConnectDecodingError(path: "$", reason: .nestingTooDeep(limit: maximumDepth))
        }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of input in array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            throw failure("expected ',' or ']'")
        }
    }

    mutating func parseString() throws(ConnectDecodingError) -> String {
        index += 1  // opening quote
        let start = index
        var seen: UInt8 = 0  // every raw byte OR-ed together: bit 7 set means non-ASCII bytes to validate
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                try validateUTF8(slice, at: start, needed: seen >= 0x80)
                index += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in string") }
            seen |= byte
            index += 1
        }
        guard index < bytes.count else { throw failure("unterminated string") }
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try validateUTF8(buffer, at: start, needed: seen >= 0x80)
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte < 0x20 { throw failure("control character in string") }
            if byte != UInt8(ascii: "\\") {
                seen |= byte
                buffer.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw failure("unterminated escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("invalid surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        throw failure("lone surrogate")
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw failure("lone surrogate")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid unicode escape") }
                buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
            default:
                throw failure("invalid escape")
            }
        }
        throw failure("unterminated string")
    }

    /// Refuses a string whose raw bytes are not UTF-8 (RFC 8259 §8.1) instead of repairing it with U+FFFD, so
    /// the parser accepts exactly what JSONSerialization accepts. Escapes always produce valid UTF-8, so only
    /// strings with raw non-ASCII bytes (`needed`) are checked.
    func validateUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes, at start: Int, needed: Bool)
        throws(ConnectDecodingError)
    {
        guard needed else { return }
        let invalid = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF8.self, stoppingOnError: true) { _ in }
        if invalid {
            throw ConnectDecodingError(
                path: "$", reason: .malformedJSON(offset: start, detail: "invalid UTF-8 in string"))
        }
    }

    mutating func parseHex4() throws(ConnectDecodingError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("truncated unicode escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid hex digit")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(ConnectDecodingError) -> Double {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
            throw failure("invalid number")
        }
        var integer: UInt64 = 0
        var digits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            digits = 1
        } else {
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if digits < 18 { integer = integer * 10 + UInt64(bytes[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fractionStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > fractionStart else { throw failure("invalid number: no digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let exponentStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > exponentStart else { throw failure("invalid number: no exponent digits") }
        }
        if isInteger, digits <= 18 {
            return negative ? -Double(integer) : Double(integer)
        }
        guard index - start <= 512 else {
            throw ConnectDecodingError(path: "$", reason: .numberOutOfRange)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw ConnectDecodingError(path: "$", reason: .numberOutOfRange)
        }
        return value
    }
}
