// Finds uses of Apple API newer than a deployment target that no `@available` or `#available` guards, without Apple's
// SDK: the facts come from scripts/apple/ios-availability.tsv, which scripts/check-ios-sdk.sh generates from the SDK.
//
//   availability-check --table TABLE DIR=IOS_VERSION...
//
// Each DIR is scanned as code built for iOS IOS_VERSION (the package's sources for its deployment target, each example
// app for the version its README asks for). The sources are read as an iOS build sees them: `#if` branches that
// iOS never compiles (os(Linux), canImport(Glibc), ...) are skipped. A name is a use of a table entry when
//   - it names a type of the table (`Duration`, `UIButton.Configuration` when written qualified),
//   - it is a member access `.name` of a property or enum case the table lists (all of that name are newer),
//   - in Apple-only code, it is a member access `receiver.name` of a property newer on some types only (the table's
//     `.keyWindow@UIWindowScene`, with the older owners at version 0), and the receiver's type, resolved from the
//     tokens (a type name, `Type(...)`, `(x as? Type)`, a variable declared with a type, or one named after a type:
//     `windowScene`), is a newer owner, or cannot be resolved at all (so it fails unless guarded),
//   - it is a call `name(label: ...)` or `Type(label: ...)` whose argument labels fit only newer signatures of the
//     table (a signature fits when the call's labels appear in it in order; when an older signature fits too, the
//     call is not flagged, so that a use of an old overload is never reported).
// Names this code declares itself (types, functions, properties, cases) are its own, not Apple's, and are skipped.
// A use is guarded by an enclosing `@available(iOS N, ...)` declaration (its signature and body), by the body of an
// `if #available(iOS N, *)` (or `while`), or by the statements after `guard #available(iOS N, *) else {...}` in the
// same block, when N is at least the version the API needs. It prints each unguarded use and exits 1.
//
// Limits (why the SDK check, scripts/check-ios-sdk.sh, stays the reference): names are matched, not types, so a call
// through a trailing closure or an inferred member of an old overload family may be missed; API newer than the SDK
// the table came from is not in it.
import Foundation

// MARK: - The table

struct Entry {
    let version: Version
    let module: String
}

struct Parameter {
    let label: String
    let defaulted: Bool
    /// Of a collection's element type (`label#:` in the table): a string literal of several characters cannot be
    /// its argument (a string's elements are characters).
    var element = false
}

struct Table {
    var types: [String: Entry] = [:]
    var properties: [String: Entry] = [:]
    /// Properties newer than the deployment target on some types only (`.keyWindow@UIWindowScene`): name -> the
    /// owners (qualified type names) with their entries; other types' declarations of the name are older.
    var ownedProperties: [String: [(owner: String, entry: Entry)]] = [:]
    /// base name -> signatures (labels, and whether each parameter has a default) with their versions (zero for
    /// old overloads)
    var functions: [String: [(parameters: [Parameter], entry: Entry)]] = [:]

    init(file: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 3, let version = Version(columns[1]) else { continue }
            let entry = Entry(version: version, module: columns[2])
            let key = columns[0]
            if key.hasPrefix("."), let at = key.firstIndex(of: "@") {
                let name = String(key[key.index(after: key.startIndex)..<at])
                ownedProperties[name, default: []].append((String(key[key.index(after: at)...]), entry))
            } else if key.hasPrefix(".") {
                properties[String(key.dropFirst())] = entry
            } else if let open = key.firstIndex(of: "("), key.hasSuffix(")") {
                let base = String(key[..<open])
                let inner = key[key.index(after: open)..<key.index(before: key.endIndex)]
                let parameters = inner.split(separator: ":", omittingEmptySubsequences: false).dropLast().map {
                    piece in
                    let element = piece.hasSuffix("#")
                    let rest = element ? piece.dropLast() : piece
                    return Parameter(
                        label: String(rest.hasSuffix("=") ? rest.dropLast() : rest), defaulted: rest.hasSuffix("="),
                        element: element)
                }
                functions[base, default: []].append((parameters, entry))
            } else {
                types[key] = entry
            }
        }
    }
}

// MARK: - Reading Swift as iOS sees it

let iosModules: Set<String> = [
    "Foundation", "Dispatch", "Darwin", "ObjectiveC", "UIKit", "SwiftUI", "Combine", "CoreLocation",
    "BackgroundTasks", "AuthenticationServices", "Security", "CoreGraphics", "QuartzCore", "os", "Observation",
]
let linuxOnlyModules: Set<String> = ["Glibc", "Musl", "Android", "FoundationNetworking", "FoundationXML", "WinSDK"]
let falseFlags: Set<String> = ["IFTTT_APPLE_STUB_CHECK"]

/// An iOS build, as `#if` sees it: a flag this tool cannot know (DEBUG) leaves both branches in.
let iosBuild = BuildConditions(
    os: { $0 == "iOS" ? .yes : .no },
    canImport: { iosModules.contains($0) ? .yes : linuxOnlyModules.contains($0) ? .no : .unknown },
    flag: { falseFlags.contains($0) ? .no : .unknown })

/// A Linux build, as `#if` sees it: what compiles there is proven to resolve by the Linux build itself.
let linuxBuild = BuildConditions(
    os: { $0 == "Linux" ? .yes : .no },
    canImport: {
        ["Foundation", "Dispatch", "Glibc", "FoundationNetworking"].contains($0)
            ? .yes : iosModules.contains($0) ? .no : .unknown
    },
    flag: { falseFlags.contains($0) ? .no : .unknown })

/// The lines (1-based) that an iOS build compiles and a Linux build does not: Apple-only code, whose names only the
/// SDK (or its names list) can resolve. A file that imports an Apple-only module outside any `#if` is Apple-only whole.
func appleOnlyLines(of text: String) -> Set<Int> {
    let ios = iosView(of: text)
    let linux = iosView(of: text, build: linuxBuild)
    let appleOnlyModules = iosModules.subtracting(["Foundation", "Dispatch"])
    let wholeFile = linux.contains { line in
        let words = line.split(separator: " ")
        return words.count >= 2 && words[0] == "import" && appleOnlyModules.contains(String(words[1]))
    }
    var lines = Set<Int>()
    for (index, line) in ios.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
        if wholeFile || linux[index].trimmingCharacters(in: .whitespaces).isEmpty { lines.insert(index + 1) }
    }
    return lines
}

