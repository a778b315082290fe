import Foundation
import Hummingbird

/// An HTTP header name (`HTTPField.Name` of swift-http-types, reached through Hummingbird's `HTTPFields`).
typealias HeaderName = HTTPFields.Element.Name

/// Header names of the IFTTT Connect API.
enum IFTTTHeader {
    /// `IFTTT-Service-Key`: a service's secret key (backend calls).
    static let serviceKey = HeaderName("IFTTT-Service-Key")!
    /// `IFTTT-Invite-Code`: unlocks an unpublished connection.
    static let inviteCode = HeaderName("IFTTT-Invite-Code")!
}

extension Request {
    /// The percent-decoded value of the first query parameter `name`, or `nil`. A `+` stays a `+`: clients that
    /// build queries with `URLComponents` leave it unencoded in e-mail addresses.
    func query(_ name: String) -> String? {
        guard let query = uri.query, !query.isEmpty else { return nil }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard Self.percentDecoded(parts[0]) == name else { continue }
            return parts.count > 1 ? Self.percentDecoded(parts[1]) : ""
        }
        return nil
    }

    /// `text` percent-decoded (as it is when it is not valid percent-encoding); text without `%` is returned as it
    /// is, without Foundation's decoder.
    static func percentDecoded(_ text: Substring) -> String {
        let raw = String(text)
        guard text.utf8.contains(UInt8(ascii: "%")) else { return raw }
        return raw.removingPercentEncoding ?? raw
    }

    /// A non-empty header value, trimmed.
    func header(_ name: HeaderName) -> String? {
        guard let value = headers[name].map(Self.trimmed), !value.isEmpty else { return nil }
        return value
    }

    /// `value` without leading and trailing `CharacterSet.whitespaces`. A value that starts and ends with a visible
    /// ASCII character (every token and key) is returned as it is, without the character set's slower scan.
    static func trimmed(_ value: String) -> String {
        let utf8 = value.utf8
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return value
        }
        return value.trimmingCharacters(in: .whitespaces)
    }

    /// The whole request body. ``BodyLimitMiddleware`` has already collected it within the size limit.
    mutating func bodyData() async throws -> Data {
        let buffer = try await collectBody(upTo: BodyLimitMiddleware.limit)
        return Data(buffer.readableBytesView)
    }
}

extension SandboxRequestContext {
    /// The percent-decoded path parameter `name` (empty when absent).
    func pathParameter(_ name: String) -> String {
        let raw = parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}
