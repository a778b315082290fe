// Facts from Apple's iOS SDK, read from symbol graphs (`swift-symbolgraph-extract` of the SDK's modules, run by
// scripts/check-ios-sdk.sh), for two uses:
//
//   apple-symbols availability --deployment 13.0 --sdk NAME --out TABLE GRAPH.json...
//       writes the availability table that scripts/checks/45-ios-availability.sh checks the sources against without
//       the SDK: every API of the given modules introduced after the deployment target, one line each,
//       `KEY<TAB>IOS VERSION<TAB>MODULE`. KEY is a type (`Duration`, `UIButton.Configuration`), a property or
//       enum case (`.components`), or a function (`sleep(for:tolerance:clock:)`, `Date(_:strategy:)` for an
//       initializer; `label=:` for a parameter with a default value). Properties and types are listed when every declaration of that name is newer; a function
//       name is listed with all its signatures (older ones with version 0) when one of them is newer, so that the
//       checker can tell an old overload from a new one by the argument labels.
//
//   apple-symbols stubs --sdk DIR --stubs DIR MODULE...
//       compares every public declaration of the stub modules (Tests/AppleStubs, as symbol graphs in --stubs) with
//       Apple's declaration of the same name (symbol graphs in --sdk) and fails when a stub is more permissive than
//       the SDK: a declaration Apple does not have, a different type, parameter list or generic signature, a
//       settable property Apple makes read-only, a function that does not throw where Apple's throws, a missing
//       main-actor isolation, `@Sendable` or `@escaping`, or a protocol conformance (Sendable above all) Apple does
//       not declare. A stub may be stricter: more isolation, `@Sendable` closures, fewer parameters where Apple's
//       extra parameters have defaults. The differences that are known and harmless are listed in `allowed` below,
//       each with its reason; nothing else passes.
import Foundation

// MARK: - Symbol graphs

struct Symbol {
    let module: String
    let precise: String
    let kind: String
    let path: [String]
    let title: String
    let declaration: String
    /// The iOS version this declaration itself names (nil when it names none).
    let introduced: Version?
    let unavailable: Bool
    var name: String { path.last ?? title }
    var parentPath: [String] { Array(path.dropLast()) }
}

struct Graph {
    var symbols: [Symbol] = []
    /// precise id -> index
    var byPrecise: [String: Int] = [:]
    /// member precise id -> parent precise id
    var parent: [String: String] = [:]
    /// type precise id -> names of the protocols it conforms to (target fallback names or resolved names)
    var conformances: [String: Set<String>] = [:]
    /// class precise id -> superclass precise ids
    var superclasses: [String: [String]] = [:]
    var byPath: [String: [Int]] = [:]
    /// protocol precise id -> the precise ids of its required (not optional) members
    var requirements: [String: [String]] = [:]
    /// requirements that a protocol extension implements by default (a conformer need not)
    var defaulted: Set<String> = []

    mutating func load(_ file: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        let module = ((root["module"] as? [String: Any])?["name"] as? String) ?? "?"
        for case let raw as [String: Any] in root["symbols"] as? [Any] ?? [] {
            let kind = ((raw["kind"] as? [String: Any])?["identifier"] as? String) ?? ""
            let precise = ((raw["identifier"] as? [String: Any])?["precise"] as? String) ?? ""
            let path = raw["pathComponents"] as? [String] ?? []
            let title = ((raw["names"] as? [String: Any])?["title"] as? String) ?? path.last ?? ""
            let fragments = raw["declarationFragments"] as? [[String: Any]] ?? []
            let declaration = fragments.compactMap { $0["spelling"] as? String }.joined()
            var introduced: Version?
            var unavailable = false
            for case let entry as [String: Any] in raw["availability"] as? [Any] ?? [] {
                guard let domain = entry["domain"] as? String, domain == "iOS" || domain == "*" else { continue }
                if domain == "iOS", let version = entry["introduced"] as? [String: Any] {
                    introduced = Version(major: version["major"] as? Int ?? 0, minor: version["minor"] as? Int ?? 0)
                }
                if entry["isUnconditionallyUnavailable"] as? Bool == true, domain == "iOS" { unavailable = true }
            }
            // The same declaration may be listed under several paths (NSObject's informal protocols under the
            // classes that inherit them): keep each path, find the declaration by its first.
            let pathKey = path.joined(separator: ".")
            if let known = byPrecise[precise], symbols[known].path == path { continue }
            if byPrecise[precise] == nil { byPrecise[precise] = symbols.count }
            _ = pathKey
            byPath[path.joined(separator: "."), default: []].append(symbols.count)
            symbols.append(
                Symbol(
                    module: module, precise: precise, kind: kind, path: path, title: title, declaration: declaration,
                    introduced: introduced, unavailable: unavailable))
        }
        for case let relation as [String: Any] in root["relationships"] as? [Any] ?? [] {
            guard let kind = relation["kind"] as? String, let source = relation["source"] as? String,
                let target = relation["target"] as? String
            else { continue }
            let fallback = relation["targetFallback"] as? String
            switch kind {
            case "memberOf", "optionalRequirementOf": parent[source] = target
            case "requirementOf":
                parent[source] = target
                requirements[target, default: []].append(source)
            case "conformsTo":
                let name = fallback.map { $0.split(separator: ".").last.map(String.init) ?? $0 } ?? target
                conformances[source, default: []].insert(name)
                conformances[source, default: []].insert(target)
            case "inheritsFrom": superclasses[source, default: []].append(target)
            case "defaultImplementationOf": defaulted.insert(target)
            default: break
            }
        }
    }

