import Foundation
import NIOConcurrencyHelpers

/// Builds the absolute URLs the sandbox puts into responses, from its own bound base URL
/// (e.g. `http://127.0.0.1:51234`). The base is known only once the server has bound its port.
final class SandboxURLs: Sendable {
    private let base: NIOLockedValueBox<String>

    init(base: String = "http://127.0.0.1") {
        self.base = NIOLockedValueBox(base)
    }

    /// The base URL without a trailing slash.
    var baseURL: String { base.withLockedValue { $0 } }

    private let loopback = NIOLockedValueBox("http://127.0.0.1")

    /// The base URL the sandbox calls itself at (the partner backend's token exchange): on loopback when it listens on
    /// every interface, so that the call never leaves this machine nor needs its LAN address; its bound address
    /// otherwise.
    var selfCallBaseURL: String { loopback.withLockedValue { $0 } }

    /// Sets the base URL once the server is listening, and the one it calls itself at.
    func setBase(_ url: URL, selfCall: URL? = nil) {
        func trimmed(_ url: URL) -> String {
            var text = url.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        base.withLockedValue { $0 = trimmed(url) }
        loopback.withLockedValue { $0 = trimmed(selfCall ?? url) }
    }

    /// `http://host:port` for a bound host and port; wildcard hosts become loopback, IPv6 hosts get brackets.
    static func baseURL(host: String, port: Int) -> URL {
        var host = host
        if host == "0.0.0.0" || host.isEmpty { host = "127.0.0.1" }
        if host == "::" { host = "::1" }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        return URL(string: "http://\(host):\(port)")!
    }

    /// `s` percent-encoded as one path segment.
    static func segment(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? s
    }

    /// `/assets/icons/{service_id}.png`: a white glyph (a PNG, as IFTTT serves icons).
    func monochromeIcon(serviceId: String) -> String {
        "\(baseURL)/assets/icons/\(Self.segment(serviceId)).png"
    }

    /// `/assets/icons/color/{service_id}.png`: the glyph on the brand colour.
    func colorIcon(serviceId: String) -> String {
        "\(baseURL)/assets/icons/color/\(Self.segment(serviceId)).png"
    }

    /// `/assets/covers/{connection_id}/{width}w.svg`.
    func cover(connectionId: String, width: Int) -> String {
        "\(baseURL)/assets/covers/\(Self.segment(connectionId))/\(width)w.svg"
    }

    /// `/v2/connections/{cid}/features/{feature_id}/field_options`.
    func featureFieldOptions(connectionId: String, featureId: String) -> String {
        "\(baseURL)/v2/connections/\(Self.segment(connectionId))/features/\(Self.segment(featureId))/field_options"
    }

    /// `/v2/connections/{cid}/{triggers|queries|actions}/{service.step}/field_options`.
    func stepFieldOptions(connectionId: String, step: SeedData.Step) -> String {
        "\(baseURL)/v2/connections/\(Self.segment(connectionId))/\(step.kind.pathSegment)/\(Self.segment(step.typeId))/field_options"
    }

    /// `/v2/connections/{cid}/actions/{service.action}/run` for actions; `nil` for triggers and queries.
    func run(connectionId: String, step: SeedData.Step) -> String? {
        guard step.kind == .action else { return nil }
        return "\(baseURL)/v2/connections/\(Self.segment(connectionId))/actions/\(Self.segment(step.typeId))/run"
    }

    /// The legacy Applet's `embedded_url`: `/embed/{service_id}/applets/{applet_id}` (served by the sandbox, as
    /// `https://ifttt.com/embed/...` is by IFTTT).
    func embed(serviceId: String, appletId: String) -> String {
        "\(baseURL)/embed/\(Self.segment(serviceId))/applets/\(Self.segment(appletId))"
    }
}
