import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

@Suite("About page content")
struct ButtonAboutPageTests {
    @Test func englishTitleNamesBothServices() {
        let page = ConnectAboutPage(connection: ButtonFixtures.standard, iftttAppInstalled: true)
        #expect(page.title.description == "IFTTT connects Grocery to Sunny Weather")
        #expect(page.title.runs.first?.kind == .wordmark)
        #expect(page.benefits.map(\.kind) == ConnectAboutPage.Benefit.Kind.allCases)
        #expect(page.closeAccessibilityLabel == "Close")
    }

    @Test(arguments: ["pt-BR", "pt-PT", "ja", "ko", "zh-Hans", "zh-Hant", "fi", "sv"])
    func wordmarkStaysWhereTheLanguagePutsIt(_ locale: String) {
        // W-21: the original removed every IFTTT and re-inserted one at the front, garbling these titles.
        let l10n = ConnectLocalization(identifier: locale)
        let page = ConnectAboutPage(connection: ButtonFixtures.standard, localization: l10n, iftttAppInstalled: true)
        #expect(page.title.description == l10n.format(.aboutTitle, "Grocery", "Sunny Weather"))
        #expect(page.title.runs.filter { $0.kind == .wordmark }.count == 1)
    }

    @Test func portugueseTitleKeepsItsArticle() {
        let page = ConnectAboutPage(
            connection: ButtonFixtures.standard, localization: ConnectLocalization(identifier: "pt-BR"),
            iftttAppInstalled: true)
        #expect(page.title.runs.map(\.text) == ["O ", "IFTTT", " conecta Grocery a Sunny Weather"])
    }

    @Test func callDependsOnTheAppAndTheStatus() {
        #expect(
            ConnectAboutPage(connection: ButtonFixtures.connection(status: .enabled), iftttAppInstalled: true).call
                == .manage(title: "Manage"))
        #expect(
            ConnectAboutPage(connection: ButtonFixtures.connection(status: .initial), iftttAppInstalled: true).call
                == .none)
        #expect(
            ConnectAboutPage(connection: ButtonFixtures.connection(status: .enabled), iftttAppInstalled: false).call
                == .appStore(appID: "660944635"))
    }

    @Test(arguments: ConnectLocalization.supportedLocalizations)
    func legalTextLinksTheTerms(_ locale: String) {
        let l10n = ConnectLocalization(identifier: locale)
        let page = ConnectAboutPage(connection: ButtonFixtures.standard, localization: l10n, iftttAppInstalled: true)
        #expect(page.legal.runs.filter { $0.kind == .link }.map(\.text) == [l10n.string(.aboutLegalLink)])
        #expect(page.legal.description == l10n.string(.aboutLegal))
    }

    @Test func legalTextWithoutItsLinkStaysPlain() {
        #expect(ConnectAboutPage.legalText("Terms apply.", link: "privacy").runs.map(\.kind) == [.plain])
    }
}
