// Checks the SDK's privacy manifests against what its library targets do (scripts/checks/45-privacy.sh runs it).
//
// For every library target of the package (from `swift package dump-package`):
//   - scans its Swift sources, comments and string literals left out, for Apple's required-reason APIs
//     (scripts/privacy/required-reason-apis.tsv) and, with --objects, the undefined symbols and Objective-C selectors
//     of its compiled iOS object (DIR/<target>.nm from `llvm-nm -u`, DIR/<target>.selectors);
//   - reads its Sources/<target>/PrivacyInfo.xcprivacy, if any, and checks it against the schema of Apple's keys:
//     only the four top-level keys, each of its type, data types and purposes from scripts/privacy/collected-data.tsv,
//     reason codes valid for their category (scripts/privacy/reasons.tsv), no duplicate keys or entries;
//   - fails when a target uses a category its manifest does not declare, declares one that nothing uses, ships a
//     manifest that is not in its `resources:`, or disagrees with scripts/privacy/targets.tsv.
// A source line that names an API for another reason (a property of your own called `creationDate`) is left out
// with a comment holding `privacy-scan: ignore` and the reason; such lines are listed in the report.
//
// Usage: privacy-check ROOT PACKAGE_JSON [--objects DIR]. Prints the report; exits 1 when something fails.
//        privacy-check --targets PACKAGE_JSON prints the library targets in dependency order (for scan-objects.sh).
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

// MARK: - Data files

/// The rows of a tab-separated file under scripts/privacy, without `#` comments and the header row.
func tsvRows(_ url: URL, columns: Int) throws -> [[String]] {
    let text = try String(contentsOf: url, encoding: .utf8)
    var rows: [[String]] = []
    var sawHeader = false
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        if line.hasPrefix("#") || line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == columns else {
            throw CheckError("\(url.lastPathComponent):\(index + 1): \(fields.count) columns, expected \(columns)")
        }
        if !sawHeader {
            sawHeader = true
            continue
        }
        rows.append(fields)
    }
    return rows
}

struct CheckError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum SourcePattern: Hashable {
    case identifier(String)
    case member(String)
    case call(String)

    init(_ text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { throw CheckError("bad source pattern \(text)") }
        switch parts[0] {
        case "id": self = .identifier(parts[1])
        case "member": self = .member(parts[1])
        case "call": self = .call(parts[1])
        default: throw CheckError("bad source pattern \(text)")
        }
    }

    var name: String {
        switch self {
        case .identifier(let name), .member(let name), .call(let name): return name
        }
    }
}

enum ObjectPattern: Hashable {
    case symbol(String)
    case selector(String)

    init(_ text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { throw CheckError("bad object pattern \(text)") }
        switch parts[0] {
        case "sym": self = .symbol(parts[1])
        case "sel": self = .selector(parts[1])
        default: throw CheckError("bad object pattern \(text)")
        }
    }
}

struct RequiredReasonAPI {
    let category: String
    let api: String
    let source: [SourcePattern]
    let object: [ObjectPattern]
}

struct Catalog {
    let apis: [RequiredReasonAPI]
    /// Reason codes by category.
    let reasons: [String: Set<String>]
    let dataTypes: Set<String>
    let purposes: Set<String>
    /// target -> (ships a manifest, why).
    let decisions: [String: (manifest: Bool, why: String)]
    /// The example apps: name, sources folder and manifest path, relative to the repository.
    let apps: [(name: String, sources: String, manifest: String)]

