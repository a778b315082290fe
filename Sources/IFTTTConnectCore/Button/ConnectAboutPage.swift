import Foundation

/// The content of the About page the button's footer opens: what IFTTT does for this Connection, the
/// user's controls, and the legal line. A pure value, drawn by `AboutViewController` on iOS and usable by any
/// other renderer.
@_spi(Sandbox) public struct ConnectAboutPage: Sendable, Hashable {
    /// A service shown in the page's header.
    public struct ServiceBadge: Sendable, Hashable {
        /// The service's short name.
        public var name: String
        /// Its white-on-transparent icon.
        public var iconURL: URL?
        /// Its page on ifttt.com, opened when the icon is tapped.
        public var url: URL?
    }

    /// One benefit row.
    public struct Benefit: Sendable, Hashable {
        /// Which benefit; renderers choose the icon.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// New features by linking services.
            case connect
            /// The user decides what is shared.
            case control
            /// The data is protected.
            case security
            /// The Connection can be turned off any time.
            case manage
        }

        /// Which benefit.
        public var kind: Kind
        /// The localized text.
        public var text: String
    }

    /// The page's bottom area.
    public enum Call: Sendable, Hashable {
        /// A "Manage" button that opens the Connection in the IFTTT app (app installed, Connection on).
        case manage(title: String)
        /// Nothing besides the legal text (app installed, Connection off).
        case none
        /// A link to the IFTTT app on the App Store (app not installed).
        case appStore(appID: String)
    }

    /// IFTTT's App Store id.
    public static let iftttAppStoreID = "660944635"
    /// Where the legal link goes.
    public static let termsURL = URL(string: "https://ifttt.com/terms")!

    /// The title, with `IFTTT` as a wordmark run where the language puts it (never moved to the front).
    public var title: StyledText
    /// The Connection's page, opened when the title is tapped.
    public var titleURL: URL
    /// The primary service (left of the arrow).
    public var primaryService: ServiceBadge
    /// The connecting service (right of the arrow).
    public var connectingService: ServiceBadge
    /// The four benefits, in order.
    public var benefits: [Benefit]
    /// The bottom area.
    public var call: Call
    /// The legal sentence, its link as a ``StyledText/Run/Kind/link`` run.
    public var legal: StyledText
    /// The close button's accessibility label.
    public var closeAccessibilityLabel: String
    /// The App Store button's accessibility label ("Download on the App Store" in the page's language).
    public var appStoreAccessibilityLabel: String
    /// The localization of the texts.
    public var localization: String

    /// Builds the page for `connection` in `localization`.
    ///
    /// - Parameters:
    ///   - connection: The Connection the page is about.
    ///   - l10n: The language of the texts (the `localization:` argument).
    ///   - iftttAppInstalled: Whether the IFTTT app can be opened (`ifttt-handoff-v1://`).
    public init(connection: Connection, localization l10n: ConnectLocalization = .english, iftttAppInstalled: Bool) {
        let primary = connection.primaryService
        let connecting = connection.connectingService
        title = .wordmarked(l10n.format(.aboutTitle, primary.shortName, connecting.shortName), color: .white)
        titleURL = connection.url
        primaryService = ServiceBadge(name: primary.shortName, iconURL: primary.monochromeIconURL, url: primary.pageURL)
        connectingService = ServiceBadge(
            name: connecting.shortName, iconURL: connecting.monochromeIconURL, url: connecting.pageURL)
        benefits = [
            Benefit(kind: .connect, text: l10n.string(.aboutConnect)),
            Benefit(kind: .control, text: l10n.string(.aboutControl)),
            Benefit(kind: .security, text: l10n.string(.aboutSecurity)),
            Benefit(kind: .manage, text: l10n.string(.aboutManage)),
        ]
        if !iftttAppInstalled {
            call = .appStore(appID: Self.iftttAppStoreID)
        } else if connection.status == .enabled {
            call = .manage(title: l10n.string(.aboutManageButton))
        } else {
            call = .none
        }
        legal = Self.legalText(l10n.string(.aboutLegal), link: l10n.string(.aboutLegalLink))
        closeAccessibilityLabel = l10n.string(.aboutClose)
        appStoreAccessibilityLabel = l10n.string(.aboutAppStore)
        localization = l10n.localization
    }

    /// Splits the legal sentence around its link text (the whole sentence is plain when it lacks the link).
    static func legalText(_ sentence: String, link: String) -> StyledText {
        let grey = ConnectButtonPalette.mediumGrey
        guard !link.isEmpty, let range = sentence.range(of: link) else {
            return StyledText(runs: [.init(text: sentence, kind: .plain, color: grey)])
        }
        var runs: [StyledText.Run] = []
        if range.lowerBound > sentence.startIndex {
            runs.append(.init(text: String(sentence[..<range.lowerBound]), kind: .plain, color: grey))
        }
        runs.append(.init(text: link, kind: .link, color: grey))
        if range.upperBound < sentence.endIndex {
            runs.append(.init(text: String(sentence[range.upperBound...]), kind: .plain, color: grey))
        }
        return StyledText(runs: runs)
    }
}