    /// The iOS version a declaration needs: its own or its enclosing declarations', whichever is newest.
    func effectiveIntroduced(_ symbol: Symbol) -> Version {
        var version = symbol.introduced ?? .zero
        var current = symbol.precise
        var seen = Set<String>()
        while let up = parent[current], !seen.contains(up) {
            seen.insert(up)
            if let index = byPrecise[up], let own = symbols[index].introduced { version = max(version, own) }
            current = up
        }
        // An extension member whose parent is not in this graph: its type may be, by path.
        if parent[symbol.precise] == nil, symbol.path.count > 1,
            let indexes = byPath[symbol.parentPath.joined(separator: ".")]
        {
            for index in indexes { if let own = symbols[index].introduced { version = max(version, own) } }
        }
        return version
    }
}

func loadGraphs(_ files: [String]) -> Graph {
    var graph = Graph()
    for file in files.sorted() {
        do { try graph.load(file) } catch {
            FileHandle.standardError.write(Data("apple-symbols: cannot read \(file): \(error)\n".utf8))
            exit(2)
        }
    }
    return graph
}

// MARK: - Availability table

let typeKinds: Set<String> = [
    "swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor",
    "swift.associatedtype",
]
let propertyKinds: Set<String> = [
    "swift.property", "swift.type.property", "swift.enum.case", "swift.var", "swift.class.property",
]
let functionKinds: Set<String> = [
    "swift.func", "swift.method", "swift.type.method", "swift.init", "swift.class.method", "swift.func.op",
]

/// `name(a:b:)` -> ("name", ["a", "b"]); `name` -> ("name", nil).
func splitTitle(_ title: String) -> (base: String, labels: [String]?) {
    guard let open = title.firstIndex(of: "("), title.hasSuffix(")") else { return (title, nil) }
    let inner = title[title.index(after: open)..<title.index(before: title.endIndex)]
    let labels = inner.split(separator: ":", omittingEmptySubsequences: false).dropLast().map(String.init)
    return (String(title[..<open]), labels)
}

/// Which parameters of a function declaration have a default value, in order, or nil when the parameter list
/// cannot be read.
func defaultedParameters(_ declaration: String, base: String, count: Int) -> [Bool]? {
    let characters = Array(declaration)
    let name = Array(base)
    var start: Int?
    var index = 0
    while index + name.count <= characters.count {
        if Array(characters[index..<index + name.count]) == name {
            var next = index + name.count
            if next < characters.count, characters[next] == "?" || characters[next] == "!" { next += 1 }
            if next < characters.count, characters[next] == "<" {
                var depth = 0
                while next < characters.count {
                    if characters[next] == "<" { depth += 1 }
                    if characters[next] == ">" && characters[next - 1] != "-" { depth -= 1 }
                    next += 1
                    if depth == 0 { break }
                }
            }
            if next < characters.count, characters[next] == "(" {
                start = next
                break
            }
        }
        index += 1
    }
    guard let open = start else { return nil }
    var flags: [Bool] = []
    var depth = 0
    var piece = ""
    index = open
    while index < characters.count {
        let character = characters[index]
        if "([<{".contains(character) { depth += 1 }
        if ")]}".contains(character) || (character == ">" && characters[index - 1] != "-") { depth -= 1 }
        if depth == 0 || (depth == 1 && character == ",") {
            if !piece.trimmingCharacters(in: .whitespaces).isEmpty { flags.append(piece.contains(" = ")) }
            piece = ""
            if depth == 0 { break }
        } else if index > open {
            piece.append(character)
        }
        index += 1
    }
    return flags.count == count ? flags : nil
}

/// Whether a parameter type is a collection's element type, which a string receiver's `Character` fills.
func isElementType(_ type: String) -> Bool {
    let bare = type.replacingOccurrences(of: "__owned ", with: "").trimmingCharacters(in: .whitespaces)
    return ["Self.Element", "Element", "Character", "Self.Iterator.Element"].contains(bare)
}

/// Writes every name the SDK's modules declare (types, members, functions by base name), one a line: what the
/// availability stand-in resolves a name of Apple-only code against, so that a name it cannot find (API newer than
/// this SDK, or a misspelling) fails instead of passing.
func writeNames(graph: Graph, sdkName: String, out: String) {
    var names = Set<String>()
    for symbol in graph.symbols where !symbol.unavailable {
        for component in symbol.path {
            let base = splitTitle(component).base
            if let first = base.first, first.isLetter || first == "_" { names.insert(base) }
        }
    }
    let header = """
        # Every name the Swift modules of \(sdkName) declare (types, members, functions by base name), for
        # scripts/checks/45-ios-availability.sh: a name of Apple-only code that is neither this code's own nor here fails.
        # Generated by `scripts/check-ios-sdk.sh --update-availability`; do not edit. Facts only (names).
        """
    do {
        try (header + "\n" + names.sorted().joined(separator: "\n") + "\n").write(
            toFile: out, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("apple-symbols: cannot write \(out): \(error)\n".utf8))
        exit(2)
    }
    print("apple-symbols: \(names.count) names written to \(out)")
}

