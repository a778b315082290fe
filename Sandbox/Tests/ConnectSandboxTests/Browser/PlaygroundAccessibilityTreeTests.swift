import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

/// The playground's buttons carry the SDK's ``ConnectButtonAccessibility`` as ARIA: headless Chromium's accessibility
/// tree (DevTools protocol `Accessibility.getFullAXTree`, through chromedriver) matches the model element by
/// element, for every seeded Connection, state and style.
@Suite(
    "Playground accessibility tree in Chromium", .serialized,
    .enabled(if: ChromeDriver.isAvailable, "needs chromedriver and Chromium (scripts/bootstrap.sh installs them)"))
struct PlaygroundAccessibilityTreeTests {
    /// One node as the test compares it.
    struct Node: Equatable, CustomStringConvertible {
        var role: String
        var name: String
        var value = ""
        /// The accessible description.
        var detail = ""
        var checked = ""
        var disabled = false

        var description: String {
            "\(role) '\(name)' value '\(value)' description '\(detail)' checked '\(checked)' disabled \(disabled)"
        }
    }

    /// One button: its elements in order and its live region's text.
    struct Button: Equatable {
        var elements: [Node]
        var announcement: String
    }

    /// What the model says Chromium must show: the ARIA mapping documented on `PlaygroundAccessibility`.
    static func expected(_ model: ConnectButtonAccessibility) -> Button {
        Button(
            elements: model.elements.map { element in
                let disabled = element.traits.contains(.notEnabled)
                if element.traits.contains(.toggle) {
                    return Node(
                        role: "switch", name: element.label,
                        detail: [element.value, element.hint].compactMap { $0 }.joined(separator: " "),
                        checked: element.traits.contains(.selected) ? "true" : "false", disabled: disabled)
                }
                if element.traits.contains(.textField) {
                    return Node(
                        role: "textbox", name: element.label, value: element.value ?? "",
                        detail: element.hint ?? "")
                }
                if element.traits.contains(.button) {
                    return Node(role: "button", name: element.label, detail: element.hint ?? "", disabled: disabled)
                }
                return Node(role: "StaticText", name: element.label)
            }, announcement: model.announcement ?? "")
    }

    /// The buttons in Chromium's tree: every group named "Connect Button", in document order.
    static func buttons(in tree: [String: any Sendable]) -> [Button] {
        let nodes = (tree["nodes"] as? [any Sendable] ?? []).compactMap { $0 as? [String: any Sendable] }
        var byId: [String: [String: any Sendable]] = [:]
        for node in nodes { if let id = node["nodeId"] as? String { byId[id] = node } }
        func text(_ node: [String: any Sendable], _ key: String) -> String {
            ((node[key] as? [String: any Sendable])?["value"] as? String) ?? ""
        }
        func property(_ node: [String: any Sendable], _ name: String) -> String? {
            for case let entry as [String: any Sendable] in node["properties"] as? [any Sendable] ?? []
            where entry["name"] as? String == name {
                let value = (entry["value"] as? [String: any Sendable])?["value"]
                if let string = value as? String { return string }
                if let number = value as? Double { return number != 0 ? "true" : "false" }
            }
            return nil
        }
        func children(_ node: [String: any Sendable]) -> [[String: any Sendable]] {
            (node["childIds"] as? [any Sendable] ?? []).compactMap { ($0 as? String).flatMap { byId[$0] } }
        }
        func isIgnored(_ node: [String: any Sendable]) -> Bool {
            (node["ignored"] as? Double ?? 0) != 0
        }
        func allText(_ node: [String: any Sendable]) -> String {
            if text(node, "role") == "StaticText" { return text(node, "name") }
            return children(node).map(allText).joined()
        }
        var buttons: [Button] = []
        func collect(_ node: [String: any Sendable], into button: inout Button) {
            let role = text(node, "role")
            if isIgnored(node) {
                for child in children(node) { collect(child, into: &button) }
                return
            }
            switch role {
            case "switch", "button", "textbox":
                button.elements.append(
                    Node(
                        role: role, name: text(node, "name"), value: role == "textbox" ? text(node, "value") : "",
                        detail: text(node, "description"), checked: property(node, "checked") ?? "",
                        disabled: property(node, "disabled") == "true"))
            case "status":
                button.announcement = allText(node)
            case "StaticText":
                button.elements.append(Node(role: role, name: text(node, "name")))
            default:
                for child in children(node) { collect(child, into: &button) }
            }
        }
        func walk(_ node: [String: any Sendable]) {
            if !isIgnored(node), text(node, "role") == "group", text(node, "name") == "Connect Button" {
                var button = Button(elements: [], announcement: "")
                for child in children(node) { collect(child, into: &button) }
                buttons.append(button)
                return
            }
            for child in children(node) { walk(child) }
        }
        if let root = nodes.first(where: { ($0["parentId"] as? String) == nil }) { walk(root) }
        return buttons
    }

    @Test(arguments: ["en", "de", "ja"])
    func theGalleryCarriesTheModelAsARIA(_ locale: String) async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { url in
            let client = ConnectionNetworkController(configuration: .sandbox(url))
            var connections: [Connection] = []
            for seeded in try SeedData.demo().connections {
                connections.append(
                    try await client.fetchConnection(
                        for: seeded.id, credentialProvider: ConnectionCredentials(inviteCode: seeded.inviteCode)))
            }
            let (tree, html) = try await WebDriverSession.with { session in
                var page = URLComponents(url: url.appendingPathComponent("playground"), resolvingAgainstBaseURL: false)!
                page.queryItems = [URLQueryItem(name: "locale", value: locale)]
                try await session.navigate(to: page.url!)
                try await session.waitForTitle("Connect Button playground")
                return (try await session.accessibilityTree(), try await session.source)
            }
            var expected: [Button] = []
            // The page's order of Connections: its sections' ids.
            let order = html.components(separatedBy: "<section class=\"connection\" id=\"").dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
            #expect(Set(order) == Set(connections.map(\.id)))
            for id in order {
                guard let connection = connections.first(where: { $0.id == id }) else { continue }
                for state in ConnectButtonVisualState.allExamples {
                    let model = ConnectButtonAccessibility(
                        state: state, serviceName: connection.connectingService.shortName,
                        fullServiceName: connection.connectingService.name,
                        localization: ConnectLocalization(identifier: locale))
                    expected += [Self.expected(model), Self.expected(model)]  // light and dark
                }
            }
            let buttons = Self.buttons(in: tree)
            #expect(buttons.count == expected.count)
            for (index, (seen, wanted)) in zip(buttons, expected).enumerated() where seen != wanted {
                Issue.record("button \(index): Chromium shows \(seen), the model says \(wanted)")
                break
            }
            // The tree is the model's, not a copy of a fixed text: the states differ.
            #expect(Set(buttons.map(\.announcement)).count > 5)
            #expect(buttons.contains { $0.elements.contains { $0.role == "textbox" } })
            #expect(buttons.contains { $0.elements.first?.checked == "true" })
        }
    }
}

extension WebDriverSession {
    /// The page's full accessibility tree (`Accessibility.getFullAXTree`, through chromedriver's DevTools bridge).
    func accessibilityTree() async throws -> [String: any Sendable] {
        let value = try await Self.call(
            base, "POST", "/session/\(id)/goog/cdp/execute",
            ["cmd": "Accessibility.getFullAXTree", "params": [String: Any]()])
        guard let tree = value as? [String: any Sendable] else {
            throw ChromeDriver.Failure(description: "no accessibility tree in \(String(describing: value))")
        }
        return tree
    }
}
