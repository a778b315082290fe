import Foundation
import Testing
@testable import IFTTTConnectSDK

@Suite("Localization: completeness, placeholders and fallbacks")
struct LocalizationTests {
    @Test func everyLocalizationIsShippedAndLoads() {
        let tables = LocalizationTables.shared.tables
        for name in [ConnectLocalization.baseLocalization] + ConnectLocalization.supportedLocalizations {
            #expect(tables[name] != nil, "missing table \(name)")
        }
        #expect(ConnectLocalization.supportedLocalizations.count == 22)
    }
}