/// Blanks every line an iOS build does not compile (keeping line numbers), and the directive lines themselves.
func iosView(of text: String, build: BuildConditions = iosBuild) -> [String] {
    struct Block {
        var parentActive: Bool
        var taken: Truth  // whether an earlier branch was certainly taken
        var active: Bool
    }
    var stack: [Block] = []
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let active = stack.last?.active ?? true
        if trimmed.hasPrefix("#if ") {
            let truth = build.evaluate(String(trimmed.dropFirst(4)))
            stack.append(Block(parentActive: active, taken: truth, active: active && truth != .no))
            lines.append("")
        } else if trimmed.hasPrefix("#elseif "), var block = stack.popLast() {
            let truth = build.evaluate(String(trimmed.dropFirst(8)))
            block.active = block.parentActive && block.taken != .yes && truth != .no
            block.taken = block.taken || truth
            stack.append(block)
            lines.append("")
        } else if trimmed == "#else" || trimmed.hasPrefix("#else "), var block = stack.popLast() {
            block.active = block.parentActive && block.taken != .yes
            block.taken = .yes
            stack.append(block)
            lines.append("")
        } else if trimmed.hasPrefix("#endif") {
            _ = stack.popLast()
            lines.append("")
        } else {
            lines.append(active ? line : "")
        }
    }
    return lines
}

// MARK: - Tokens

struct Token {
    enum Kind { case identifier, punctuation, number, newline, interpolationStart, stringEnd }
    let kind: Kind
    let text: String
    let line: Int
    /// On a `.stringEnd`: how many characters the literal holds, when it has no interpolation.
    var literalLength: Int? = nil
}

/// A string literal's text with its escapes (`\r`, `\n`, `\u{..}`, ...) decoded, so that `count` counts its Characters
/// as Swift does (`"\r\n"` is one Character).
func unescaped(_ content: ArraySlice<Character>, raw: Bool) -> String {
    if raw { return String(content) }
    var result = ""
    var index = content.startIndex
    while index < content.endIndex {
        let character = content[index]
        index = content.index(after: index)
        guard character == "\\", index < content.endIndex else {
            result.append(character)
            continue
        }
        let escape = content[index]
        index = content.index(after: index)
        switch escape {
        case "n": result.append("\n")
        case "r": result.append("\r")
        case "t": result.append("\t")
        case "0": result.append("\0")
        case "u":
            if let close = content[index...].firstIndex(of: "}") {
                let hex = String(content[content.index(after: index)..<close])
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                    result.unicodeScalars.append(scalar)
                }
                index = content.index(after: close)
            }
        default: result.append(escape)
        }
    }
    return result
}

/// Swift tokens without comments and string contents (the code of string interpolations is kept).
func tokenize(_ lines: [String]) -> [Token] {
    let characters = Array(lines.joined(separator: "\n"))
    var tokens: [Token] = []
    var index = 0
    var line = 1
    // Each open string: its closing quote count, raw-hash count and whether it is multi-line; plus the paren depth
    // inside each open interpolation.
    var strings: [(quotes: Int, hashes: Int, start: Int, interpolated: Bool)] = []
    var interpolationDepths: [Int] = []
    func at(_ offset: Int) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }

    func skipString() {
        // Inside a string literal: skip to its end or to an interpolation.
        guard let string = strings.last else { return }
        while index < characters.count {
            let character = characters[index]
            if character == "\n" { line += 1 }
            if character == "\\" {
                var hashes = 0
                while at(1 + hashes) == "#" { hashes += 1 }
                if hashes == string.hashes {
                    if at(1 + hashes) == "(" {
                        index += 2 + hashes
                        interpolationDepths.append(0)
                        strings[strings.count - 1].interpolated = true
                        return
                    }
                    index += 2 + hashes
                    continue
                }
            }
            if character == "\"" {
                var quotes = 0
                while at(quotes) == "\"" && quotes < string.quotes { quotes += 1 }
                if quotes == string.quotes {
                    var hashes = 0
                    while at(quotes + hashes) == "#" && hashes < string.hashes { hashes += 1 }
                    if hashes == string.hashes {
                        let content = characters[string.start..<index]
                        index += quotes + hashes
                        strings.removeLast()
                        var length: Int?
                        if !string.interpolated {
                            length = unescaped(content, raw: string.hashes > 0).count
                        }
                        tokens.append(Token(kind: .stringEnd, text: "\"", line: line, literalLength: length))
                        return
                    }
                }
            }
            index += 1
        }
    }

    while index < characters.count {
        if !strings.isEmpty && interpolationDepths.count < strings.count {
            skipString()
            continue
        }
        let character = characters[index]
        if character == "\n" {
            tokens.append(Token(kind: .newline, text: "\n", line: line))
            line += 1
            index += 1
        } else if character == " " || character == "\t" || character == "\r" {
            index += 1
        } else if character == "/" && at(1) == "/" {
            while index < characters.count && characters[index] != "\n" { index += 1 }
        } else if character == "/" && at(1) == "*" {
            var depth = 0
            repeat {
                if characters[index] == "/" && at(1) == "*" {
                    depth += 1
                    index += 2
                } else if characters[index] == "*" && at(1) == "/" {
                    depth -= 1
                    index += 2
                } else {
                    if characters[index] == "\n" { line += 1 }
                    index += 1
                }
            } while depth > 0 && index < characters.count
        } else if character == "#" || character == "\"" {
            var hashes = 0
            while at(hashes) == "#" { hashes += 1 }
            if at(hashes) == "\"" {
                let quotes = at(hashes + 1) == "\"" && at(hashes + 2) == "\"" ? 3 : 1
                index += hashes + quotes
                strings.append((quotes, hashes, index, false))
                tokens.append(Token(kind: .punctuation, text: "\"", line: line))
            } else {
                // `#available`, `#selector`, ...: one identifier token with its `#`.
                var end = index + 1
                while end < characters.count,
                    characters[end].isLetter || characters[end].isNumber || characters[end] == "_"
                {
                    end += 1
                }
                tokens.append(Token(kind: .identifier, text: String(characters[index..<end]), line: line))
                index = max(end, index + 1)
            }
        } else if character.isLetter || character == "_" || character == "`" || character == "$" {
            var end = index + (character == "`" ? 1 : 0)
            while end < characters.count,
                characters[end].isLetter || characters[end].isNumber || characters[end] == "_" || characters[end] == "$"
            {
                end += 1
            }
            let text = String(characters[index..<end]).replacingOccurrences(of: "`", with: "")
            if character == "`", end < characters.count, characters[end] == "`" { end += 1 }
            tokens.append(Token(kind: .identifier, text: text, line: line))
            index = max(end, index + 1)
        } else if character.isNumber {
            var end = index
            while end < characters.count,
                characters[end].isNumber || characters[end] == "." || characters[end] == "_"
                    || characters[end].isLetter
            {
                if characters[end] == "." && !(end + 1 < characters.count && characters[end + 1].isNumber) { break }
                end += 1
            }
            tokens.append(Token(kind: .number, text: String(characters[index..<end]), line: line))
            index = end
        } else {
            if !interpolationDepths.isEmpty {
                if character == "(" { interpolationDepths[interpolationDepths.count - 1] += 1 }
                if character == ")" {
                    if interpolationDepths[interpolationDepths.count - 1] == 0 {
                        interpolationDepths.removeLast()
                        index += 1
                        continue
                    }
                    interpolationDepths[interpolationDepths.count - 1] -= 1
                }
            }
            tokens.append(Token(kind: .punctuation, text: String(character), line: line))
            index += 1
        }
    }
    return tokens
}

