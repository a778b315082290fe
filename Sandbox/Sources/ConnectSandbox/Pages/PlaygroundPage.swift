import Foundation
import IFTTTConnectSDK

/// The HTML of the playground pages.
enum PlaygroundPage {
    /// The gallery: every Connection × state × style in `locale` (or every locale for `all`).
    static func gallery(connections: [Connection], locale: String) -> String {
        let locales = locale == "all" ? ConnectLocalization.supportedLocalizations : [locale]
        var html = head(title: "Connect Button playground", refresh: false)
        html += "<h1>Connect Button playground</h1><p>Locale: "
        html += (ConnectLocalization.supportedLocalizations + ["all"]).map { code in
            code == locale
                ? "<strong>\(htmlEscape(code))</strong>"
                : "<a href=\"/playground?locale=\(queryEscape(code))\">\(htmlEscape(code))</a>"
        }.joined(separator: " · ")
        html += "</p>"
        var index = 0
        for connection in connections {
            html +=
                "<section class=\"connection\" id=\"\(htmlEscape(connection.id))\"><h2>\(htmlEscape(connection.name)) "
            html +=
                "<small>\(htmlEscape(connection.id)) — <a href=\"/playground/live?connection=\(queryEscape(connection.id))\">try it live</a></small></h2>"
            for code in locales {
                if locales.count > 1 { html += "<h3>\(htmlEscape(code))</h3>" }
                html += "<table><tr><th>state</th>"
                for style in [ConnectButtonStyle.light, .dark] { html += "<th>\(style.rawValue)</th>" }
                html += "</tr>"
                for state in ConnectButtonVisualState.allExamples {
                    html += "<tr><td><code>\(htmlEscape(state.name))</code></td>"
                    for style in [ConnectButtonStyle.light, .dark] {
                        index += 1
                        let appearance = ConnectButtonAppearance(
                            state: state, connection: connection,
                            localization: ConnectLocalization(identifier: code), style: style)
                        html +=
                            "<td class=\"button\">"
                            + ConnectButtonSVGRenderer.render(appearance, options: .init(idPrefix: "b\(index)"))
                            + "</td>"
                    }
                    html += "</tr>"
                }
                html += "</table>"
            }
            html += "</section>"
        }
        if connections.isEmpty { html += "<p>No Connections are seeded.</p>" }
        return html + "</body></html>"
    }

    /// The live page of one controller.
    @MainActor
    static func live(_ session: PlaygroundSessions.Session) -> String {
        let controller = session.controller
        let step = controller.step
        let id = htmlEscape(session.connectionId)
        let busy: Bool
        switch step {
        case .initial, .connected, .enterEmail, .loadingFailed: busy = false
        default: busy = true
        }
        var html = head(title: "Live: \(session.connectionId)", refresh: busy || session.web.url != nil)
        html += "<h1>Live Connect Button: \(htmlEscape(controller.connection?.name ?? session.connectionId))</h1>"
        html +=
            "<p><a href=\"/playground\">← all buttons</a> · <a href=\"/sandbox/sdk_events\">analytics events</a></p>"
        let appearance = ConnectButtonAppearance(
            state: ConnectButtonVisualState(step: step, email: session.email),
            connection: controller.connection, localization: .english)
        html +=
            "<div class=\"button\" id=\"live-button\">"
            + ConnectButtonSVGRenderer.render(appearance, options: .init(idPrefix: "live")) + "</div>"
        html += "<p>Step: <code id=\"step\">\(htmlEscape(String(describing: step)))</code></p>"
        let hidden = "<input type=\"hidden\" name=\"connection\" value=\"\(id)\">"
        if case .enterEmail = step {
            html += "<form method=\"post\" action=\"/playground/live/email\">\(hidden)"
            html +=
                "<input type=\"email\" name=\"email\" value=\"\(htmlEscape(session.email))\"> <button>Continue</button></form>"
        } else {
            html +=
                "<form method=\"post\" action=\"/playground/live/tap\">\(hidden)<button id=\"tap\">Tap the button</button></form>"
        }
        if let url = session.web.url {
            html += "<p>The controller opened the activation page: "
            html +=
                "<a id=\"activation\" href=\"\(htmlEscape(url.absoluteString))\">\(htmlEscape(url.absoluteString))</a></p>"
        }
        html +=
            "<form method=\"post\" action=\"/playground/live/cancel\">\(hidden)<button>Cancel activation</button></form>"
        html += "<form method=\"post\" action=\"/playground/live/reset\">\(hidden)<button>Reset</button></form>"
        html +=
            "<h2>Funnel events</h2><ol id=\"log\">"
            + session.log.map { "<li><code>\(htmlEscape($0))</code></li>" }.joined()
            + "</ol>"
        return html + "</body></html>"
    }

    private static func head(title: String, refresh: Bool) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>\(htmlEscape(title))</title>\
        \(refresh ? "<meta http-equiv=\"refresh\" content=\"1\">" : "")\
        <style>body{font-family:sans-serif;margin:16px}table{border-collapse:collapse}\
        td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left}td.button svg{display:block}\
        form{display:inline-block;margin:8px 8px 0 0}</style></head><body>
        """
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