    init(directory: URL) throws {
        apis = try tsvRows(directory.appendingPathComponent("required-reason-apis.tsv"), columns: 5).map { row in
            RequiredReasonAPI(
                category: row[0], api: row[1],
                source: try row[2].split(separator: ",").map { try SourcePattern(String($0)) },
                object: try row[3].split(separator: ",").map { try ObjectPattern(String($0)) })
        }
        var reasons: [String: Set<String>] = [:]
        for row in try tsvRows(directory.appendingPathComponent("reasons.tsv"), columns: 3) {
            reasons[row[0], default: []].insert(row[1])
        }
        self.reasons = reasons
        for api in apis where reasons[api.category] == nil {
            throw CheckError("required-reason-apis.tsv: \(api.category) has no reasons in reasons.tsv")
        }
        let collected = try tsvRows(directory.appendingPathComponent("collected-data.tsv"), columns: 3)
        dataTypes = Set(collected.filter { $0[0] == "NSPrivacyCollectedDataType" }.map { $0[1] })
        purposes = Set(collected.filter { $0[0] == "NSPrivacyCollectedDataTypePurposes" }.map { $0[1] })
        var decisions: [String: (manifest: Bool, why: String)] = [:]
        for row in try tsvRows(directory.appendingPathComponent("targets.tsv"), columns: 3) {
            guard row[1] == "yes" || row[1] == "no" else {
                throw CheckError("targets.tsv: \(row[0]): manifest must be yes or no, not \(row[1])")
            }
            decisions[row[0]] = (row[1] == "yes", row[2])
        }
        self.decisions = decisions
        apps = try tsvRows(directory.appendingPathComponent("apps.tsv"), columns: 3).map { ($0[0], $0[1], $0[2]) }
    }
}

// MARK: - Swift source scan

/// The bytes of a Swift file with comments and the text of string literals blanked out (newlines kept, so line
/// numbers still hold); code interpolated into strings (`\(...)`) is kept.
func codeOnly(_ source: [UInt8]) -> [UInt8] {
    enum Mode {
        case code(parens: Int)  // parens counts open parentheses of an interpolation
        case string(hashes: Int, multiline: Bool)
    }
    let quote = UInt8(ascii: "\"")
    let hash = UInt8(ascii: "#")
    let slash = UInt8(ascii: "/")
    let star = UInt8(ascii: "*")
    let backslash = UInt8(ascii: "\\")
    let newline = UInt8(ascii: "\n")
    let space = UInt8(ascii: " ")
    let open = UInt8(ascii: "(")
    let close = UInt8(ascii: ")")
    var out = source
    var stack: [Mode] = [.code(parens: 0)]
    var i = 0
    let n = source.count
    func at(_ k: Int) -> UInt8 { k < n ? source[k] : 0 }
    func blank(_ from: Int, _ to: Int) {
        for k in from..<min(to, n) where out[k] != newline { out[k] = space }
    }
    func hashes(from k: Int) -> Int {
        var j = k
        while at(j) == hash { j += 1 }
        return j - k
    }
    while i < n {
        switch stack[stack.count - 1] {
        case .code(let parens):
            let c = source[i]
            if c == slash && at(i + 1) == slash {
                var j = i
                while j < n && source[j] != newline { j += 1 }
                blank(i, j)
                i = j
            } else if c == slash && at(i + 1) == star {
                var depth = 0
                var j = i
                repeat {
                    if at(j) == slash && at(j + 1) == star {
                        depth += 1
                        j += 2
                    } else if at(j) == star && at(j + 1) == slash {
                        depth -= 1
                        j += 2
                    } else {
                        j += 1
                    }
                } while depth > 0 && j < n
                blank(i, j)
                i = j
            } else if c == quote || (c == hash && at(i + hashes(from: i)) == quote) {
                let count = hashes(from: i)
                let start = i + count
                let multiline = at(start + 1) == quote && at(start + 2) == quote
                let end = start + (multiline ? 3 : 1)
                blank(i, end)
                stack.append(.string(hashes: count, multiline: multiline))
                i = end
            } else if stack.count > 1 && c == open {
                stack[stack.count - 1] = .code(parens: parens + 1)
                i += 1
            } else if stack.count > 1 && c == close {
                if parens == 1 {
                    out[i] = space
                    stack.removeLast()
                } else {
                    stack[stack.count - 1] = .code(parens: parens - 1)
                }
                i += 1
            } else {
                i += 1
            }
        case .string(let count, let multiline):
            let c = source[i]
            if c == backslash && hashes(from: i + 1) >= count {
                let after = i + 1 + count
                if at(after) == open {
                    blank(i, after + 1)
                    stack.append(.code(parens: 1))
                    i = after + 1
                } else {
                    blank(i, after + 1)
                    i = after + 1
                }
            } else if c == quote && (!multiline || (at(i + 1) == quote && at(i + 2) == quote))
                && hashes(from: i + (multiline ? 3 : 1)) >= count
            {
                let end = i + (multiline ? 3 : 1) + count
                blank(i, end)
                stack.removeLast()
                i = end
            } else if c == newline && !multiline {
                stack.removeLast()  // an unterminated literal ends at the line's end
                i += 1
            } else {
                if c != newline { out[i] = space }
                i += 1
            }
        }
    }
    return out
}