// MARK: - Scanning

let declarationKeywords: Set<String> = [
    "func", "var", "let", "init", "struct", "class", "enum", "protocol", "extension", "actor", "subscript", "case",
    "typealias", "associatedtype", "deinit",
]
let modifiers: Set<String> = [
    "public", "private", "fileprivate", "internal", "package", "open", "static", "final", "override", "mutating",
    "nonmutating", "nonisolated", "lazy", "weak", "unowned", "dynamic", "required", "convenience", "indirect",
    "optional", "isolated", "consuming", "borrowing",
]

/// The iOS version an `@available(...)` or `#available(...)` argument list names, `.max` for `iOS, unavailable`.
func iosVersion(in arguments: [Token]) -> Version? {
    for (offset, token) in arguments.enumerated() where token.text == "iOS" {
        var rest = arguments.dropFirst(offset + 1).prefix(while: { $0.text != ")" })
        if let number = rest.first, number.kind == .number { return Version(number.text) }
        if rest.first?.text == "," { rest = rest.dropFirst() }
        if rest.first?.text == "unavailable" { return Version(major: Int.max, minor: 0) }
        if rest.first?.text == "introduced", let number = rest.dropFirst(2).first { return Version(number.text) }
    }
    return nil
}

/// The closing index of the bracket that opens at `start`.
func matching(_ tokens: [Token], from start: Int) -> Int {
    let open = tokens[start].text
    let close = open == "(" ? ")" : open == "[" ? "]" : open == "<" ? ">" : "}"
    var depth = 0
    var index = start
    while index < tokens.count {
        if tokens[index].text == open { depth += 1 }
        if tokens[index].text == close {
            depth -= 1
            if depth == 0 { return index }
        }
        index += 1
    }
    return tokens.count - 1
}

/// The argument labels of the call whose `(` is at `open`: `f(a: 1, 2, b: { })` -> ["a", "_", "b"].
func callLabels(_ tokens: [Token], open: Int) -> [String] {
    let close = matching(tokens, from: open)
    if close == open + 1 { return [] }
    var labels: [String] = []
    var depth = 0
    var argumentStart = open + 1
    var index = open + 1
    while index <= close {
        let text = tokens[index].text
        if "([{".contains(text) { depth += 1 }
        if ")]}".contains(text) { depth -= 1 }
        if (text == "," && depth == 0) || index == close {
            var first = argumentStart
            while first < index && tokens[first].kind == .newline { first += 1 }
            if first + 1 < index, tokens[first].kind == .identifier, tokens[first + 1].text == ":",
                !(first + 2 < index && tokens[first + 2].text == ":")
            {
                labels.append(tokens[first].text)
            } else {
                labels.append("_")
            }
            argumentStart = index + 1
        }
        index += 1
    }
    return labels
}

/// For each argument of the call whose `(` is at `open`: whether it is a string literal of several characters.
func multiCharacterStrings(_ tokens: [Token], open: Int) -> [Bool] {
    let close = matching(tokens, from: open)
    if close == open + 1 { return [] }
    var flags: [Bool] = []
    var depth = 0
    var argumentStart = open + 1
    var index = open + 1
    while index <= close {
        let text = tokens[index].text
        if "([{".contains(text) { depth += 1 }
        if ")]}".contains(text) { depth -= 1 }
        if (text == "," && depth == 0) || index == close {
            var value = Array(tokens[argumentStart..<index].filter { $0.kind != .newline })
            if value.count > 2, value[0].kind == .identifier, value[1].text == ":" { value.removeFirst(2) }
            flags.append(value.count == 2 && value[0].text == "\"" && (value[1].literalLength ?? 0) > 1)
            argumentStart = index + 1
        }
        index += 1
    }
    return flags
}

/// Whether a call with argument `labels` and `trailing` trailing closures can call `signature`: the labels name its
/// parameters in order, the parameters left out have defaults, and trailing closures take the last ones. An argument
/// that is a string literal of several characters (`strings`, parallel to `labels`) does not fit a parameter of the
/// element type.
func fits(_ labels: [String], trailing: Int, _ signature: [Parameter], strings: [Bool] = []) -> Bool {
    var next = 0
    var closures = trailing
    for (offset, parameter) in signature.enumerated() {
        if next < labels.count, labels[next] == parameter.label {
            if parameter.element, next < strings.count, strings[next] { return false }
            next += 1
        } else if next == labels.count, closures > 0, signature.count - offset <= closures {
            closures -= 1
        } else if !parameter.defaulted {
            return false
        }
    }
    return next == labels.count && closures == 0
}

/// Whether the token at `index` is in the condition of `if`, `guard`, `while`, `switch` or `for` on its line, where a
/// `{` after a call opens the statement's body, not a trailing closure.
func inStatementCondition(_ tokens: [Token], _ index: Int) -> Bool {
    var back = index - 1
    while back >= 0, tokens[back].kind != .newline {
        if ["if", "guard", "while", "switch", "for", "catch"].contains(tokens[back].text) { return true }
        back -= 1
    }
    return false
}

struct Finding {
    let file: String
    let line: Int
    let name: String
    let version: Version
    let module: String
    let guardVersion: Version
    let deployment: Version
}