func availabilityTable(graph: Graph, deployment: Version, sdkName: String, out: String) {
    var types: [String: (Version, String)] = [:]
    var properties: [String: (Version, String)] = [:]
    // Per owner: `name@Owner` -> the version that owner's declaration needs (for names older elsewhere).
    var ownedProperties: [String: (Version, String)] = [:]
    var functions: [String: [(key: String, version: Version, place: String)]] = [:]
    for symbol in graph.symbols where !symbol.unavailable {
        if symbol.path.contains(where: { $0.hasPrefix("_") }) { continue }
        let version = graph.effectiveIntroduced(symbol)
        let place = symbol.module
        if typeKinds.contains(symbol.kind) {
            let key = symbol.path.joined(separator: ".")
            if let known = types[key], known.0 <= version { continue }
            types[key] = (version, place)
        } else if propertyKinds.contains(symbol.kind) {
            let key = "." + symbol.name
            if !symbol.parentPath.isEmpty {
                let owned = key + "@" + symbol.parentPath.joined(separator: ".")
                if ownedProperties[owned].map({ $0.0 > version }) ?? true { ownedProperties[owned] = (version, place) }
            }
            if let known = properties[key], known.0 <= version { continue }
            properties[key] = (version, place)
        } else if functionKinds.contains(symbol.kind) {
            let (base, labels) = splitTitle(symbol.title)
            guard let labels, !base.isEmpty, base.first!.isLetter || base.first! == "_" else { continue }
            let owner = symbol.kind == "swift.init" ? (symbol.parentPath.last ?? "") : base
            if owner.isEmpty { continue }
            // A defaulted parameter's label is written `label=:`, so that a call may leave it out.
            let defaults =
                defaultedParameters(
                    symbol.declaration, base: symbol.kind == "swift.init" ? "init" : base, count: labels.count)
                ?? Array(repeating: false, count: labels.count)
            // A parameter of the element type (`Self.Element`, `Element`, `Character`) is written `label#:`: a call
            // whose argument there is a string literal of several characters cannot mean this overload (the checker
            // tells `split(separator: ",")`, Swift 5's, from `split(separator: ", ")`, iOS 16's, by it).
            let types = Declaration(symbol.declaration).parameters.map(\.type)
            let elements = types.count == labels.count ? types.map(isElementType) : labels.map { _ in false }
            let key =
                owner + "("
                + zip(zip(labels, defaults), elements).map { $0.0 + ($0.1 ? "=" : "") + ($1 ? "#" : "") + ":" }.joined()
                + ")"
            functions[owner, default: []].append((key, version, place))
        }
    }
    var lines: [String] = []
    for (key, value) in types where value.0 > deployment { lines.append("\(key)\t\(value.0)\t\(value.1)") }
    for (key, value) in properties where value.0 > deployment { lines.append("\(key)\t\(value.0)\t\(value.1)") }
    // A property newer on one type than the deployment target whose name an older declaration has too
    // (`UIWindowScene.keyWindow`, iOS 15, beside `UIApplication.keyWindow`): listed per owner as `.name@Owner`, so that
    // the checker resolves the receiver's type (or fails when it cannot).
    // Only names whose older declarations are all in Apple-only frameworks (code Linux compiles never has a receiver
    // of those types); the older owners are listed too, with version 0, so that a receiver resolved to one passes.
    let appleOnlyModules: Set<String> = [
        "UIKit", "SwiftUI", "QuartzCore", "CoreGraphics", "Combine", "CoreLocation", "BackgroundTasks",
        "AuthenticationServices", "Security",
    ]
    var byName: [String: [(key: String, version: Version, place: String)]] = [:]
    for (key, value) in ownedProperties {
        byName[String(key[..<key.firstIndex(of: "@")!]), default: []].append((key, value.0, value.1))
    }
    for (name, owners) in byName {
        let older = owners.filter { $0.version <= deployment }
        guard owners.contains(where: { $0.version > deployment }), !older.isEmpty,
            older.allSatisfy({ appleOnlyModules.contains($0.place) }),
            properties[name].map({ $0.0 <= deployment }) ?? false
        else { continue }
        for owner in owners {
            lines.append(
                "\(owner.key)\t\(owner.version > deployment ? owner.version.description : "0")\t\(owner.place)")
        }
    }
    for (_, overloads) in functions where overloads.contains(where: { $0.version > deployment }) {
        var best: [String: (Version, String)] = [:]
        for overload in overloads {
            if let known = best[overload.key], known.0 <= overload.version { continue }
            best[overload.key] = (overload.version, overload.place)
        }
        for (key, value) in best {
            lines.append("\(key)\t\(value.0 > deployment ? value.0.description : "0")\t\(value.1)")
        }
    }
    lines.sort()
    let header = """
        # The Apple API newer than iOS \(deployment), from \(sdkName), for scripts/checks/45-ios-availability.sh.
        # Generated by `scripts/check-ios-sdk.sh --update-availability`; do not edit. Facts only (names, versions).
        # KEY<TAB>iOS version (0: an older overload of a listed function)<TAB>the module of one declaration
        # (`.name@Owner`: a property of Owner, whose name is newer on some types and older (0) on others)
        # (in a function's key, `label=:` marks a parameter with a default value, `label#:` one of the element type)
        """
    let text = header + "\n" + lines.joined(separator: "\n") + "\n"
    do { try text.write(toFile: out, atomically: true, encoding: .utf8) } catch {
        FileHandle.standardError.write(Data("apple-symbols: cannot write \(out): \(error)\n".utf8))
        exit(2)
    }
    print("apple-symbols: \(lines.count) lines written to \(out)")
}

// MARK: - Stubs

/// Differences between a stub and the SDK that are known and harmless, by the stub's path (`Type.member(labels:)`),
/// each with its reason. Nothing else may differ.
let allowed: [String: String] = [
    "CFString": "Linux has no CoreFoundation: the Security stub names CFString after its toll-free bridged NSString",
    "CFDictionary": "Linux has no CoreFoundation: the stub names CFDictionary after its toll-free bridged NSDictionary",
    "CFTypeRef": "Linux has no CoreFoundation: the stub declares CFTypeRef as AnyObject, as Swift imports it",
    "OSStatus": "declared by MacTypes in Apple's SDK (Int32), which Linux lacks",
    "ViewBuilder.buildBlock(_:)":
        "Xcode 15 and later declare it with a parameter pack (`buildBlock<each Content>`); this SDK spells it as ten overloads",
    "ShapeStyle": "ShapeStyle is Sendable since the iOS 17 SDK (Xcode 15); this SDK predates that",
    "UIViewRepresentable.makeCoordinator()":
        "the stub's is the default implementation for `Coordinator == Void`, which returns Void as Apple's does",
]

/// One parsed declaration: what a caller sees.
struct Declaration {
    var attributes: [String] = []
    var keyword = ""
    var isStatic = false
    var name = ""
    var generics: [String] = []
    var parameters: [(label: String, type: String, defaulted: Bool)] = []
    var result = ""
    var throwsErrors = false
    var isAsync = false
    var settable = false
    var inheritance: [String] = []
    var isNonisolated = false

