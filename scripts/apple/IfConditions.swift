// What the tools of scripts/apple share: iOS versions, and `#if` conditions evaluated for a given build.
import Foundation

/// An OS version, `major.minor`.
struct Version: Comparable, CustomStringConvertible {
    var major: Int
    var minor: Int
    static let zero = Version(major: 0, minor: 0)
    static func < (a: Version, b: Version) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
    var description: String { "\(major).\(minor)" }

    init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `16`, `16.4` or `16.4.1` (the patch is ignored); nil for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: ".").map { Int($0) }
        guard let first = parts.first, let major = first, parts.allSatisfy({ $0 != nil }) else { return nil }
        self.init(major: major, minor: parts.count > 1 ? parts[1]! : 0)
    }
}

/// The truth of a condition for a build: a flag a tool cannot know (such as DEBUG) is `unknown`.
enum Truth {
    case yes, no, unknown

    static prefix func ! (value: Truth) -> Truth { value == .yes ? .no : value == .no ? .yes : .unknown }
    static func && (a: Truth, b: Truth) -> Truth {
        a == .no || b == .no ? .no : a == .yes && b == .yes ? .yes : .unknown
    }
    static func || (a: Truth, b: Truth) -> Truth {
        a == .yes || b == .yes ? .yes : a == .no && b == .no ? .no : .unknown
    }
}

/// How a build answers each test of a `#if` condition.
struct BuildConditions {
    /// `os(X)`.
    var os: (String) -> Truth
    /// `canImport(X)`.
    var canImport: (String) -> Truth
    /// A compilation condition such as `DEBUG`.
    var flag: (String) -> Truth
    /// `arch(X)`.
    var arch: Truth = .unknown
    /// `targetEnvironment(X)`.
    var targetEnvironment: Truth = .unknown

    /// A condition of a `#if` or `#elseif` line (the text after the keyword): identifiers, `os()`, `canImport()`,
    /// `arch()`, `targetEnvironment()`, version tests (`swift(>=5.9)`, `compiler(...)`: true), `!`, `&&`, `||` and
    /// parentheses; a trailing `//` comment is ignored.
    func evaluate(_ condition: String) -> Truth {
        var parser = Parser(tokens: Parser.tokens(of: condition), build: self)
        return parser.or()
    }

    private struct Parser {
        let tokens: [String]
        let build: BuildConditions
        var position = 0

        init(tokens: [String], build: BuildConditions) {
            self.tokens = tokens
            self.build = build
        }

        static func tokens(of text: String) -> [String] {
            var tokens: [String] = []
            var current = ""
            let characters = Array(text)
            var index = 0
            func flush() {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            }
            while index < characters.count {
                let character = characters[index]
                if character == "/" && index + 1 < characters.count && characters[index + 1] == "/" { break }
                if "()!,".contains(character) {
                    flush()
                    tokens.append(String(character))
                } else if (character == "&" || character == "|") && index + 1 < characters.count
                    && characters[index + 1] == character
                {
                    flush()
                    tokens.append(String([character, character]))
                    index += 1
                } else if character == " " || character == "\t" {
                    flush()
                } else {
                    current.append(character)
                }
                index += 1
            }
            flush()
            return tokens
        }

        mutating func next() -> String? {
            guard position < tokens.count else { return nil }
            defer { position += 1 }
            return tokens[position]
        }

        func peek() -> String? { position < tokens.count ? tokens[position] : nil }

        mutating func or() -> Truth {
            var value = and()
            while peek() == "||" {
                _ = next()
                value = value || and()
            }
            return value
        }

        mutating func and() -> Truth {
            var value = unary()
            while peek() == "&&" {
                _ = next()
                value = value && unary()
            }
            return value
        }

        mutating func unary() -> Truth {
            if peek() == "!" {
                _ = next()
                return !unary()
            }
            if peek() == "(" {
                _ = next()
                let value = or()
                _ = next()
                return value
            }
            guard let word = next() else { return .unknown }
            guard peek() == "(" else {
                if word == "true" { return .yes }
                if word == "false" { return .no }
                return build.flag(word)
            }
            _ = next()
            var argument: [String] = []
            var depth = 1
            while let token = next() {
                if token == "(" { depth += 1 }
                if token == ")" {
                    depth -= 1
                    if depth == 0 { break }
                }
                argument.append(token)
            }
            let first = argument.first ?? ""
            switch word {
            case "os": return build.os(first)
            case "canImport": return build.canImport(first)
            case "arch": return build.arch
            case "targetEnvironment": return build.targetEnvironment
            case "swift", "compiler", "hasFeature", "hasAttribute": return .yes
            default: return .unknown
            }
        }
    }
}
