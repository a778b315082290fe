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
            let key = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            guard key == name else { continue }
            let raw = parts.count > 1 ? String(parts[1]) : ""
            return raw.removingPercentEncoding ?? raw
        }
        return nil
    }

    /// A non-empty header value, trimmed.
    func header(_ name: HeaderName) -> String? {
        guard let value = headers[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
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