    init(_ text: String) {
        var tokens = Declaration.words(text)
        // Leading attributes and modifiers.
        while let first = tokens.first {
            if first.hasPrefix("@") {
                attributes.append(first)
                tokens.removeFirst()
            } else if [
                "static", "class", "final", "override", "open", "public", "required", "convenience", "dynamic",
                "optional", "mutating", "nonmutating", "weak", "unowned", "lazy", "indirect", "nonisolated", "prefix",
                "postfix", "infix", "consuming", "borrowing",
            ].contains(first)
                && tokens.count > 1
                && !["class", "struct", "enum", "protocol"].contains(where: {
                    first == $0 && Declaration.isTypeKeyword(tokens, first)
                })
            {
                if first == "static" || first == "class" { isStatic = true }
                if first == "nonisolated" { isNonisolated = true }
                tokens.removeFirst()
            } else {
                break
            }
        }
        keyword = tokens.first ?? ""
        let rest = tokens.dropFirst().joined(separator: " ")
        switch keyword {
        case "func", "init", "subscript":
            parseFunction(keyword == "func" ? rest : keyword + rest)
        case "var", "let":
            let colon = Declaration.topLevel(rest, ":")
            name = colon.map { String(rest[..<$0]).trimmingCharacters(in: .whitespaces) } ?? rest
            var type = colon.map { String(rest[rest.index(after: $0)...]) } ?? ""
            if let brace = type.range(of: "{") {
                settable = type[brace.lowerBound...].contains("set")
                type = String(type[..<brace.lowerBound])
            } else if let equals = type.range(of: " = ") {
                settable = keyword == "var"
                type = String(type[..<equals.lowerBound])
            } else {
                settable = keyword == "var"
            }
            result = Declaration.normalize(type)
        case "class", "struct", "enum", "protocol", "actor", "typealias", "associatedtype", "case":
            var head = rest
            if let whereRange = head.range(of: " where ") { head = String(head[..<whereRange.lowerBound]) }
            if let colon = Declaration.topLevel(head, ":") {
                inheritance = head[head.index(after: colon)...].split(separator: ",").map {
                    Declaration.normalize(String($0))
                }
                head = String(head[..<colon])
            }
            if let equals = head.range(of: " = ") {
                result = Declaration.normalize(String(head[equals.upperBound...]))
                head = String(head[..<equals.lowerBound])
            }
            if let open = head.firstIndex(of: "<") {
                generics = head[head.index(after: open)...].dropLast().split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                head = String(head[..<open])
            }
            if keyword == "case", let open = head.firstIndex(of: "(") {
                parseFunction(head)
                head = String(head[..<open])
            }
            name = head.trimmingCharacters(in: .whitespaces)
        default:
            name = rest
        }
    }

    static func isTypeKeyword(_ tokens: [String], _ word: String) -> Bool {
        // `class func` is a modifier; `class Name` declares a type.
        guard word == "class", tokens.count > 1 else { return word != "class" }
        return !["func", "var", "let", "subscript"].contains(tokens[1])
    }

    mutating func parseFunction(_ text: String) {
        guard let open = Declaration.firstParameterList(text) else {
            name = text
            return
        }
        var head = String(text[..<open])
        if let angle = head.firstIndex(of: "<") {
            generics = head[head.index(after: angle)...].dropLast().split(separator: ",").map {
                String($0.split(separator: ":").first ?? "").trimmingCharacters(in: .whitespaces)
            }
            head = String(head[..<angle])
        }
        name = head.trimmingCharacters(in: .whitespaces)
        let close = Declaration.matchingParen(text, open)
        let inner = String(text[text.index(after: open)..<close])
        for piece in Declaration.split(inner) {
            guard let colon = Declaration.topLevel(piece, ":") else { continue }
            let names = piece[..<colon].split(separator: " ").map(String.init).filter { !$0.hasPrefix("@") }
            var type = String(piece[piece.index(after: colon)...])
            var defaulted = false
            if let equals = Declaration.topLevel(type, "=") {
                defaulted = true
                type = String(type[..<equals])
            }
            let label = names.first ?? "_"
            parameters.append((label, Declaration.normalize(type), defaulted))
        }
        var tail = String(text[text.index(after: close)...])
        if let whereRange = tail.range(of: " where ") { tail = String(tail[..<whereRange.lowerBound]) }
        if let brace = tail.range(of: "{") {
            settable = tail[brace.lowerBound...].contains("set")
            tail = String(tail[..<brace.lowerBound])
        }
        isAsync = tail.contains("async")
        throwsErrors = tail.contains("throws") || tail.contains("rethrows")
        if let arrow = tail.range(of: "->") { result = Declaration.normalize(String(tail[arrow.upperBound...])) }
    }