struct Hit: Hashable {
    let category: String
    let api: String
    let location: String
}

/// The required-reason API uses in one Swift file's code.
func scan(file: URL, displayName: String, catalog: Catalog, ignored: inout [String]) throws -> [Hit] {
    let raw = Array(try Data(contentsOf: file))
    let code = codeOnly(raw)
    let rawLines = raw.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    func isIdentifierByte(_ b: UInt8) -> Bool {
        (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || (b >= 48 && b <= 57) || b == 95
    }
    func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }
    /// The identifier that ends at `end` (spaces before it skipped), or "".
    func word(endingAt end: Int) -> String {
        var e = end
        while e >= 0 && isSpace(code[e]) { e -= 1 }
        var s = e
        while s >= 0 && isIdentifierByte(code[s]) { s -= 1 }
        return s < e ? String(decoding: code[(s + 1)...e], as: UTF8.self) : ""
    }
    var hits: [Hit] = []
    var ignoredLines: Set<Int> = []
    var line = 1
    var i = 0
    let n = code.count
    while i < n {
        let b = code[i]
        if b == 10 { line += 1 }
        guard isIdentifierByte(b), !(b >= 48 && b <= 57) else {
            i += 1
            continue
        }
        var j = i
        while j < n && isIdentifierByte(code[j]) { j += 1 }
        defer { i = j }
        let name = String(decoding: code[i..<j], as: UTF8.self)
        guard catalog.apis.contains(where: { $0.source.contains { $0.name == name } }) else { continue }
        var before = i - 1
        while before >= 0 && isSpace(code[before]) { before -= 1 }
        let afterDot = before >= 0 && code[before] == UInt8(ascii: ".")
        let qualifier = afterDot ? word(endingAt: before - 1) : ""
        let previous = afterDot ? "" : word(endingAt: before)
        var after = j
        while after < n && isSpace(code[after]) { after += 1 }
        var inside = after + 1
        while inside < n && isSpace(code[inside]) { inside += 1 }
        let calledWithArguments =
            after < n && code[after] == UInt8(ascii: "(") && inside < n && code[inside] != UInt8(ascii: ")")
        for api in catalog.apis {
            for pattern in api.source where pattern.name == name {
                let matches: Bool
                switch pattern {
                case .identifier: matches = !afterDot || qualifier == "Foundation"
                case .member: matches = afterDot
                case .call:
                    let qualified = ["Darwin", "Glibc", "Musl"].contains(qualifier)
                    matches = calledWithArguments && (!afterDot || qualified) && previous != "func"
                }
                guard matches else { continue }
                let text = line - 1 < rawLines.count ? String(decoding: rawLines[line - 1], as: UTF8.self) : ""
                if text.contains("privacy-scan: ignore") {
                    if ignoredLines.insert(line).inserted {
                        ignored.append("\(displayName):\(line): \(text.trimmingCharacters(in: .whitespaces))")
                    }
                    continue
                }
                hits.append(Hit(category: api.category, api: name, location: "\(displayName):\(line)"))
            }
        }
    }
    return hits
}

// MARK: - Property lists

indirect enum PlistValue {
    case dictionary([(key: String, value: PlistValue)])
    case array([PlistValue])
    case string(String)
    case boolean(Bool)
    case other(String)  // integer, real, date, data: never valid in a privacy manifest

    var typeName: String {
        switch self {
        case .dictionary: return "a dictionary"
        case .array: return "an array"
        case .string: return "a string"
        case .boolean: return "a boolean"
        case .other(let element): return "<\(element)>"
        }
    }
}

/// An XML property list reader that keeps what the schema check needs and Foundation's reader hides: the element
/// each value was written with (so `<integer>1</integer>` is not a boolean) and duplicate keys.
final class PlistReader: NSObject, XMLParserDelegate {
    private enum Frame {
        case dictionary([(key: String, value: PlistValue)], pendingKey: String?)
        case array([PlistValue])
    }
    private var stack: [Frame] = []
    private var text = ""
    private var root: PlistValue?
    private(set) var problems: [String] = []

