import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

@Suite("Localization: completeness, placeholders and fallbacks")
struct LocalizationTests {
    static let allNames = [ConnectLocalization.baseLocalization] + ConnectLocalization.supportedLocalizations

    @Test func everyLocalizationIsShippedAndLoads() {
        let tables = LocalizationTables.shared.tables
        for name in Self.allNames {
            #expect(tables[name] != nil, "missing table \(name)")
        }
        #expect(ConnectLocalization.supportedLocalizations.count == 22)
    }

    @Test(arguments: allNames)
    func everyKeyIsTranslated(_ name: String) throws {
        let table = try #require(LocalizationTables.shared.tables[name])
        let expected = Set(ConnectStringKey.allCases.map(\.rawValue))
        #expect(
            Set(table.keys) == expected,
            "\(name): missing \(expected.subtracting(table.keys)), extra \(Set(table.keys).subtracting(expected))")
        for key in ConnectStringKey.allCases {
            let value = try #require(table[key.rawValue])
            #expect(!value.trimmingCharacters(in: .whitespaces).isEmpty, "\(name) \(key.rawValue) is empty")
        }
    }

    @Test(arguments: allNames)
    func placeholdersMatchEnglish(_ name: String) throws {
        let table = try #require(LocalizationTables.shared.tables[name])
        let base = try #require(LocalizationTables.shared.tables["en"])
        for key in ConnectStringKey.allCases {
            let positions = ConnectLocalization.placeholderPositions(in: table[key.rawValue] ?? "")
            let basePositions = ConnectLocalization.placeholderPositions(in: base[key.rawValue] ?? "")
            #expect(
                positions.sorted() == basePositions.sorted(),
                "\(name) \(key.rawValue): \(positions) vs \(basePositions)")
            #expect(positions.sorted() == Array(0..<key.argumentCount), "\(name) \(key.rawValue)")
        }
    }

    @Test(arguments: allNames)
    func structuralRulesHoldInEveryLanguage(_ name: String) {
        let l10n = ConnectLocalization(identifier: name)
        #expect(l10n.localization == (name == "en" ? "en-US" : name))
        for key in ConnectStringKey.allCases where key.containsWordmark {
            #expect(l10n.string(key).contains("IFTTT"), "\(name) \(key.rawValue) must keep the IFTTT wordmark")
        }
        // W-21: the email footer shows its link once, so the sentence must not already contain it.
        let link = l10n.string(.footerEmailLink).lowercased()
        #expect(!l10n.string(.footerEmailPrefix).lowercased().contains(link), "\(name): learn-more repeated")
        // The legal sentence must contain its link text exactly once.
        let legal = l10n.string(.aboutLegal)
        #expect(legal.components(separatedBy: l10n.string(.aboutLegalLink)).count == 2, "\(name): legal link")
    }

    @Test func translationsAreNotEnglishCopies() {
        let english = ConnectLocalization.english
        for name in ConnectLocalization.supportedLocalizations where !name.hasPrefix("en") {
            let l10n = ConnectLocalization(identifier: name)
            let same = ConnectStringKey.allCases.filter { l10n.string($0) == english.string($0) }
            #expect(same.count <= 1, "\(name) leaves \(same.map(\.rawValue)) in English")
        }
    }

    @Test(arguments: [
        ("es-MX", ["es-419", "es", "en"]), ("es_AR", ["es-419", "es", "en"]), ("es-US", ["es-419", "es", "en"]),
        ("es-ES", ["es", "en"]), ("es", ["es", "en"]), ("es-419", ["es-419", "es", "en"]),
        ("zh-TW", ["zh-Hant", "en"]), ("zh-HK", ["zh-Hant", "en"]), ("zh_Hant_TW", ["zh-Hant", "en"]),
        ("zh-Hant", ["zh-Hant", "en"]), ("zh-Hans-CN", ["zh-Hans", "en"]), ("zh", ["zh-Hans", "en"]),
        ("zh-SG", ["zh-Hans", "en"]), ("pt", ["pt-PT", "en"]), ("pt-AO", ["pt-PT", "en"]), ("pt_BR", ["pt-BR", "en"]),
        ("no_NO", ["nb", "en"]), ("nn-NO", ["nb", "en"]), ("nb", ["nb", "en"]), ("en", ["en-US", "en"]),
        ("en_US_POSIX", ["en-US", "en"]), ("en-AU", ["en-GB", "en"]), ("en-GB", ["en-GB", "en"]),
        ("fr-CA", ["fr-CA", "fr", "en"]), ("fr-CH", ["fr", "en"]), ("de-AT", ["de", "en"]),
        ("de_DE.UTF-8", ["de", "en"]),
        ("ja-JP@calendar=japanese", ["ja", "en"]), ("PT-br", ["pt-BR", "en"]), ("tlh", ["en"]), ("", ["en"]),
        ("C", ["en"]),
    ])
    func fallbackChains(_ identifier: String, _ expected: [String]) {
        #expect(ConnectLocalization.fallbackChain(for: identifier) == expected, "\(identifier)")
    }

    @Test func unknownLocalesReadEnglish() {
        let klingon = ConnectLocalization(identifier: "tlh-KL")
        #expect(klingon.localization == "en")
        #expect(klingon.string(.connected) == "Connected")
        #expect(ConnectLocalization(locale: Locale(identifier: "es_MX")).localization == "es-419")
    }

    @Test func formatsPositionalAndSequentialPlaceholders() {
        #expect(ConnectLocalization.format("Connect %@", ["Hue"]) == "Connect Hue")
        #expect(ConnectLocalization.format("%2$@ then %1$@", ["a", "b"]) == "b then a")
        #expect(ConnectLocalization.format("100%% %@ %@", ["x"]) == "100% x ")
        #expect(ConnectLocalization.format("50% off", []) == "50% off")
        #expect(ConnectLocalization.placeholderPositions(in: "%1$@ and %2$@ %%") == [0, 1])
        let de = ConnectLocalization(identifier: "de")
        #expect(de.format(.connect, "Hue") == "Hue verbinden")
        #expect(de.format(.aboutTitle, "A", "B") == "IFTTT verbindet A mit B.")
    }

    @Test func readsTheLowerCasedBundleFoldersOnLinux() {
        // SwiftPM copies `pt-BR.lproj` as `pt-br.lproj` on Linux; the lookup must find it anyway.
        #expect(LocalizationTables.url(for: "pt-BR") != nil)
        #expect(LocalizationTables.url(for: "zh-Hant") != nil)
        #expect(ConnectLocalization(identifier: "pt-BR").string(.connected) == "Conectado")
        #expect(ConnectLocalization(identifier: "zh-Hant").string(.connected) == "已連結")
    }
}