    /// Splits on spaces outside brackets, keeping attributes with their arguments (`@isolated(any)`).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if "(<[".contains(character) { depth += 1 }
            if ")>]".contains(character) { depth -= 1 }
            if (character == " " || character == "\n") && depth == 0 {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func firstParameterList(_ text: String) -> String.Index? {
        var depth = 0
        for index in text.indices {
            let character = text[index]
            if character == "<" { depth += 1 }
            if character == ">" && index > text.startIndex && text[text.index(before: index)] != "-" { depth -= 1 }
            if character == "(" && depth == 0 { return index }
        }
        return nil
    }

    static func matchingParen(_ text: String, _ open: String.Index) -> String.Index {
        var depth = 0
        var index = open
        while index < text.endIndex {
            if text[index] == "(" { depth += 1 }
            if text[index] == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
            index = text.index(after: index)
        }
        return text.index(before: text.endIndex)
    }

    /// The first `character` outside brackets.
    static func topLevel(_ text: String, _ character: Character) -> String.Index? {
        var depth = 0
        var previous: Character = " "
        for index in text.indices {
            let current = text[index]
            if "([{<".contains(current) { depth += 1 }
            if ")]}".contains(current) || (current == ">" && previous != "-") { depth -= 1 }
            if current == character && depth == 0 { return index }
            previous = current
        }
        return nil
    }

    static func split(_ text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var depth = 0
        var previous: Character = " "
        for character in text {
            if "([{<".contains(character) { depth += 1 }
            if ")]}".contains(character) || (character == ">" && previous != "-") { depth -= 1 }
            if character == "," && depth == 0 {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { pieces.append(current) }
        return pieces
    }

    static let modulePrefixes = [
        "Swift.", "Foundation.", "SwiftUI.", "UIKit.", "CoreGraphics.", "ObjectiveC.", "Combine.", "CoreLocation.",
        "QuartzCore.", "Security.", "AuthenticationServices.", "BackgroundTasks.", "_Concurrency.", "Dispatch.",
    ]

    /// A type as text, without what does not change it for a caller: spaces, module names, `any`, `Self.`.
    static func normalize(_ type: String) -> String {
        var text = type
        for prefix in modulePrefixes { text = text.replacingOccurrences(of: prefix, with: "") }
        text = text.replacingOccurrences(of: "any ", with: "")
        text = text.replacingOccurrences(of: "Self.", with: "")
        text = text.replacingOccurrences(of: "inout ", with: "inout#")
        text = text.replacingOccurrences(of: "@ViewBuilder ", with: "")
        text = text.replacingOccurrences(of: "@SceneBuilder ", with: "")
        text = text.replacingOccurrences(of: "@_implicitSelfCapture ", with: "")
        text = text.replacingOccurrences(of: "@_inheritActorContext ", with: "")
        text = text.filter { $0 != " " && $0 != "\n" }
        text = text.replacingOccurrences(of: "->()", with: "->Void")
        text = text.replacingOccurrences(of: "inout#", with: "inout ")
        return text
    }

    /// Attributes that make a closure type stricter for the caller, removed for comparing the shapes of types.
    static let strictness = ["@Sendable", "@MainActor", "@isolated(any)", "@escaping", "sending"]
    static func shape(_ type: String) -> String {
        var text = type
        for word in strictness { text = text.replacingOccurrences(of: word, with: "") }
        return text.replacingOccurrences(of: "@preconcurrency", with: "")
    }
    static func count(_ word: String, in type: String) -> Int { type.components(separatedBy: word).count - 1 }
}

/// Renames the generic parameters of `type` from one declaration's names to another's, position by position.
func renamed(_ type: String, from: [String], to: [String]) -> String {
    guard from != to, from.count == to.count else { return type }
    var text = type
    for (index, name) in from.enumerated() where !name.isEmpty {
        text = text.replacingOccurrences(of: name, with: "#\(index)#")
    }
    for (index, name) in to.enumerated() { text = text.replacingOccurrences(of: "#\(index)#", with: name) }
    return text
}

func compareStubs(sdkDirectory: String, stubDirectory: String, modules: [String]) -> Bool {
    func files(_ directory: String) -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".symbols.json") }.map { directory + "/" + $0 }
    }
    let sdk = loadGraphs(files(sdkDirectory))
    let stubs = loadGraphs(
        files(stubDirectory).filter { file in
            modules.contains { file.hasSuffix("/\($0).symbols.json") || file.contains("/\($0)@") }
        })
    var byParentAndBase: [String: [Int]] = [:]
    for (index, symbol) in sdk.symbols.enumerated() {
        let base = splitTitle(symbol.name).base
        byParentAndBase[symbol.parentPath.joined(separator: ".") + "|" + base, default: []].append(index)
    }
    let mainActor = "@MainActor"

    /// Whether a symbol of `graph` is isolated to the main actor, by itself or through its enclosing types.
    func isMainActor(_ graph: Graph, _ symbol: Symbol) -> Bool {
        let own = Declaration(symbol.declaration)
        if own.isNonisolated { return false }
        if own.attributes.contains(mainActor) { return true }
        var path = symbol.parentPath
        while !path.isEmpty {
            for index in graph.byPath[path.joined(separator: ".")] ?? []
            where typeKinds.contains(graph.symbols[index].kind) {
                if Declaration(graph.symbols[index].declaration).attributes.contains(mainActor) { return true }
            }
            path.removeLast()
        }
        return false
    }

    /// The SDK symbols a stub symbol may stand for: same parent and base name, or the same in a superclass or a
    /// protocol the parent conforms to (Apple's graph lists inherited members only on the declaring type).
    func candidates(for symbol: Symbol) -> [Symbol] {
        let base = splitTitle(symbol.name).base
        var parents = [symbol.parentPath.joined(separator: ".")]
        var seen = Set<String>()
        var result: [Symbol] = []
        while let parent = parents.first {
            parents.removeFirst()
            guard seen.insert(parent).inserted else { continue }
            result += (byParentAndBase[parent + "|" + base] ?? []).map { sdk.symbols[$0] }.filter {
                typeKinds.contains($0.kind) == typeKinds.contains(symbol.kind)
            }
            for index in sdk.byPath[parent] ?? [] {
                let precise = sdk.symbols[index].precise
                for superclass in sdk.superclasses[precise] ?? [] {
                    if let found = sdk.byPrecise[superclass] {
                        parents.append(sdk.symbols[found].path.joined(separator: "."))
                    }
                }
                for conformance in sdk.conformances[precise] ?? [] {
                    if let found = sdk.byPrecise[conformance] {
                        parents.append(sdk.symbols[found].path.joined(separator: "."))
                    } else {
                        parents.append(conformance)
                    }
                }
            }
        }
        // NSObject's informal protocols (accessibility, Interface Builder) extend every UIKit class.
        if result.isEmpty && !symbol.parentPath.isEmpty {
            result = (byParentAndBase["NSObject|" + base] ?? []).map { sdk.symbols[$0] }
        }
        return result
    }