    static func read(_ data: Data) -> (PlistValue?, [String]) {
        let reader = PlistReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        if !parser.parse() {
            let error = parser.parserError.map { "\($0)" } ?? "unknown error"
            return (nil, ["not a valid XML property list (line \(parser.lineNumber)): \(error)"])
        }
        if reader.root == nil { reader.problems.append("no value inside <plist>") }
        return (reader.root, reader.problems)
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        text = ""
        switch element {
        case "dict": stack.append(.dictionary([], pendingKey: nil))
        case "array": stack.append(.array([]))
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "plist": return
        case "key":
            guard case .dictionary(let entries, let pending) = stack.last else {
                problems.append("<key>\(text)</key> outside a dictionary")
                return
            }
            if let pending { problems.append("key \(pending) has no value") }
            if entries.contains(where: { $0.key == text }) { problems.append("duplicate key \(text)") }
            stack[stack.count - 1] = .dictionary(entries, pendingKey: text)
        case "dict":
            guard case .dictionary(let entries, let pending) = stack.popLast() else { return }
            if let pending { problems.append("key \(pending) has no value") }
            add(.dictionary(entries))
        case "array":
            guard case .array(let items) = stack.popLast() else { return }
            add(.array(items))
        case "string": add(.string(text))
        case "true": add(.boolean(true))
        case "false": add(.boolean(false))
        default: add(.other(element))
        }
    }

    private func add(_ value: PlistValue) {
        guard let top = stack.last else {
            if root != nil { problems.append("more than one value inside <plist>") }
            root = value
            return
        }
        switch top {
        case .array(let items): stack[stack.count - 1] = .array(items + [value])
        case .dictionary(let entries, let pending):
            guard let pending else {
                problems.append("a value (\(value.typeName)) without a key")
                return
            }
            stack[stack.count - 1] = .dictionary(entries + [(pending, value)], pendingKey: nil)
        }
    }
}

struct Manifest {
    var tracking = false
    var declared: [String: [String]] = [:]  // category -> reasons
    var collected: [String] = []  // one line per data type, for the report
}

let collectedKeys = [
    "NSPrivacyCollectedDataType", "NSPrivacyCollectedDataTypeLinked", "NSPrivacyCollectedDataTypeTracking",
    "NSPrivacyCollectedDataTypePurposes",
]
let accessedKeys = ["NSPrivacyAccessedAPIType", "NSPrivacyAccessedAPITypeReasons"]
let topLevelKeys = [
    "NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes",
]