/// The names a set of files declares, and the function signatures (base name and labels) they declare.
struct Declarations {
    /// Types, properties, variables and enum cases.
    var names: Set<String> = []
    /// This code's own types that an `@available(iOS N, ...)` restricts, with N.
    var availableTypes: [String: Version] = [:]
    /// Functions and initializers (by type name), with their labels.
    var functions: [String: [[Parameter]]] = [:]

    mutating func collect(_ tokens: [Token]) {
        var typeStack: [(name: String, depth: Int)] = []
        var depth = 0
        var index = 0
        var pendingAvailability: Version?
        while index < tokens.count {
            let token = tokens[index]
            if token.text == "available", index > 0, tokens[index - 1].text == "@", index + 1 < tokens.count,
                tokens[index + 1].text == "("
            {
                let close = matching(tokens, from: index + 1)
                pendingAvailability = iosVersion(in: Array(tokens[(index + 2)..<close]))
                index = close + 1
                continue
            }
            if token.text == "{" { depth += 1 }
            if token.text == "}" {
                depth -= 1
                while let last = typeStack.last, last.depth > depth { typeStack.removeLast() }
            }
            if token.kind == .identifier, declarationKeywords.contains(token.text), index + 1 < tokens.count {
                let next = tokens[index + 1]
                switch token.text {
                case "struct", "class", "enum", "protocol", "actor", "typealias", "associatedtype", "extension":
                    if next.kind == .identifier {
                        if token.text != "extension" { names.insert(next.text) }
                        if token.text != "extension", let version = pendingAvailability, version.major != Int.max {
                            availableTypes[next.text] = version
                        }
                        typeStack.append((next.text, depth + 1))
                        if index + 2 < tokens.count, tokens[index + 2].text == "<" {
                            collectGenericParameters(tokens, open: index + 2)
                        }
                    }
                case "func":
                    if next.kind == .identifier, index + 2 < tokens.count, tokens[index + 2].text == "<" {
                        collectGenericParameters(tokens, open: index + 2)
                    }
                    if next.kind == .identifier, index + 2 < tokens.count {
                        var open = index + 2
                        if tokens[open].text == "<" { open = matching(tokens, from: open) + 1 }
                        if open < tokens.count, tokens[open].text == "(" {
                            functions[next.text, default: []].append(parameterLabels(tokens, open: open))
                        }
                    }
                case "init":
                    var open = index + 1
                    if open < tokens.count, tokens[open].text == "?" || tokens[open].text == "!" { open += 1 }
                    if open < tokens.count, tokens[open].text == "<" { open = matching(tokens, from: open) + 1 }
                    if open < tokens.count, tokens[open].text == "(", let owner = typeStack.last?.name {
                        functions[owner, default: []].append(parameterLabels(tokens, open: open))
                    }
                case "var", "let", "case":
                    var cursor = index + 1
                    while cursor < tokens.count, tokens[cursor].kind == .identifier {
                        names.insert(tokens[cursor].text)
                        // `case a, b(x: Int)`: the next name after a comma at depth 0.
                        var skip = cursor + 1
                        if skip < tokens.count, tokens[skip].text == "(" { skip = matching(tokens, from: skip) + 1 }
                        guard token.text == "case", skip < tokens.count, tokens[skip].text == "," else { break }
                        cursor = skip + 1
                    }
                default: break
                }
                pendingAvailability = nil
            }
            index += 1
        }
    }

    /// `<T: Equatable, Content>`: T and Content are names this code declares.
    mutating func collectGenericParameters(_ tokens: [Token], open: Int) {
        let close = matching(tokens, from: open)
        var expectName = true
        var depth = 0
        for token in tokens[(open + 1)..<max(open + 1, close)] {
            if "(<[".contains(token.text) { depth += 1 }
            if ")>]".contains(token.text) { depth -= 1 }
            if depth == 0, token.text == "," {
                expectName = true
                continue
            }
            if expectName, depth == 0, token.kind == .identifier, token.text != "each" {
                names.insert(token.text)
                expectName = false
            }
        }
    }

    /// `(a b: T, _ c: T, d: T = 1)` -> a, _, d; every one counted as defaulted, so that a call this code could mean
    /// is taken as this code's.
    func parameterLabels(_ tokens: [Token], open: Int) -> [Parameter] {
        let close = matching(tokens, from: open)
        var labels: [Parameter] = []
        var depth = 0
        var expectLabel = true
        var index = open + 1
        while index < close {
            let token = tokens[index]
            if "([{<".contains(token.text) { depth += 1 }
            if ")]}>".contains(token.text) { depth -= 1 }
            if depth == 0 && token.text == "," {
                expectLabel = true
            } else if expectLabel && token.kind == .identifier && token.text != "inout" {
                labels.append(Parameter(label: token.text, defaulted: true))
                expectLabel = false
            }
            index += 1
        }
        return labels
    }
}