    /// Value types Swift makes Sendable without a declared conformance: imported C structs and enums (their
    /// precise ids start with `c:`), and frozen enums and structs whose declaration Apple prints as `@frozen`.
    func implicitlySendable(_ symbol: Symbol) -> Bool {
        guard ["swift.struct", "swift.enum"].contains(symbol.kind) else { return false }
        return symbol.precise.hasPrefix("c:") || symbol.declaration.hasPrefix("@frozen")
    }

    /// Why `stub` is more permissive than `apple`, or nil when it is not.
    func problem(_ stub: Symbol, _ apple: Symbol) -> String? {
        let mine = Declaration(stub.declaration)
        let theirs = Declaration(apple.declaration)
        // Constants (`let`, ObjC globals imported as `class let`) are read from any isolation.
        if isMainActor(sdk, apple) && !isMainActor(stubs, stub) && theirs.keyword != "let" {
            return "Apple's is @MainActor, the stub's is not"
        }
        let owner = (stub.parentPath.last ?? "") + "."
        func local(_ type: String) -> String { owner == "." ? type : type.replacingOccurrences(of: owner, with: "") }
        if typeKinds.contains(stub.kind) {
            if mine.generics.count != theirs.generics.count && stub.kind != "swift.typealias" {
                return "generic parameters \(mine.generics) vs Apple's \(theirs.generics)"
            }
            // Sendable is what a stub must not add: a Sendable stub hides every data-race diagnostic of its values.
            let stubSendable =
                (stubs.conformances[stub.precise] ?? []).contains("Sendable")
                || mine.inheritance.contains("Sendable")
            let appleSendable =
                (sdk.conformances[apple.precise] ?? []).contains("Sendable")
                || theirs.inheritance.contains("Sendable") || implicitlySendable(apple)
            // A main-actor type is Sendable by its isolation, which is no weaker than Apple's.
            if stubSendable && !appleSendable && !isMainActor(stubs, stub) {
                return "conforms to Sendable, which Apple's does not"
            }
            return nil
        }
        if mine.keyword == "var" || mine.keyword == "let" {
            if Declaration.shape(local(mine.result)) != Declaration.shape(local(theirs.result)) {
                return "type \(mine.result) vs Apple's \(theirs.result)"
            }
            if mine.settable && !theirs.settable { return "settable, Apple's is read-only" }
            if mine.isStatic != theirs.isStatic { return "static \(mine.isStatic) vs Apple's \(theirs.isStatic)" }
            return nil
        }
        // Functions, initializers, subscripts and enum cases with payloads.
        var next = 0
        for parameter in theirs.parameters {
            if next < mine.parameters.count, mine.parameters[next].label == parameter.label {
                let ours = local(renamed(mine.parameters[next].type, from: mine.generics, to: theirs.generics))
                let apples = local(parameter.type)
                // A concrete stub type where Apple's takes any type of a generic parameter is stricter.
                let generic = theirs.generics.contains(Declaration.shape(apples))
                if !generic, Declaration.shape(ours) != Declaration.shape(apples) {
                    if parameter.defaulted { continue }  // the stub's parameter may be a later one of Apple's
                    return "parameter \(parameter.label): \(mine.parameters[next].type) vs Apple's \(parameter.type)"
                }
                for word in Declaration.strictness
                where Declaration.count(word, in: parameter.type) > Declaration.count(word, in: ours) {
                    return "parameter \(parameter.label) lacks Apple's \(word)"
                }
                if mine.parameters[next].defaulted && !parameter.defaulted {
                    return "parameter \(parameter.label) has a default, Apple's has none"
                }
                next += 1
            } else if !parameter.defaulted {
                return "lacks Apple's parameter \(parameter.label)"
            }
        }
        if next != mine.parameters.count {
            return "parameters \(mine.parameters.map(\.label)) do not fit Apple's \(theirs.parameters.map(\.label))"
        }
        let result = local(renamed(mine.result, from: mine.generics, to: theirs.generics))
        if !result.hasPrefix("some"), Declaration.shape(result) != Declaration.shape(local(theirs.result)) {
            return "returns \(mine.result), Apple's \(theirs.result)"
        }
        if theirs.throwsErrors && !mine.throwsErrors { return "does not throw, Apple's does" }
        if theirs.isAsync && !mine.isAsync { return "is not async, Apple's is" }
        if mine.isStatic != theirs.isStatic { return "static \(mine.isStatic) vs Apple's \(theirs.isStatic)" }
        if mine.settable && !theirs.settable { return "settable, Apple's is read-only" }
        return nil
    }

