import Foundation

/// The language the Connect Button, its footer, the email step and the About page are shown in.
///
/// A `ConnectLocalization` resolves a locale identifier to one of the shipped localizations with an explicit
/// fallback chain, and looks strings up in the SDK's own `.strings` tables. It never reads the process
/// language, so the same identifier gives the same text on every platform, Linux included.
///
/// ```swift
/// let mexico = ConnectLocalization(identifier: "es-MX")
/// mexico.localization                       // "es-419"
/// mexico.format(.connect, "Grocery Express") // "Conectar Grocery Express"
/// ```
///
/// Fallbacks: a region or script variant goes to the closest shipped localization (`es-MX` → `es-419` →
/// `es`; `zh-TW`, `zh-HK` and `zh-Hant-*` → `zh-Hant`; `zh`, `zh-CN` → `zh-Hans`; `pt` and `pt-AO` → `pt-PT`;
/// `no`, `nn`, `no_NO` → `nb`; `en-AU` → `en-GB`; `de-AT` → `de`), and anything unknown goes to English.
/// Underscores, POSIX suffixes (`de_DE.UTF-8`) and keyword suffixes (`@calendar=…`) are accepted.
@_spi(Sandbox) public struct ConnectLocalization: Sendable, Hashable, CustomStringConvertible {
    /// The 22 shipped localizations, besides the English base.
    public static let supportedLocalizations: [String] = [
        "en-US", "en-GB", "cs", "da", "de", "es", "es-419", "fi", "fr", "fr-CA", "it", "ja", "ko", "nb", "nl",
        "pl", "pt-BR", "pt-PT", "ru", "sv", "zh-Hans", "zh-Hant",
    ]

    /// The base localization (English), used when nothing closer exists.
    public static let baseLocalization = "en"

    /// English (the base localization).
    public static let english = ConnectLocalization(identifier: baseLocalization)

    /// The identifier this value was created with, such as `"es_MX"`.
    public let requestedIdentifier: String
    /// The localizations tried in order, ending with the base (`"en"`), such as `["es-419", "es", "en"]`.
    public let fallbackChain: [String]

    /// The localization strings come from: the first entry of ``fallbackChain``.
    public var localization: String { fallbackChain[0] }

    /// Resolves a locale identifier (BCP 47 or POSIX style: `"pt-BR"`, `"zh_Hant_TW"`, `"de_DE.UTF-8"`).
    public init(identifier: String) {
        requestedIdentifier = identifier
        fallbackChain = Self.fallbackChain(for: identifier)
    }

    /// Resolves a `Locale` by its identifier.
    public init(locale: Locale) {
        self.init(identifier: locale.identifier)
    }

    /// The looked-up string for `key`, from the first localization in the chain that has it.
    public func string(_ key: ConnectStringKey) -> String {
        for (index, name) in fallbackChain.enumerated() {
            if let value = LocalizationTables.shared.tables[name]?[key.rawValue] {
                if index > 0 {
                    LocalizationLogger.shared.log(
                        "no '\(fallbackChain[0])' text for '\(key.rawValue)'; using '\(name)'")
                } else if name == Self.baseLocalization, !Self.isEnglish(requestedIdentifier) {
                    LocalizationLogger.shared.log(
                        "no translation for locale '\(requestedIdentifier)'; using English for '\(key.rawValue)'")
                }
                return value
            }
        }
        LocalizationLogger.shared.log("no text at all for '\(key.rawValue)'")
        return key.rawValue
    }

    private static func isEnglish(_ identifier: String) -> Bool {
        identifier.isEmpty || identifier.lowercased().hasPrefix("en")
    }

    /// The string for `key` with its placeholders (`%@`, `%1$@`, `%2$@`) replaced by `arguments`.
    public func format(_ key: ConnectStringKey, _ arguments: String...) -> String {
        Self.format(string(key), arguments)
    }

    /// `"<requested> → <localization>"`.
    public var description: String { "\(requestedIdentifier) → \(localization)" }

    // MARK: - Resolution

    /// The localizations to try for `identifier`, most specific first, always ending with ``baseLocalization``.
    public static func fallbackChain(for identifier: String) -> [String] {
        let tag = LanguageTag(identifier)
        var chain: [String] = []
        func add(_ name: String) {
            guard let match = canonicalName(name), !chain.contains(match) else { return }
            chain.append(match)
        }
        switch tag.language {
        case "zh":
            let traditional =
                tag.script == "Hant" || (tag.script == nil && ["TW", "HK", "MO"].contains(tag.region ?? ""))
            add(traditional ? "zh-Hant" : "zh-Hans")
        case "es":
            if let region = tag.region, region != "ES", latinAmericanRegions.contains(region) {
                add("es-419")
            }
            add("es")
        case "pt":
            add(tag.region == "BR" ? "pt-BR" : "pt-PT")
        case "en":
            add(britishEnglishRegions.contains(tag.region ?? "") ? "en-GB" : "en-US")
        case "no", "nb", "nn":
            add("nb")
        default:
            if let script = tag.script { add("\(tag.language)-\(script)") }
            if let region = tag.region { add("\(tag.language)-\(region)") }
            add(tag.language)
        }
        if !chain.contains(baseLocalization) { chain.append(baseLocalization) }
        return chain
    }