/// The type of the receiver of the member access whose `.` is at `dot`, when the tokens say it: a type name
/// (`UIApplication.shared`: the last name before the dot when capitalized), or a variable of this file declared with
/// a type (`let scene: UIWindowScene`, `scene = x as? UIWindowScene`, `let scene = UIWindowScene(...)`). Optional
/// chaining (`scene?.`) and forced unwrapping (`scene!.`) are looked through. Otherwise the variable's own name (the
/// caller matches it against the owners' type names: `windowScene` names a UIWindowScene, `layer` a CALayer); nil for
/// the result of a call other than an initializer.
func receiverType(_ tokens: [Token], dot: Int) -> String? {
    var at = dot - 1
    while at >= 0, tokens[at].text == "?" || tokens[at].text == "!" { at -= 1 }
    if at >= 0, tokens[at].text == ")" {
        // `Type(...)` or `(x as? Type)`; the result of another call is not resolved.
        var open = at - 1
        var depth = 1
        while open >= 0 {
            if tokens[open].text == ")" { depth += 1 }
            if tokens[open].text == "(" {
                depth -= 1
                if depth == 0 { break }
            }
            open -= 1
        }
        if open > 0, tokens[open - 1].kind == .identifier, tokens[open - 1].text.first?.isUppercase == true {
            return tokens[open - 1].text
        }
        if open >= 0, open < at - 2, tokens[at - 1].kind == .identifier,
            ["as", "?", "!"].contains(tokens[at - 2].text), tokens[at - 1].text.first?.isUppercase == true
        {
            return tokens[at - 1].text
        }
        return nil
    }
    guard at >= 0, tokens[at].kind == .identifier else { return nil }
    let name = tokens[at].text
    if name.first?.isUppercase == true { return name }
    // `UIApplication.shared.keyWindow`: the singleton of a type is of that type.
    if name == "shared", at >= 2, tokens[at - 1].text == ".", tokens[at - 2].text.first?.isUppercase == true {
        return tokens[at - 2].text
    }
    for (position, token) in tokens.enumerated() where token.text == name && position != at {
        let next = position + 1 < tokens.count ? tokens[position + 1].text : ""
        // `name: Type` in a declaration (not an argument label: a label is followed by a value, not a type name).
        if next == ":", position > 0,
            ["let", "var", "("].contains(tokens[position - 1].text) || tokens[position - 1].text == ",",
            position + 2 < tokens.count, tokens[position + 2].text.first?.isUppercase == true
        {
            return tokens[position + 2].text
        }
        // `name = ... as? Type` / `as! Type` / `Type(...)` on the declaration's line.
        if next == "=", position > 0, ["let", "var"].contains(tokens[position - 1].text) {
            var scan = position + 2
            if scan < tokens.count, tokens[scan].text.first?.isUppercase == true, scan + 1 < tokens.count,
                tokens[scan + 1].text == "("
            {
                return tokens[scan].text
            }
            while scan < tokens.count, tokens[scan].kind != .newline, tokens[scan].text != "{" {
                if tokens[scan].text == "as", scan + 1 < tokens.count {
                    var type = scan + 1
                    while type < tokens.count, tokens[type].text == "?" || tokens[type].text == "!" { type += 1 }
                    if type < tokens.count, tokens[type].kind == .identifier { return tokens[type].text }
                }
                scan += 1
            }
        }
    }
    // Unresolved: the name itself, which the caller matches against the owners' names (`windowScene`, `layer`).
    return name
}

