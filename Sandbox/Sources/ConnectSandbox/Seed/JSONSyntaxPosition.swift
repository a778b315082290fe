import Foundation

/// Where JSON text first breaks the grammar (RFC 8259), as a 1-based line and column, for messages about seed files
/// that are not valid JSON: Foundation's decoder does not always say where.
struct JSONSyntaxPosition: Equatable, CustomStringConvertible {
    /// The 1-based line.
    let line: Int
    /// The 1-based column, in bytes from the start of the line.
    let column: Int
    /// What was expected there.
    let expected: String

    var description: String { "line \(line), column \(column): expected \(expected)" }

    /// The first syntax error of `data`, or `nil` when it is one valid JSON value.
    static func firstError(in data: Data) -> JSONSyntaxPosition? {
        var scanner = Scanner(bytes: Array(data))
        do throws(Failure) {
            scanner.skipSpace()
            try scanner.value(depth: 0)
            scanner.skipSpace()
            if scanner.index < scanner.bytes.count {
                throw Failure(index: scanner.index, expected: "the end of the file")
            }
            return nil
        } catch {
            return location(of: error.index, in: scanner.bytes, expected: error.expected)
        }
    }

    /// Where the value at `path` starts in `data`, which must be valid JSON: each step of the path is an object's key
    /// (`stringValue`) or an array's index (`intValue`), whichever the text has there. A path that leaves the text (a
    /// key that is missing, an index past the end) stops at the deepest value on it that exists, the object or array
    /// that lacks the rest. `expected` of the answer is empty; `nil` when `data` is not valid JSON.
    static func valueStart(at path: [any CodingKey], in data: Data) -> JSONSyntaxPosition? {
        guard firstError(in: data) == nil else { return nil }
        var scanner = Scanner(bytes: Array(data))
        do throws(Failure) {
            return location(of: try scanner.locate(path[...]), in: scanner.bytes, expected: "")
        } catch {
            return nil
        }
    }

    /// The 1-based line and column of the byte at `offset`.
    private static func location(of offset: Int, in bytes: [UInt8], expected: String) -> JSONSyntaxPosition {
        var line = 1
        var lineStart = 0
        for (index, byte) in bytes[..<min(offset, bytes.count)].enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return JSONSyntaxPosition(line: line, column: offset - lineStart + 1, expected: expected)
    }

    private struct Failure: Error {
        let index: Int
        let expected: String
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
            guard current == byte else { throw Failure(index: index, expected: what) }
            index += 1
        }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < 512 else { throw Failure(index: index, expected: "less nesting") }
            guard let byte = current else {
                throw Failure(index: index, expected: "a value (object, array, string, number, true, false or null)")
            }
            switch byte {
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                if current == UInt8(ascii: "}") {
                    index += 1
                    return
                }
                while true {
                    skipSpace()
                    try string()
                    skipSpace()
                    try expect(UInt8(ascii: ":"), "':' after a key")
                    skipSpace()
                    try value(depth: depth + 1)
                    skipSpace()
                    if current == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    try expect(UInt8(ascii: "}"), "',' or '}'")
                    return
                }
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                if current == UInt8(ascii: "]") {
                    index += 1
                    return
                }
                while true {
                    skipSpace()
                    try value(depth: depth + 1)
                    skipSpace()
                    if current == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    try expect(UInt8(ascii: "]"), "',' or ']'")
                    return
                }
            case UInt8(ascii: "\""):
                try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), 0x30...0x39:
                try number()
            default:
                throw Failure(index: index, expected: "a value (object, array, string, number, true, false or null)")
            }
        }

        /// The offset where the value at `path` starts, or where the deepest value on it that exists starts.
        mutating func locate(_ path: ArraySlice<any CodingKey>) throws(Failure) -> Int {
            skipSpace()
            let start = index
            guard let step = path.first else { return start }
            switch current {
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                if current == UInt8(ascii: "}") { return start }
                while true {
                    skipSpace()
                    let key = try keyText()
                    skipSpace()
                    try expect(UInt8(ascii: ":"), "':' after a key")
                    if key == step.stringValue { return try locate(path.dropFirst()) }
                    skipSpace()
                    try value(depth: 0)
                    skipSpace()
                    guard current == UInt8(ascii: ",") else { return start }
                    index += 1
                }
            case UInt8(ascii: "["):
                guard let wanted = step.intValue else { return start }
                index += 1
                skipSpace()
                if current == UInt8(ascii: "]") { return start }
                var position = 0
                while true {
                    if position == wanted { return try locate(path.dropFirst()) }
                    skipSpace()
                    try value(depth: 0)
                    skipSpace()
                    guard current == UInt8(ascii: ",") else { return start }
                    index += 1
                    position += 1
                }
            default:
                return start
            }
        }

        /// A string at the current position, its escapes decoded.
        mutating func keyText() throws(Failure) -> String {
            let start = index
            try string()
            let raw = Array(bytes[start..<index])
            guard raw.contains(UInt8(ascii: "\\")) else {
                return String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
            }
            return (try? JSONDecoder().decode(String.self, from: Data(raw))) ?? ""
        }

        mutating func literal(_ word: String) throws(Failure) {
            for byte in word.utf8 { try expect(byte, "'\(word)'") }
        }

        mutating func string() throws(Failure) {
            try expect(UInt8(ascii: "\""), "a string in double quotes")
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return
                case UInt8(ascii: "\\"):
                    guard let escaped = current, Array("\"\\/bfnrtu".utf8).contains(escaped) else {
                        throw Failure(index: index, expected: "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                    }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = current,
                                (0x30...0x39).contains(hex) || (0x41...0x46).contains(hex)
                                    || (0x61...0x66).contains(hex)
                            else { throw Failure(index: index, expected: "four hexadecimal digits") }
                            index += 1
                        }
                    }
                case 0x00..<0x20:
                    throw Failure(index: index - 1, expected: "no control character inside a string (escape it)")
                default: break
                }
            }
            throw Failure(index: index, expected: "the closing '\"' of the string")
        }

        mutating func number() throws(Failure) {
            func digits() throws(Failure) {
                guard let byte = current, (0x30...0x39).contains(byte) else {
                    throw Failure(index: index, expected: "a digit")
                }
                while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
            }
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") { index += 1 } else { try digits() }
            if current == UInt8(ascii: ".") {
                index += 1
                try digits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                try digits()
            }
        }
    }
}