    var compared = 0
    var failures: [String] = []
    var allowedUses: [String: String] = [:]
    for symbol in stubs.symbols {
        if symbol.path.contains(where: { $0.hasPrefix("_") }) { continue }
        let key = symbol.path.joined(separator: ".")
        let base = splitTitle(symbol.name).base
        // A raw value and its initializer come with RawRepresentable, which the type's conformance covers.
        if base == "rawValue" || (symbol.kind == "swift.init" && symbol.name == "init(rawValue:)") { continue }
        // A primitive view's `body` is SwiftUI's own (`Never` or an internal type); no app calls it.
        if base == "body", let type = Optional(Declaration(symbol.declaration).result),
            type == "Never" || type.hasPrefix("_Modified")
        {
            allowedUses["(every primitive view).body"] =
                "a primitive view's body is SwiftUI's own (Never or an internal type) and no app calls it"
            continue
        }
        compared += 1
        let found = candidates(for: symbol)
        var reasons: [String] = []
        if found.isEmpty {
            // `init()` of an NSObject subclass is NSObject's.
            if symbol.name == "init()" { continue }
            reasons.append("Apple's SDK has no such declaration")
        } else if found.contains(where: { problem(symbol, $0) == nil }) {
            continue
        } else {
            reasons = found.compactMap { problem(symbol, $0) }
        }
        if let why = allowed[key] {
            allowedUses[key] = why
            continue
        }
        failures.append(
            "  \(symbol.module).\(key): \(reasons.first ?? "?")\n      stub:  \(symbol.declaration)"
                + (found.first.map { "\n      Apple: \($0.declaration)" } ?? ""))
    }
    // What a stub leaves out can be more permissive too: a protocol requirement the stub lacks lets a conformer compile
    // here that does not compile on iOS, and so does a subclass without one of Apple's `required` initializers.
    let obligations = appleObligations(sdk: sdk, stubs: stubs)
    for obligation in obligations where !obligation.present {
        if let why = allowedObligations[obligation.owner + "." + obligation.title] {
            allowedUses[obligation.owner + "." + obligation.title] = why
            continue
        }
        failures.append(
            "  \(obligation.module).\(obligation.owner): lacks Apple's \(obligation.kind) \(obligation.title)"
                + "\n      Apple: \(obligation.declaration)")
    }
    for (key, why) in allowedUses.sorted(by: { $0.key < $1.key }) { print("  allowed: \(key): \(why)") }
    // An allowance nothing needs any more is removed, so that the list stays the list of real differences.
    for key in allowed.keys.sorted() where allowedUses[key] == nil && stubs.byPath[key] != nil {
        failures.append("  allowance no longer needed (remove it from `allowed`): \(key)")
    }
    for failure in failures { print(failure) }
    print(
        "stubs: \(compared) declarations of \(modules.joined(separator: ", ")) compared with the SDK, \(obligations.count) protocol requirements and required initializers of the stubbed types checked, \(failures.count) more permissive than Apple's, \(allowedUses.count) allowed"
    )
    return failures.isEmpty
}

// MARK: - Protocol requirements and required initializers

struct Obligation {
    let module: String
    /// The stubbed protocol or class, by path.
    let owner: String
    /// "requirement" or "required initializer"
    let kind: String
    /// `presentationAnchor(for:)`
    let title: String
    let declaration: String
    let present: Bool
}

/// Requirements the stubs leave out on purpose, each with its reason (reported as allowed, not written to the table).
let allowedObligations: [String: String] = [
    "Publisher.receive(subscriber:)":
        "the Combine stub has no Subscriber; the SDK declares no Publisher of its own (it uses ObservableObjectPublisher)"
]

/// Apple's requirements of every protocol the stubs declare, and Apple's `required` initializers of every class they
/// declare, each with whether the stub declares it (by name and argument labels).
func appleObligations(sdk: Graph, stubs: Graph) -> [Obligation] {
    var result: [Obligation] = []
    for stub in stubs.symbols where stub.kind == "swift.protocol" || stub.kind == "swift.class" {
        let path = stub.path.joined(separator: ".")
        guard let appleIndex = (sdk.byPath[path] ?? []).first(where: { sdk.symbols[$0].kind == stub.kind }) else {
            continue
        }
        let apple = sdk.symbols[appleIndex]
        var wanted: [(kind: String, symbol: Symbol)] = []
        if stub.kind == "swift.protocol" {
            for precise in sdk.requirements[apple.precise] ?? [] {
                guard let index = sdk.byPrecise[precise] else { continue }
                let symbol = sdk.symbols[index]
                if symbol.unavailable || symbol.name.hasPrefix("_") || sdk.defaulted.contains(precise) { continue }
                if symbol.kind == "swift.associatedtype" { continue }
                wanted.append(("requirement", symbol))
            }
        } else {
            for index in sdk.symbols.indices where sdk.parent[sdk.symbols[index].precise] == apple.precise {
                let symbol = sdk.symbols[index]
                if symbol.kind == "swift.init", !symbol.unavailable,
                    Declaration.words(symbol.declaration).contains("required")
                {
                    wanted.append(("required initializer", symbol))
                }
            }
        }
        for (kind, symbol) in wanted {
            let present = (stubs.byPath[path + "." + symbol.name] ?? []).contains {
                stubs.symbols[$0].kind == symbol.kind
                    || symbol.kind.hasSuffix("property") == stubs.symbols[$0].kind.hasSuffix("property")
            }
            result.append(
                Obligation(
                    module: apple.module, owner: path, kind: kind, title: symbol.name,
                    declaration: symbol.declaration, present: present))
        }
    }
    return result.sorted { ($0.owner, $0.title) < ($1.owner, $1.title) }
}

/// Writes the obligations (what scripts/check-apple.sh checks the stubs against without the SDK).
func writeObligations(_ obligations: [Obligation], sdkName: String, out: String) {
    let header = """
        # Apple's requirements of each protocol Tests/AppleStubs declares, and Apple's `required` initializers of each
        # class it declares, from \(sdkName): a stub must declare every one (a missing one lets code compile on Linux
        # that fails on iOS). Generated by `scripts/check-ios-sdk.sh --update-availability`; do not edit. Facts only.
        # MODULE<TAB>PROTOCOL OR CLASS<TAB>requirement | required initializer<TAB>NAME(LABELS:)
        """
    let lines = obligations.filter { allowedObligations[$0.owner + "." + $0.title] == nil }
        .map { "\($0.module)\t\($0.owner)\t\($0.kind)\t\($0.title)" }
    do {
        try (header + "\n" + lines.joined(separator: "\n") + "\n").write(toFile: out, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("apple-symbols: cannot write \(out): \(error)\n".utf8))
        exit(2)
    }
    print("apple-symbols: \(lines.count) obligations written to \(out)")
}