func scan(
    file: String, tokens: [Token], table: Table, own: Declarations, deployment: Version, appleOnly: Set<Int> = []
) -> [Finding] {
    // Scopes: each `{` opens one with the guard version in force inside it.
    struct Scope {
        var version: Version
        var closes: Int  // token index of its `}`
    }
    var findings: [Finding] = []
    var scopes = [Scope(version: deployment, closes: tokens.count)]
    // An `@available(iOS N)` declaration's signature: the version applies until its body opens or it ends.
    var pendingDeclaration: Version?
    var pendingSawKeyword = false  // the declaration's keyword (func, var, ...) came after the attribute
    var pendingBlock: Version?  // an `if #available` condition's version, for the next `{`
    var parenDepth = 0
    var index = 0

    func current() -> Version {
        max(scopes.last!.version, pendingDeclaration ?? .zero)
    }
    func report(_ name: String, _ entry: Entry, at token: Token) {
        let guarded = current()
        if entry.version > guarded {
            findings.append(
                Finding(
                    file: file, line: token.line, name: name, version: entry.version, module: entry.module,
                    guardVersion: guarded, deployment: deployment))
        }
    }

    while index < tokens.count {
        let token = tokens[index]
        while scopes.count > 1, index > scopes.last!.closes { scopes.removeLast() }
        switch token.text {
        case "(", "[": parenDepth += 1
        case ")", "]": parenDepth = max(0, parenDepth - 1)
        case "{":
            var version = scopes.last!.version
            if let pending = pendingDeclaration, parenDepth == 0 {
                version = max(version, pending)
                pendingDeclaration = nil
            }
            if let block = pendingBlock, parenDepth == 0 {
                version = max(version, block)
                pendingBlock = nil
            }
            scopes.append(Scope(version: version, closes: matching(tokens, from: index)))
        case "\n":
            // A declaration without a body ends with its line, unless the next line continues it.
            if pendingDeclaration != nil, pendingSawKeyword, parenDepth == 0 {
                var next = index + 1
                while next < tokens.count, tokens[next].kind == .newline { next += 1 }
                if next < tokens.count {
                    let text = tokens[next].text
                    if text == "}" || text == "@" || declarationKeywords.contains(text) || modifiers.contains(text) {
                        pendingDeclaration = nil
                    }
                }
            }
        default: break
        }
        guard token.kind == .identifier else {
            index += 1
            continue
        }
        if pendingDeclaration != nil, declarationKeywords.contains(token.text) { pendingSawKeyword = true }
        let previous = index > 0 ? tokens[index - 1] : nil
        // `@available(...)` before a declaration.
        if token.text == "available", previous?.text == "@", index + 1 < tokens.count, tokens[index + 1].text == "(" {
            let close = matching(tokens, from: index + 1)
            if let version = iosVersion(in: Array(tokens[(index + 2)..<close])) {
                pendingDeclaration = max(pendingDeclaration ?? .zero, version)
                pendingSawKeyword = false
            }
            index = close + 1
            continue
        }
        // `#available(...)` in `if`, `while` or `guard`.
        if token.text == "#available", index + 1 < tokens.count, tokens[index + 1].text == "(" {
            let close = matching(tokens, from: index + 1)
            if let version = iosVersion(in: Array(tokens[(index + 2)..<close])) {
                // Which statement: look back on this line for `guard`.
                var back = index - 1
                var isGuard = false
                while back >= 0, tokens[back].kind != .newline {
                    if tokens[back].text == "guard" { isGuard = true }
                    back -= 1
                }
                if isGuard {
                    scopes[scopes.count - 1].version = max(scopes.last!.version, version)
                } else {
                    pendingBlock = version
                }
            }
            index = close + 1
            continue
        }
        // Declarations of this code are not uses.
        if let previous, declarationKeywords.contains(previous.text) || previous.text == "func" {
            index += 1
            continue
        }
        let name = token.text
        let isMember = previous?.text == "."
        let qualifier = isMember && index >= 2 && tokens[index - 2].kind == .identifier ? tokens[index - 2].text : nil
        let isCall = index + 1 < tokens.count && tokens[index + 1].text == "("
        // `.task { ... }`: a member called with a trailing closure only.
        // (In the condition of an `if`, `guard` or `while`, that `{` opens the statement's body: not a call.)
        let isClosureCall =
            isMember && !isCall && index + 1 < tokens.count && tokens[index + 1].text == "{"
            && !inStatementCondition(tokens, index)
        let isLabel = index + 1 < tokens.count && tokens[index + 1].text == ":" && !isCall
        if isLabel && parenDepth > 0 {
            index += 1
            continue
        }
        // Types: Apple's, and this code's own that need a newer iOS.
        if !isMember, let version = own.availableTypes[name] {
            report(name, Entry(version: version, module: "declared here with @available"), at: token)
        }
        if !isMember, !own.names.contains(name) {
            if let entry = table.types[name] { report(name, entry, at: token) }
        } else if let qualifier, let entry = table.types[qualifier + "." + name], !own.names.contains(name) {
            report(qualifier + "." + name, entry, at: token)
        }
        // Calls: functions, methods and initializers (`Type(...)`).
        // A call on a value (`header.split(...)`) is not one of this code's enum cases or types of that name.
        let receiverIsValue =
            isMember && index >= 2
            && (tokens[index - 2].text == ")" || tokens[index - 2].text == "]"
                || (tokens[index - 2].kind == .identifier && tokens[index - 2].text.first?.isLowercase == true))
        if isCall || isClosureCall, receiverIsValue || !own.names.contains(name), let signatures = table.functions[name]
        {
            let labels = isCall ? callLabels(tokens, open: index + 1) : []
            let strings = isCall ? multiCharacterStrings(tokens, open: index + 1) : []
            var trailing = isClosureCall ? 1 : 0
            if isCall {
                let close = matching(tokens, from: index + 1)
                if close + 1 < tokens.count, tokens[close + 1].text == "{", !inStatementCondition(tokens, index) {
                    trailing = 1
                }
            }
            let ours = (own.functions[name] ?? []).contains { fits(labels, trailing: trailing, $0) }
            let candidates = signatures.filter { fits(labels, trailing: trailing, $0.parameters, strings: strings) }
            if !ours, !candidates.isEmpty, candidates.allSatisfy({ $0.entry.version > deployment }),
                let newest = candidates.min(by: { $0.entry.version < $1.entry.version })
            {
                let signature = name + "(" + labels.map { $0 + ":" }.joined() + ")"
                report(signature, newest.entry, at: token)
            }
        }
        // Member properties and enum cases (`.components`, `.iso8601`), not calls.
        if isMember, !isCall, !isClosureCall, !own.names.contains(name), let entry = table.properties[name] {
            report("." + name, entry, at: token)
        }
        // A property newer on some types only (`keyWindow`: UIWindowScene's needs iOS 15, UIApplication's does not):
        // the receiver's type decides. It is resolved from the tokens (a type name, `x?.`, or a variable declared in
        // this file with a type: `let x: T`, `x = ... as? T`, `x = T(...)`); one that cannot be resolved counts as
        // the newest owner, so it fails unless guarded. An implicit member (`.active`) is not checked here, nor is code
        // that Linux compiles too.
        // Only in Apple-only code: what Linux compiles cannot have a receiver of an Apple-only type, and Linux's
        // build resolved it.
        if isMember, !isCall, !isClosureCall, appleOnly.contains(token.line), !own.names.contains(name),
            table.properties[name] == nil, let owners = table.ownedProperties[name]
        {
            // An implicit member (`.active`, no receiver written) takes its type from the context, which the tokens
            // do not say, and so does the result of a call other than an initializer: neither is checked here.
            var before = index - 2
            while before >= 0, tokens[before].text == "?" || tokens[before].text == "!" { before -= 1 }
            let written = before >= 0 && (tokens[before].kind == .identifier || tokens[before].text == ")")
            let receiver: String? = written ? receiverType(tokens, dot: index - 1) : nil
            let newer = owners.filter { $0.entry.version > .zero }
            if let receiver {
                // A variable named after a type (`windowScene`, `titleLabel`): its whole name, else its last word
                // (`Label`), against the end of each owner's name. A name whose last word matches no owner names
                // another type (`titleLabel` is no UICellAccessory.LabelOptions); a one-word name that matches none
                // (`x`, `thing`) is not resolved, and fails unless guarded.
                func named(_ suffix: String) -> [(owner: String, entry: Entry)] {
                    owners.filter { $0.owner.split(separator: ".").last.map { $0.hasSuffix(suffix) } == true }
                }
                var matches = owners.filter { $0.owner == receiver || $0.owner.hasSuffix("." + receiver) }
                if matches.isEmpty, receiver.first?.isLowercase == true {
                    matches = named(receiver.prefix(1).uppercased() + receiver.dropFirst())
                    if matches.isEmpty, let last = receiver.lastIndex(where: \.isUppercase) {
                        matches = named(String(receiver[last...]))
                    }
                }
                if let match = matches.filter({ $0.entry.version > .zero }).max(by: {
                    $0.entry.version < $1.entry.version
                }),
                    matches.allSatisfy({ $0.entry.version > .zero })
                {
                    report(match.owner + "." + name, match.entry, at: token)
                } else if matches.isEmpty, receiver.first?.isLowercase == true,
                    !receiver.contains(where: \.isUppercase),
                    let newest = newer.max(by: { $0.entry.version < $1.entry.version })
                {
                    report(
                        "." + name,
                        Entry(
                            version: newest.entry.version,
                            module: newest.entry.module
                                + "; newer on \(newer.map(\.owner).sorted().joined(separator: ", ")), and the type of `\(receiver)` is not resolved here"
                        ),
                        at: token)
                }
            }
        }
        index += 1
    }
    return findings
}

// MARK: - Names of Apple-only code that nothing resolves

struct Unresolved {
    let file: String
    let line: Int
    let name: String
}

let swiftWords: Set<String> = [
    "self", "Self", "super", "init", "Type", "Protocol", "some", "any", "true", "false", "nil", "Any", "AnyObject",
    "if", "else", "guard", "return", "let", "var", "func", "in", "for", "while", "switch", "case", "default", "try",
    "await", "async", "throws", "throw", "rethrows", "do", "catch", "where", "is", "as", "inout", "import", "struct",
    "class", "enum", "protocol", "extension", "actor", "typealias", "static", "public", "private", "fileprivate",
    "internal", "open", "final", "override", "weak", "unowned", "lazy", "mutating", "nonmutating", "convenience",
    "required", "defer", "repeat", "break", "continue", "fallthrough", "get", "set", "willSet", "didSet", "subscript",
    "deinit", "associatedtype", "package", "nonisolated", "isolated", "sending", "consuming", "borrowing", "each",
]

