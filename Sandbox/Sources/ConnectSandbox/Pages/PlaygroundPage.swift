import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The HTML of the playground pages (templates `playground-gallery` and `playground-live`).
enum PlaygroundPage {
    /// What the gallery shows.
    struct Gallery {
        struct Locale {
            let code: String
            let query: String
            let current: Bool
            let separated: Bool
        }
        struct Section {
            let id: String
            let name: String
            let query: String
            let tables: [Table]
        }
        struct Table {
            let locale: String
            let showsLocale: Bool
            let rows: [Row]
        }
        struct Row {
            let state: String
            let cells: [Cell]
        }
        struct Cell {
            /// The SDK's SVG of the button (``ConnectButtonSVGRenderer`` escapes what it draws).
            let svg: String
            /// The button's accessibility as ARIA over the SVG.
            let accessibility: PlaygroundAccessibility
        }

        let title = "Connect Button playground"
        let locales: [Locale]
        let connections: [Section]
    }

    /// The gallery: every Connection × state × style in `locale` (or every locale for `all`).
    static func gallery(connections: [Connection], locale: String) -> String {
        let locales = locale == "all" ? ConnectLocalization.supportedLocalizations : [locale]
        let codes = ConnectLocalization.supportedLocalizations + ["all"]
        var index = 0
        let sections = connections.map { connection in
            Gallery.Section(
                id: connection.id, name: connection.name, query: queryEscape(connection.id),
                tables: locales.map { code in
                    Gallery.Table(
                        locale: code, showsLocale: locales.count > 1,
                        rows: ConnectButtonVisualState.allExamples.map { state in
                            Gallery.Row(
                                state: state.name,
                                cells: [ConnectButtonStyle.light, .dark].map { style in
                                    index += 1
                                    let appearance = ConnectButtonAppearance(
                                        state: state, connection: connection,
                                        localization: ConnectLocalization(identifier: code), style: style)
                                    return Gallery.Cell(
                                        svg: ConnectButtonSVGRenderer.render(
                                            appearance, options: .init(idPrefix: "b\(index)")),
                                        accessibility: PlaygroundAccessibility(
                                            ConnectButtonAccessibility(
                                                state: state, serviceName: connection.connectingService.shortName,
                                                fullServiceName: connection.connectingService.name,
                                                localization: ConnectLocalization(identifier: code)),
                                            id: "b\(index)"))
                                })
                        })
                })
        }
        return PageTemplates.render(
            "playground-gallery",
            Gallery(
                locales: codes.enumerated().map { offset, code in
                    .init(
                        code: code, query: queryEscape(code), current: code == locale,
                        separated: offset < codes.count - 1)
                },
                connections: sections))
    }

    /// What the live page shows.
    struct Live {
        let title: String
        let buttonName: String
        let refresh: Bool
        let svg: String
        /// The button's accessibility as ARIA over the SVG.
        let accessibility: PlaygroundAccessibility
        let step: String
        let connectionId: String
        let entersEmail: Bool
        let email: String
        /// The activation URL the controller opened, when it is an `http(s)` URL and the page is shown to the
        /// browser that started the activation.
        let activationURL: String?
        /// Whether an activation page is open in another browser (its URL is not shown here).
        let openElsewhere: Bool
        let log: [String]
    }

    /// The live page of one controller, as `viewer` (the browser's playground cookie) sees it: the activation URL,
    /// with its OAuth code and `state`, only for the browser that started the activation (issue 30, hole 10).
    @MainActor
    static func live(_ session: PlaygroundSessions.Session, viewer: String? = nil) -> String {
        let controller = session.controller
        let step = controller.step
        let busy: Bool
        let entersEmail: Bool
        switch step {
        case .initial, .connected, .loadingFailed: (busy, entersEmail) = (false, false)
        case .enterEmail: (busy, entersEmail) = (false, true)
        default: (busy, entersEmail) = (true, false)
        }
        let visual = ConnectButtonVisualState(step: step, email: session.email)
        let appearance = ConnectButtonAppearance(
            state: visual, connection: controller.connection, localization: .english)
        let service = controller.connection?.connectingService
        let activation = session.web.url.flatMap { ["http", "https"].contains($0.scheme?.lowercased()) ? $0 : nil }
            .flatMap { session.owner != nil && session.owner == viewer ? $0 : nil }
        return PageTemplates.render(
            "playground-live",
            Live(
                title: "Live: \(session.connectionId)",
                buttonName: controller.connection?.name ?? session.connectionId,
                refresh: busy || session.web.url != nil,
                svg: ConnectButtonSVGRenderer.render(appearance, options: .init(idPrefix: "live")),
                accessibility: PlaygroundAccessibility(
                    ConnectButtonAccessibility(
                        state: visual, serviceName: service?.shortName, fullServiceName: service?.name),
                    id: "live"),
                step: String(describing: step), connectionId: session.connectionId, entersEmail: entersEmail,
                email: session.email, activationURL: activation?.absoluteString,
                openElsewhere: activation == nil && session.web.url != nil, log: session.log))
    }

    /// Percent-encodes a query value.
    static func queryEscape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Parses an `application/x-www-form-urlencoded` body.
    static func parseForm(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let plus = s.replacingOccurrences(of: "+", with: " ")
                return plus.removingPercentEncoding ?? plus
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}