    /// The shipped spelling of `name` (case-insensitive), or `nil` when it is not shipped.
    static func canonicalName(_ name: String) -> String? {
        let lower = name.lowercased()
        if lower == baseLocalization { return baseLocalization }
        return supportedLocalizations.first { $0.lowercased() == lower }
    }

    /// Regions whose Spanish speakers get Latin American Spanish (`es-419`), including the US.
    static let latinAmericanRegions: Set<String> = [
        "419", "AR", "BO", "BZ", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR",
        "PY", "SV", "US", "UY", "VE",
    ]

    /// Regions whose English speakers get British English.
    static let britishEnglishRegions: Set<String> = [
        "GB", "UK", "IE", "AU", "NZ", "IN", "ZA", "SG", "HK", "MT", "CY", "GI", "IM", "JE", "GG",
    ]

    // MARK: - Formatting

    /// Replaces `%@` (in order) and `%N$@` (by position) in `template` with `arguments`; `%%` becomes `%`.
    /// A placeholder without an argument becomes empty text.
    public static func format(_ template: String, _ arguments: [String]) -> String {
        var out = ""
        var next = 0
        var scanner = template[...]
        while let percent = scanner.firstIndex(of: "%") {
            out += scanner[..<percent]
            let rest = scanner[scanner.index(after: percent)...]
            if rest.first == "%" {
                out += "%"
                scanner = rest.dropFirst()
            } else if rest.first == "@" {
                out += next < arguments.count ? arguments[next] : ""
                next += 1
                scanner = rest.dropFirst()
            } else if let placeholder = positional(rest) {
                out += placeholder.index < arguments.count ? arguments[placeholder.index] : ""
                scanner = placeholder.remainder
            } else {
                out += "%"
                scanner = rest
            }
        }
        out += scanner
        return out
    }

    /// The argument positions (zero-based) the placeholders of `template` refer to, in order of appearance.
    public static func placeholderPositions(in template: String) -> [Int] {
        var positions: [Int] = []
        var next = 0
        var scanner = template[...]
        while let percent = scanner.firstIndex(of: "%") {
            let rest = scanner[scanner.index(after: percent)...]
            if rest.first == "%" {
                scanner = rest.dropFirst()
            } else if rest.first == "@" {
                positions.append(next)
                next += 1
                scanner = rest.dropFirst()
            } else if let placeholder = positional(rest) {
                positions.append(placeholder.index)
                scanner = placeholder.remainder
            } else {
                scanner = rest
            }
        }
        return positions
    }

    /// Parses `N$@` at the start of `text`.
    private static func positional(_ text: Substring) -> (index: Int, remainder: Substring)? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits), number >= 1 else { return nil }
        let after = text[digits.endIndex...]
        guard after.hasPrefix("$@") else { return nil }
        return (number - 1, after.dropFirst(2))
    }
}

/// A locale identifier split into language, script and region.
struct LanguageTag: Hashable {
    var language: String
    var script: String?
    var region: String?

    init(_ identifier: String) {
        var text = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        if let cut = text.firstIndex(where: { $0 == "@" || $0 == "." }) { text = String(text[..<cut]) }
        let parts = text.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        let first = parts.first?.lowercased() ?? ""
        language = (first == "c" || first == "posix") ? "" : first
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(\.isLetter), script == nil {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if region == nil,
                (part.count == 2 && part.allSatisfy(\.isLetter)) || (part.count == 3 && part.allSatisfy(\.isNumber))
            {
                region = part.uppercased()
            }
        }
    }
}

/// The parsed `Localizable.strings` of every shipped localization, loaded once.
///
/// Process-wide on purpose: the tables are immutable once loaded and are the same for every caller (they come
/// from the SDK's own resource bundle), and ``ConnectLocalization`` is a value created anywhere, so one
/// read-only cache shared by the process is both the cheapest and the only observable behaviour.
final class LocalizationTables: Sendable {
    /// The tables of the SDK's resource bundle, loaded on first use.
    static let shared = LocalizationTables()

    /// The `Accessibility.strings` tables (the texts VoiceOver reads), loaded on first use.
    static let accessibility = LocalizationTables(table: "Accessibility")

    /// Tables by canonical localization name (`"pt-BR"`, `"en"`).
    let tables: [String: [String: String]]

    private init(table: String = "Localizable") {
        var tables: [String: [String: String]] = [:]
        for name in [ConnectLocalization.baseLocalization] + ConnectLocalization.supportedLocalizations {
            if let loaded = Self.load(name, table: table) { tables[name] = loaded }
        }
        self.tables = tables
    }

    /// Finds `<name>.lproj/<table>.strings` in the resource bundle. SwiftPM lower-cases `.lproj` folder
    /// names on Linux, so the lower-cased spelling is tried too.
    static func url(for name: String, table: String = "Localizable") -> URL? {
        let bundle = ConnectResources.bundle
        for folder in [name, name.lowercased()] {
            if let base = bundle.resourceURL {
                let url = base.appendingPathComponent("\(folder).lproj", isDirectory: true)
                    .appendingPathComponent("\(table).strings")
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
            if let url = bundle.url(
                forResource: table, withExtension: "strings", subdirectory: nil,
                localization: folder)
            {
                return url
            }
        }
        return nil
    }

    /// Reads one table; text and binary property-list forms both work.
    static func load(_ name: String, table: String = "Localizable") -> [String: String]? {
        guard let url = url(for: name, table: table), let data = try? Data(contentsOf: url) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)) as? [String: String]
    }
}