/// In Apple-only lines (`lines`), every member name (`.name`) and every capitalized name (a type) must be this code's
/// own, the table's, or one of the SDK's names; anything else is API the table's SDK does not know (newer than it, so
/// unguarded for all this check can tell) and is reported rather than passed.
func unresolvedNames(file: String, tokens: [Token], lines: Set<Int>, known: Set<String>) -> [Unresolved] {
    var result: [Unresolved] = []
    for (index, token) in tokens.enumerated() where token.kind == .identifier && lines.contains(token.line) {
        let name = token.text
        if name.hasPrefix("#") || name.hasPrefix("$") || swiftWords.contains(name) || known.contains(name) { continue }
        // CoreFoundation's C names (CFDictionary, CFTypeRef) are outside the list of the SDK's Swift modules; the Linux
        // stub check (scripts/check-apple.sh) type-checks them against the stubs' declarations.
        if name.hasPrefix("CF"), name.count > 2, name.dropFirst(2).first?.isUppercase == true { continue }
        let previous = index > 0 ? tokens[index - 1] : nil
        if let previous,
            declarationKeywords.contains(previous.text) || previous.text == "import" || previous.text == "@"
        {
            continue
        }
        // The name of an attribute's argument (`@_spi(Sandbox)`) is this code's own SPI group, not an API name.
        if index >= 3, previous?.text == "(", tokens[index - 2].text == "_spi", tokens[index - 3].text == "@" {
            continue
        }
        let isMember = previous?.text == "."
        if isMember {
            // `1.5`, `.0` are numbers; `\.name` key paths and `.name` members both count.
            if index >= 2, tokens[index - 2].kind == .number { continue }
        } else {
            guard let first = name.first, first.isUppercase else { continue }
            // A label (`Name:` in a call) is not a use.
            if index + 1 < tokens.count, tokens[index + 1].text == ":" { continue }
        }
        result.append(Unresolved(file: file, line: token.line, name: name))
    }
    return result
}

// MARK: - Typed-throws function types in stored properties

/// A stored property whose type holds a typed-throws function type (`() throws(E) -> T`): the metadata of its type
/// (wanted by the enclosing type's metadata accessor, by `Mirror` and by `dump`) comes from the Swift runtime's
/// `swift_getExtendedFunctionTypeMetadata`, which iOS has only from 18; the compiler calls it without a null check.
/// Reported unless an `@available(iOS 18, ...)` covers the property or its type. Local variables and parameters are
/// not reported: their function values need no type metadata.
struct TypedThrowsStorage {
    let file: String
    let line: Int
    let name: String
}

func typedThrowsStorage(file: String, tokens: [Token]) -> [TypedThrowsStorage] {
    // The braces open around the current token: whether each is a type's body, and the @available version over it.
    var braces: [(isType: Bool, version: Version)] = []
    var pendingType = false
    var pendingAvailability: Version = .zero
    var findings: [TypedThrowsStorage] = []
    var index = 0
    let iOS18 = Version(major: 18, minor: 0)
    while index < tokens.count {
        let token = tokens[index]
        if token.text == "available", index > 0, tokens[index - 1].text == "@", index + 1 < tokens.count,
            tokens[index + 1].text == "("
        {
            let close = matching(tokens, from: index + 1)
            pendingAvailability = max(pendingAvailability, iosVersion(in: Array(tokens[(index + 2)..<close])) ?? .zero)
            index = close + 1
            continue
        }
        switch token.text {
        case "struct", "class", "enum", "actor", "extension":
            if index + 1 < tokens.count, tokens[index + 1].kind == .identifier,
                index == 0 || tokens[index - 1].text != "."
            {
                pendingType = true
            }
        case "func", "init", "subscript", "deinit":
            pendingType = false
        case "{":
            let outer = braces.last?.version ?? .zero
            braces.append((pendingType, max(outer, pendingType ? pendingAvailability : .zero)))
            pendingType = false
            pendingAvailability = .zero
        case "}":
            _ = braces.popLast()
        case "let", "var":
            guard braces.last?.isType == true, index + 2 < tokens.count, tokens[index + 1].kind == .identifier,
                tokens[index + 2].text == ":"
            else { break }
            // The type annotation: to `=`, to a `{` (a computed property or observers), or to the line's end, at
            // bracket depth 0.
            var cursor = index + 3
            var depth = 0
            var typedThrows = false
            var computed = false
            while cursor < tokens.count {
                let text = tokens[cursor].text
                if "([<".contains(text) { depth += 1 }
                if ")]>".contains(text) { depth = max(0, depth - 1) }
                if depth == 0 && (text == "=" || tokens[cursor].kind == .newline) { break }
                if depth == 0 && text == "{" {
                    // `{ get }` in a protocol or `{ ... }`: not stored, unless it only has observers.
                    let body = tokens[(cursor + 1)..<min(tokens.count, cursor + 3)].map(\.text)
                    computed = !(body.contains("didSet") || body.contains("willSet"))
                    break
                }
                if text == "throws", cursor + 1 < tokens.count, tokens[cursor + 1].text == "(" { typedThrows = true }
                cursor += 1
            }
            let version = max(braces.last?.version ?? .zero, pendingAvailability)
            if typedThrows, !computed, version < iOS18 {
                findings.append(TypedThrowsStorage(file: file, line: token.line, name: tokens[index + 1].text))
            }
            pendingAvailability = .zero
        default:
            break
        }
        index += 1
    }
    return findings
}

// MARK: - Main