/// The manifest and every way it breaks the schema of "Privacy manifest files" / "Describing data use in privacy
/// manifests" / "Describing use of required reason API".
func validate(_ data: Data, catalog: Catalog) -> (Manifest, [String]) {
    let (value, readProblems) = PlistReader.read(data)
    var problems = readProblems
    var manifest = Manifest()
    guard case .dictionary(let top)? = value else {
        if value != nil { problems.append("the top-level value is not a dictionary") }
        return (manifest, problems)
    }
    func strings(_ value: PlistValue, _ what: String) -> [String]? {
        guard case .array(let items) = value else {
            problems.append("\(what) must be an array, not \(value.typeName)")
            return nil
        }
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item else {
                problems.append("\(what) must hold strings, not \(item.typeName)")
                continue
            }
            result.append(text)
        }
        if Set(result).count != result.count { problems.append("\(what) repeats a value") }
        return result
    }
    func dictionaries(_ value: PlistValue, _ what: String) -> [[(key: String, value: PlistValue)]] {
        guard case .array(let items) = value else {
            problems.append("\(what) must be an array, not \(value.typeName)")
            return []
        }
        return items.compactMap { item in
            guard case .dictionary(let entries) = item else {
                problems.append("\(what) must hold dictionaries, not \(item.typeName)")
                return nil
            }
            return entries
        }
    }
    func checkKeys(_ entries: [(key: String, value: PlistValue)], allowed: [String], _ what: String) {
        for entry in entries where !allowed.contains(entry.key) {
            problems.append("unexpected key \(entry.key) in \(what)")
        }
        for key in allowed where !entries.contains(where: { $0.key == key }) { problems.append("\(what) lacks \(key)") }
    }
    checkKeys(top, allowed: topLevelKeys, "the manifest")
    var domains: [String] = []
    for (key, value) in top {
        switch key {
        case "NSPrivacyTracking":
            guard case .boolean(let flag) = value else {
                problems.append("NSPrivacyTracking must be a boolean, not \(value.typeName)")
                continue
            }
            manifest.tracking = flag
        case "NSPrivacyTrackingDomains":
            domains = strings(value, key) ?? []
            for domain in domains where domain.isEmpty || domain.contains("/") || domain.contains(" ") {
                problems.append("NSPrivacyTrackingDomains: \(domain) is not a domain name")
            }
        case "NSPrivacyCollectedDataTypes":
            var seen: Set<String> = []
            for entry in dictionaries(value, key) {
                checkKeys(entry, allowed: collectedKeys, "an NSPrivacyCollectedDataTypes entry")
                var type = "?"
                var flags: [String: Bool] = [:]
                var purposes: [String] = []
                for (field, fieldValue) in entry {
                    switch field {
                    case "NSPrivacyCollectedDataType":
                        guard case .string(let text) = fieldValue else {
                            problems.append("\(field) must be a string, not \(fieldValue.typeName)")
                            continue
                        }
                        type = text
                        if !catalog.dataTypes.contains(text) { problems.append("\(text) is not a collected data type") }
                        if !seen.insert(text).inserted { problems.append("\(text) is declared twice") }
                    case "NSPrivacyCollectedDataTypeLinked", "NSPrivacyCollectedDataTypeTracking":
                        guard case .boolean(let flag) = fieldValue else {
                            problems.append("\(field) must be a boolean, not \(fieldValue.typeName)")
                            continue
                        }
                        flags[field] = flag
                    case "NSPrivacyCollectedDataTypePurposes":
                        purposes = strings(fieldValue, field) ?? []
                        if purposes.isEmpty { problems.append("\(type): \(field) is empty") }
                        for purpose in purposes where !catalog.purposes.contains(purpose) {
                            problems.append("\(purpose) is not a collection purpose")
                        }
                    default: break
                    }
                }
                let linked = flags["NSPrivacyCollectedDataTypeLinked"] == true ? "linked" : "not linked"
                let tracking = flags["NSPrivacyCollectedDataTypeTracking"] == true ? "tracking" : "no tracking"
                if flags["NSPrivacyCollectedDataTypeTracking"] == true && !manifest.tracking {
                    problems.append("\(type) is used for tracking but NSPrivacyTracking is false")
                }
                let shortPurposes = purposes.map {
                    $0.replacingOccurrences(of: "NSPrivacyCollectedDataTypePurpose", with: "")
                }
                manifest.collected.append(
                    "\(short(type)) (\(linked), \(tracking); \(shortPurposes.joined(separator: ", ")))")
            }
        case "NSPrivacyAccessedAPITypes":
            for entry in dictionaries(value, key) {
                checkKeys(entry, allowed: accessedKeys, "an NSPrivacyAccessedAPITypes entry")
                var category: String?
                var reasons: [String] = []
                for (field, fieldValue) in entry {
                    if field == "NSPrivacyAccessedAPIType" {
                        guard case .string(let text) = fieldValue else {
                            problems.append("\(field) must be a string, not \(fieldValue.typeName)")
                            continue
                        }
                        category = text
                    } else if field == "NSPrivacyAccessedAPITypeReasons" {
                        reasons = strings(fieldValue, field) ?? []
                    }
                }
                guard let category else { continue }
                guard let valid = catalog.reasons[category] else {
                    problems.append("\(category) is not a required-reason API category")
                    continue
                }
                if manifest.declared[category] != nil { problems.append("\(category) is declared twice") }
                if reasons.isEmpty { problems.append("\(category) has no reason") }
                for reason in reasons where !valid.contains(reason) {
                    problems.append(
                        "\(reason) is not a reason for \(category) (valid: \(valid.sorted().joined(separator: ", ")))")
                }
                manifest.declared[category] = reasons
            }
        default: break
        }
    }
    if manifest.tracking && domains.isEmpty {
        problems.append("NSPrivacyTracking is true, so NSPrivacyTrackingDomains must list at least one domain")
    }
    return (manifest, problems)
}