/// The members each protocol and class of the stub sources declares directly, as `Owner -> [name(labels:)]`, read
/// from the text (no SDK, no compiler): what `obligations` checks the committed table against on Linux.
func stubMembers(files: [String]) -> [String: Set<String>] {
    var members: [String: Set<String>] = [:]
    let modifierWords: Set<String> = [
        "public", "open", "final", "static", "class", "override", "required", "convenience", "nonisolated",
        "mutating", "optional", "dynamic", "weak", "lazy", "internal", "private", "fileprivate", "package",
    ]
    for file in files {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
        var owners: [(name: String, depth: Int)] = []
        var depth = 0
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { raw -> String in
            var line = String(raw)
            if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
            return line
        }
        for (number, line) in lines.enumerated() {
            // A declaration whose parameter list goes on over the next lines: read it whole.
            var whole = line
            var next = number + 1
            while whole.filter({ $0 == "(" }).count > whole.filter({ $0 == ")" }).count, next < lines.count {
                whole += " " + lines[next]
                next += 1
            }
            var words = whole.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            // Attributes (`@MainActor`, `@available(...)`) and modifiers before the keyword.
            while let first = words.first, first.hasPrefix("@") || modifierWords.contains(first) {
                if first == "class", words.count > 1, !["func", "var", "let", "subscript"].contains(words[1]) { break }
                words.removeFirst()
            }
            let declaration = words.joined(separator: " ")
            if let owner = owners.last, depth == owner.depth {
                if let keyword = words.first,
                    ["func", "var", "let", "subscript", "case"].contains(keyword)
                        || keyword.hasPrefix("init")
                {
                    var title: String
                    if keyword == "var" || keyword == "let" || keyword == "case" {
                        title =
                            words.count > 1 ? String(words[1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }) : ""
                    } else if declaration.filter({ $0 == "(" }).count != declaration.filter({ $0 == ")" }).count {
                        title = ""
                    } else {
                        // Up to the parameter list's end (no body, no result); `init?(...)` read as a function.
                        var head = declaration
                        if let open = head.firstIndex(of: "(") {
                            head = String(head[...Declaration.matchingParen(head, open)])
                        }
                        if keyword.hasPrefix("init") {
                            head = "func init" + head.drop { $0 != "(" }
                        }
                        let parsed = Declaration(head)
                        let base = keyword == "func" ? parsed.name : keyword == "subscript" ? "subscript" : "init"
                        title = base + "(" + parsed.parameters.map { $0.label + ":" }.joined() + ")"
                    }
                    members[owner.name, default: []].insert(title)
                }
            }
            if let keyword = words.first, ["protocol", "class", "struct", "enum", "extension"].contains(keyword),
                words.count > 1
            {
                let name = String(words[1].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
                if line.contains("{") { owners.append((name, depth + 1)) }
            }
            for character in line {
                if character == "{" { depth += 1 }
                if character == "}" {
                    depth -= 1
                    while let owner = owners.last, owner.depth > depth { owners.removeLast() }
                }
            }
        }
    }
    return members
}

// MARK: - Main

@main
enum AppleSymbolsTool {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
            let value = arguments[index + 1]
            arguments.removeSubrange(index...index + 1)
            return value
        }
        guard let command = arguments.first else {
            FileHandle.standardError.write(Data("usage: apple-symbols availability|stubs ...\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        switch command {
        case "availability":
            guard let deployment = option("--deployment").flatMap(Version.init), let out = option("--out") else {
                FileHandle.standardError.write(
                    Data("apple-symbols availability: --deployment and --out are required\n".utf8))
                exit(2)
            }
            let sdkName = option("--sdk") ?? "the iOS SDK"
            let namesOut = option("--names-out")
            let graph = loadGraphs(arguments)
            availabilityTable(graph: graph, deployment: deployment, sdkName: sdkName, out: out)
            if let namesOut { writeNames(graph: graph, sdkName: sdkName, out: namesOut) }
        case "stubs":
            guard let sdkDirectory = option("--sdk"), let stubDirectory = option("--stubs") else {
                FileHandle.standardError.write(Data("apple-symbols stubs: --sdk and --stubs are required\n".utf8))
                exit(2)
            }
            let obligationsOut = option("--obligations-out")
            let sdkName = option("--sdk-name") ?? "the iOS SDK"
            let ok = compareStubs(sdkDirectory: sdkDirectory, stubDirectory: stubDirectory, modules: arguments)
            if let obligationsOut {
                func files(_ directory: String) -> [String] {
                    (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? [])
                        .filter { $0.hasSuffix(".symbols.json") }.map { directory + "/" + $0 }
                }
                let obligations = appleObligations(
                    sdk: loadGraphs(files(sdkDirectory)), stubs: loadGraphs(files(stubDirectory)))
                writeObligations(obligations, sdkName: sdkName, out: obligationsOut)
            }
            exit(ok ? 0 : 1)
        case "obligations":
            // apple-symbols obligations --table TABLE STUB.swift...: every line of TABLE declared by the stubs.
            guard let tablePath = option("--table"), let table = try? String(contentsOfFile: tablePath, encoding: .utf8)
            else {
                FileHandle.standardError.write(Data("apple-symbols obligations: --table TABLE is required\n".utf8))
                exit(2)
            }
            let members = stubMembers(files: arguments)
            var checked = 0
            var missing = 0
            for line in table.split(separator: "\n") where !line.hasPrefix("#") {
                let columns = line.split(separator: "\t").map(String.init)
                guard columns.count == 4 else { continue }
                checked += 1
                // An extension of the type in the stubs counts as well (members are keyed by the bare type name).
                let owner = columns[1]
                if members[owner]?.contains(columns[3]) == true { continue }
                missing += 1
                print("  \(columns[0]).\(owner): the stub lacks Apple's \(columns[2]) \(columns[3])")
            }
            print(
                "stubs: \(checked) protocol requirements and required initializers of Apple's (\(tablePath)) checked"
                    + " in the stubs, \(missing) missing")
            exit(missing == 0 ? 0 : 1)
        default:
            FileHandle.standardError.write(Data("apple-symbols: unknown command \(command)\n".utf8))
            exit(2)
        }
    }
}