@main
enum AvailabilityCheckTool {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var tablePath: String?
        var namesPath: String?
        var disabledPath: String?
        var roots: [(String, Version)] = []
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            if argument == "--table", !arguments.isEmpty {
                tablePath = arguments.removeFirst()
            } else if argument == "--disabled", !arguments.isEmpty {
                disabledPath = arguments.removeFirst()
            } else if argument == "--names", !arguments.isEmpty {
                namesPath = arguments.removeFirst()
            } else if let equals = argument.lastIndex(of: "="),
                let version = Version(String(argument[argument.index(after: equals)...]))
            {
                roots.append((String(argument[..<equals]), version))
            } else {
                FileHandle.standardError.write(
                    Data("usage: availability-check --table TABLE DIR=IOS_VERSION...\n".utf8))
                exit(2)
            }
        }
        guard let tablePath, !roots.isEmpty else {
            FileHandle.standardError.write(
                Data("usage: availability-check --table TABLE DIR=IOS_VERSION...\n".utf8))
            exit(2)
        }
        let table: Table
        do { table = try Table(file: tablePath) } catch {
            FileHandle.standardError.write(Data("availability: cannot read \(tablePath): \(error)\n".utf8))
            exit(2)
        }
        var files: [(path: String, tokens: [Token], deployment: Version, appleOnly: Set<Int>)] = []
        for (root, version) in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("availability: no such file or directory: \(root)\n".utf8))
                exit(2)
            }
            var paths: [String] = []
            if isDirectory.boolValue {
                let enumerator = FileManager.default.enumerator(atPath: root)
                while let relative = enumerator?.nextObject() as? String {
                    if relative.hasSuffix(".swift") && !relative.contains(".docc/") {
                        paths.append(root + "/" + relative)
                    }
                }
            } else {
                paths.append(root)
            }
            for path in paths.sorted() {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                files.append((path, tokenize(iosView(of: text)), version, appleOnlyLines(of: text)))
            }
        }
        var own = Declarations()
        for file in files { own.collect(file.tokens) }
        var findings: [Finding] = []
        for file in files {
            findings += scan(
                file: file.path, tokens: file.tokens, table: table, own: own, deployment: file.deployment,
                appleOnly: file.appleOnly)
        }
        var unresolved: [Unresolved] = []
        if let namesPath {
            guard let text = try? String(contentsOfFile: namesPath, encoding: .utf8) else {
                FileHandle.standardError.write(Data("availability: cannot read \(namesPath)\n".utf8))
                exit(2)
            }
            var known = Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
            known.formUnion(own.names)
            known.formUnion(own.functions.keys)
            known.formUnion(table.types.keys.flatMap { $0.split(separator: ".").map(String.init) })
            known.formUnion(table.properties.keys)
            known.formUnion(table.functions.keys)
            known.formUnion(iosModules)
            // The generic parameters of Apple's types, which an extension names (`where Wrapped == ...`).
            known.formUnion([
                "Wrapped", "Element", "Key", "Value", "Success", "Failure", "Content", "Body", "Output",
                "Input", "Label", "Root", "Subject", "Configuration", "Coordinator", "Context",
            ])
            known.formUnion([
                "IFTTTConnectCore", "IFTTTConnectLocation", "IFTTTConnectSDK", "IFTTTSDK",
                "IFTTTConnectService", "IFTTTConnectTesting", "IFTTTConnectDesktop",
            ])
            for file in files {
                unresolved += unresolvedNames(file: file.path, tokens: file.tokens, lines: file.appleOnly, known: known)
            }
        }
        for finding in unresolved {
            print(
                "\(finding.file):\(finding.line): '\(finding.name)' is neither this code's nor a name of the SDK the"
                    + " table comes from (\(namesPath ?? "")): API newer than that SDK cannot be checked here;"
                    + " check it with scripts/check-ios-sdk.sh against an SDK that has it, or fix the name")
        }
        // API Apple disabled (scripts/apple/disabled-apis.tsv): a call of `.member(labels:)` or a use of `Type`.
        var disabled: [(file: String, line: Int, name: String, what: String)] = []
        if let disabledPath, let text = try? String(contentsOfFile: disabledPath, encoding: .utf8) {
            var members: [String: (labels: [String], what: String)] = [:]
            var types: [String: String] = [:]
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard columns.count >= 4 else { continue }
                let name = columns[3]
                if name.hasPrefix("."), let open = name.firstIndex(of: "(") {
                    let labels = name[name.index(after: open)..<name.index(before: name.endIndex)]
                        .split(separator: ":", omittingEmptySubsequences: false).dropLast().map(String.init)
                    members[String(name[name.index(after: name.startIndex)..<open])] = (labels, columns[1])
                } else {
                    types[name] = columns[1]
                }
            }
            for file in files {
                for (index, token) in file.tokens.enumerated() where token.kind == .identifier {
                    let isMember = index > 0 && file.tokens[index - 1].text == "."
                    if let entry = members[token.text], isMember, index + 1 < file.tokens.count,
                        file.tokens[index + 1].text == "(", callLabels(file.tokens, open: index + 1) == entry.labels
                    {
                        disabled.append((file.path, token.line, token.text, entry.what))
                    } else if let what = types[token.text], !isMember, !own.names.contains(token.text) {
                        disabled.append((file.path, token.line, token.text, what))
                    }
                }
            }
        }
        for finding in disabled {
            print("\(finding.file):\(finding.line): '\(finding.name)' is an API Apple disabled: \(finding.what)")
        }
        var storage: [TypedThrowsStorage] = []
        for file in files { storage += typedThrowsStorage(file: file.path, tokens: file.tokens) }
        for finding in storage {
            print(
                "\(finding.file):\(finding.line): stored property '\(finding.name)' has a typed-throws function type:"
                    + " its metadata needs swift_getExtendedFunctionTypeMetadata (iOS 18 and later), which the"
                    + " compiler calls unguarded below iOS 18; store a function returning Result instead")
        }
        for finding in findings {
            let guardText =
                finding.guardVersion > finding.deployment
                ? " (guarded only to iOS \(finding.guardVersion))" : " (target iOS \(finding.deployment))"
            print(
                "\(finding.file):\(finding.line): '\(finding.name)' needs iOS \(finding.version) (\(finding.module))\(guardText):"
                    + " guard it with @available(iOS \(finding.version), *) or #available, or raise the deployment target"
            )
        }
        let summary =
            "availability: \(files.count) files, \(findings.count) unguarded uses of API newer than their iOS target"
            + " (table: \(table.types.count) types, \(table.properties.count) members, \(table.functions.count) function names)"
        print(summary)
        print("availability: \(storage.count) stored properties of a typed-throws function type (iOS 18 metadata)")
        if namesPath != nil {
            let lines = files.reduce(0) { $0 + $1.appleOnly.count }
            print(
                "availability: \(unresolved.count) names of Apple-only code (\(lines) lines) that neither this code nor the SDK declares"
            )
        }
        if disabledPath != nil { print("availability: \(disabled.count) uses of API Apple disabled") }
        exit(findings.isEmpty && storage.isEmpty && unresolved.isEmpty && disabled.isEmpty ? 0 : 1)
    }
}