func short(_ name: String) -> String {
    for prefix in ["NSPrivacyAccessedAPICategory", "NSPrivacyCollectedDataType"] where name.hasPrefix(prefix) {
        return String(name.dropFirst(prefix.count))
    }
    return name
}

// MARK: - The check

struct Target {
    let name: String
    let path: String
    let resources: [String]
    let dependencies: [String]
}

func readPackage(_ url: URL) throws -> (targets: [Target], products: [(name: String, targets: [String])]) {
    guard let package = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
        let targetList = package["targets"] as? [[String: Any]],
        let productList = package["products"] as? [[String: Any]]
    else { throw CheckError("\(url.path) is not the output of swift package dump-package") }
    let targets = targetList.compactMap { target -> Target? in
        guard target["type"] as? String == "regular", let name = target["name"] as? String else { return nil }
        let resources = (target["resources"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
            for kind in ["byName", "target"] {
                if let value = dependency[kind] as? [Any], let name = value.first as? String { return name }
            }
            return nil
        }
        return Target(
            name: name, path: target["path"] as? String ?? "Sources/\(name)", resources: resources,
            dependencies: dependencies)
    }
    let products = productList.compactMap { product -> (name: String, targets: [String])? in
        guard let type = product["type"] as? [String: Any], type["library"] != nil,
            let name = product["name"] as? String
        else { return nil }
        return (name, product["targets"] as? [String] ?? [])
    }
    return (targets, products)
}

/// What the compiled object of a target references, per category: DIR/<target>.nm and DIR/<target>.selectors.
func objectHits(target: String, directory: URL, catalog: Catalog) -> [Hit]? {
    guard let nm = try? String(contentsOf: directory.appendingPathComponent("\(target).nm"), encoding: .utf8) else {
        return nil
    }
    let symbols = Set(nm.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
    let selectorText =
        (try? String(contentsOf: directory.appendingPathComponent("\(target).selectors"), encoding: .utf8)) ?? ""
    let selectors = Set(selectorText.split(separator: "\n").map(String.init))
    var hits: [Hit] = []
    for api in catalog.apis {
        for pattern in api.object {
            switch pattern {
            case .symbol(let name) where symbols.contains(name):
                hits.append(Hit(category: api.category, api: name, location: "object"))
            case .selector(let name) where selectors.contains(name):
                hits.append(Hit(category: api.category, api: "selector \(name)", location: "object"))
            default: break
            }
        }
    }
    return hits
}

/// "stat Store/JournalFile.swift:106; fstat Store/JournalFile.swift:106, 120" (for an object: the symbol or selector).
func uses(_ hits: [Hit]) -> String {
    var order: [String] = []
    var places: [String: [String]] = [:]
    for hit in hits {
        if places[hit.api] == nil { order.append(hit.api) }
        if hit.location != "object" && !(places[hit.api] ?? []).contains(hit.location) {
            places[hit.api, default: []].append(hit.location)
        } else if places[hit.api] == nil {
            places[hit.api] = []
        }
    }
    return order.map { api in places[api]!.isEmpty ? api : "\(api) \(places[api]!.joined(separator: ", "))" }
        .joined(separator: "; ")
}

/// "FileTimestamp (stat Store/JournalFile.swift:106; ...)", one group per category.
func describe(_ hits: [Hit]) -> String {
    let byCategory = Dictionary(grouping: hits, by: \.category)
    return byCategory.keys.sorted().map { "\(short($0)) (\(uses(byCategory[$0]!)))" }.joined(separator: "; ")
}

/// A body of code that ships with its own privacy manifest: a library target of the package, or an example app.
struct Unit {
    let name: String
    let sources: URL
    let manifest: URL
    /// For a target: whether its resources: list the manifest; nil for an app (scripts/xcode checks its project).
    let bundled: Bool?
    /// For a target: its line in targets.tsv.
    let decision: (manifest: Bool, why: String)??
}

/// Prints one unit's report and returns its problems and declared categories (nil without a manifest).
func check(_ unit: Unit, catalog: Catalog, objects: URL?, ignored: inout [String]) throws -> (
    problems: [String], declared: [String: [String]]?
) {
    var hits: [Hit] = []
    let files =
        FileManager.default.enumerator(at: unit.sources, includingPropertiesForKeys: nil)?
        .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        .sorted { $0.path < $1.path } ?? []
    for file in files {
        let display = String(file.path.dropFirst(unit.sources.path.count + 1))
        hits += try scan(file: file, displayName: display, catalog: catalog, ignored: &ignored)
    }
    let compiled = objects.flatMap { objectHits(target: unit.name, directory: $0, catalog: catalog) }
    let hasManifest = FileManager.default.fileExists(atPath: unit.manifest.path)
    print("\(unit.name)  (\(files.count) Swift files)")
    print("  sources:   \(hits.isEmpty ? "no required-reason API" : describe(hits))")
    if let objects, unit.bundled != nil {
        if let compiled {
            print("  object:    \(compiled.isEmpty ? "no required-reason API" : describe(compiled))")
            let skipped =
                (try? String(contentsOf: objects.appendingPathComponent("\(unit.name).uncompiled"), encoding: .utf8))?
                .split(separator: "\n").joined(separator: ", ") ?? ""
            if !skipped.isEmpty {
                print("             not compiled by this SDK (the sources scan covers them): \(skipped)")
            }
        } else {
            print("  object:    not scanned (no \(objects.lastPathComponent)/\(unit.name).nm)")
        }
    }
    let used = Set(hits.map(\.category)).union((compiled ?? []).map(\.category))
    var problems: [String] = []
    switch unit.decision {
    case .some(nil): problems.append("not listed in scripts/privacy/targets.tsv: decide whether it needs a manifest")
    case .some((true, _)?) where !hasManifest:
        problems.append("targets.tsv says it ships a manifest, but there is none")
    case .some((false, _)?) where hasManifest:
        problems.append("targets.tsv says it ships no manifest, but it has one")
    default: break
    }
    var declaredCategories: [String: [String]]?
    if hasManifest {
        let (manifest, schemaProblems) = validate(try Data(contentsOf: unit.manifest), catalog: catalog)
        declaredCategories = manifest.declared
        problems += schemaProblems.map { "\(unit.manifest.lastPathComponent): \($0)" }
        if unit.bundled == false {
            problems.append(
                "PrivacyInfo.xcprivacy is not in the target's resources: in Package.swift, so no bundle carries it")
        }
        let declared = manifest.declared.keys.sorted().map {
            "\(short($0)) \(manifest.declared[$0]!.joined(separator: ","))"
        }
        print("  declared:  \(declared.isEmpty ? "no required-reason API" : declared.joined(separator: "; "))")
        print("  collects:  \(manifest.collected.isEmpty ? "nothing" : manifest.collected.joined(separator: "; "))")
        print("  tracking:  \(manifest.tracking ? "yes" : "no")")
        for category in used.sorted() where manifest.declared[category] == nil {
            let found = uses((hits + (compiled ?? [])).filter { $0.category == category })
            problems.append("uses \(category) but its manifest does not declare it: \(found)")
        }
        for category in manifest.declared.keys.sorted() where !used.contains(category) {
            problems.append(
                "declares \(category), but nothing in its sources\(compiled == nil ? "" : " or object") uses it")
        }
    } else {
        let why = unit.decision.map { $0?.why ?? "no decision" } ?? "an app that uses no required-reason API"
        print("  manifest:  none (\(why))")
        for category in used.sorted() {
            let found = uses((hits + (compiled ?? [])).filter { $0.category == category })
            problems.append("uses \(category) but has no privacy manifest: \(found)")
        }
    }
    print(problems.isEmpty ? "  ok" : problems.map { "  FAIL \($0)" }.joined(separator: "\n"))
    return (problems, declaredCategories)
}

/// `--targets PACKAGE_JSON`: the library targets in dependency order, one a line: name, source folder and
/// dependencies (comma-separated), tab-separated; scripts/privacy/scan-objects.sh compiles them in that order.
func printTargets(packageJSON: URL) throws {
    let (targets, _) = try readPackage(packageJSON)
    var done: [String] = []
    var pending = targets
    while !pending.isEmpty {
        guard let next = pending.firstIndex(where: { $0.dependencies.allSatisfy(done.contains) }) else {
            throw CheckError("the targets' dependencies form a cycle")
        }
        let target = pending.remove(at: next)
        done.append(target.name)
        print("\(target.name)\t\(target.path)\t\(target.dependencies.joined(separator: ","))")
    }
}

func run() throws -> Bool {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.count == 2 && arguments[0] == "--targets" {
        try printTargets(packageJSON: URL(fileURLWithPath: arguments[1]))
        return true
    }
    guard arguments.count == 2 || (arguments.count == 4 && arguments[2] == "--objects") else {
        throw CheckError("usage: privacy-check ROOT PACKAGE_JSON [--objects DIR]")
    }
    let root = URL(fileURLWithPath: arguments[0], isDirectory: true)
    let objects = arguments.count == 4 ? URL(fileURLWithPath: arguments[3], isDirectory: true) : nil
    let catalog = try Catalog(directory: root.appendingPathComponent("scripts/privacy"))
    let (targets, products) = try readPackage(URL(fileURLWithPath: arguments[1]))
    var failures: [String] = []
    var ignored: [String] = []
    var declaredByTarget: [String: [String: [String]]] = [:]
    for target in targets {
        let directory = root.appendingPathComponent(target.path)
        let unit = Unit(
            name: target.name, sources: directory, manifest: directory.appendingPathComponent("PrivacyInfo.xcprivacy"),
            bundled: target.resources.contains("PrivacyInfo.xcprivacy"), decision: .some(catalog.decisions[target.name])
        )
        let (problems, declared) = try check(unit, catalog: catalog, objects: objects, ignored: &ignored)
        declaredByTarget[target.name] = declared
        failures += problems.map { "\(target.name): \($0)" }
    }
    print("example apps (their own code; the SDK's manifests come with the package):")
    for app in catalog.apps {
        let unit = Unit(
            name: app.name, sources: root.appendingPathComponent(app.sources),
            manifest: root.appendingPathComponent(app.manifest), bundled: nil, decision: nil)
        guard FileManager.default.fileExists(atPath: unit.sources.path) else {
            failures.append("\(app.name): apps.tsv names \(app.sources), which does not exist")
            continue
        }
        let (problems, _) = try check(unit, catalog: catalog, objects: nil, ignored: &ignored)
        failures += problems.map { "\(app.name): \($0)" }
    }
    for name in catalog.decisions.keys.sorted() where !targets.contains(where: { $0.name == name }) {
        failures.append("targets.tsv lists \(name), which is not a library target")
    }
    // What an app that links each product gets: every target it builds, and their bundles' manifests.
    let byName = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
    print("products (the targets an app links, the manifests their resource bundles carry, the reasons declared):")
    for product in products {
        var closure: [String] = []
        var pending = product.targets
        while let next = pending.first {
            pending.removeFirst()
            guard !closure.contains(next), let target = byName[next] else { continue }
            closure.append(next)
            pending += target.dependencies
        }
        let manifests = closure.filter { declaredByTarget[$0] != nil }
        let reasons = Set(
            manifests.flatMap { name in
                declaredByTarget[name]!.map { "\(short($0.key)) \($0.value.joined(separator: ","))" }
            })
        print(
            "  \(product.name): targets \(closure.joined(separator: ", ")); manifests \(manifests.joined(separator: ", ")); "
                + "reasons \(reasons.isEmpty ? "none" : reasons.sorted().joined(separator: "; "))")
    }
    if !ignored.isEmpty {
        print("lines left out with privacy-scan: ignore:")
        for line in ignored { print("  \(line)") }
    }
    if failures.isEmpty {
        print(
            "privacy: \(targets.count) library targets (\(declaredByTarget.count) with a manifest) and "
                + "\(catalog.apps.count) example apps agree with their manifests")
        return true
    }
    for failure in failures { print("FAIL \(failure)") }
    print("privacy: \(failures.count) problems")
    return false
}

do {
    exit(try run() ? 0 : 1)
} catch {
    print("privacy-check: \(error)")
    exit(2)
}
