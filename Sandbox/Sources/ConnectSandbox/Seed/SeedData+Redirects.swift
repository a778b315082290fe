import Foundation
import GRDB

/// A redirect URL registered for a service (IFTTT's "embedded redirects", `services[].redirect_uris` in a seed
/// file), and the rule that says whether a requested redirect matches it.
///
/// IFTTT's docs say the `redirect_uri` "must be registered to your service on the IFTTT Platform or omitted", and do
/// not spell out how a URL is compared. The sandbox compares scheme and host (both case-insensitively), port and path
/// exactly; the requested URL may add a query (the redirect's own parameters are appended to it) but never a fragment
/// or user info. So register the exact URL your app sends.
///
/// One sandbox convenience, listed in `docs/sandbox-differences.md`: a registration on a loopback host
/// (`127.0.0.1`, `localhost`, `[::1]`) may give `*` as its port, which matches any port, because desktop programs and
/// tests receive the redirect on a port the system picks (as RFC 8252 §7.3 lets native apps do).
struct RedirectRegistration: Sendable, Equatable {
    /// The registration as written in the seed.
    let text: String
    private let scheme: String
    private let host: String
    /// `nil`: any port (loopback only); otherwise the port, or `-1` for none.
    private let port: Int?
    private let path: String

    /// The loopback hosts on which `*` ports are allowed.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "[::1]", "::1"]

    /// Parses a registration; `nil` (with the reason in `problem`) when it is not an absolute URL without query,
    /// fragment or user info, or uses `*` as the port on a host that is not loopback.
    init?(_ text: String, problem: inout String) {
        let anyPort = text.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*://[^/]*:\*(/|$)"#, options: .regularExpression) != nil
        let parseable = anyPort ? text.replacingOccurrences(of: ":*", with: "", options: [], range: nil) : text
        guard let parts = URLComponents(string: parseable), let scheme = parts.scheme?.lowercased() else {
            problem = "is not an absolute URL"
            return nil
        }
        guard parts.query == nil, parts.fragment == nil, parts.user == nil, parts.password == nil else {
            problem = "must not have a query, fragment or user info"
            return nil
        }
        let host = (parts.host ?? "").lowercased()
        if anyPort, !Self.loopbackHosts.contains(host) {
            problem = "may use the port * only on a loopback host (127.0.0.1, localhost, [::1])"
            return nil
        }
        if ["http", "https"].contains(scheme), host.isEmpty {
            problem = "has no host"
            return nil
        }
        self.text = text
        self.scheme = scheme
        self.host = host
        self.port = anyPort ? nil : (parts.port ?? -1)
        self.path = parts.percentEncodedPath
    }

    /// Whether `url` (a requested `sdk_return_to` or `redirect_uri`) matches this registration.
    func matches(_ url: URLComponents) -> Bool {
        guard url.fragment == nil, url.user == nil, url.password == nil,
            url.scheme?.lowercased() == scheme, (url.host ?? "").lowercased() == host,
            url.percentEncodedPath == path
        else { return false }
        if let port { return (url.port ?? -1) == port }
        return true
    }

    /// Whether `url` matches one of `registrations` (each parsed; unparseable ones match nothing).
    static func accepts(_ url: String, registrations: [String]) -> Bool {
        guard let parts = URLComponents(string: url) else { return false }
        var ignored = ""
        return registrations.contains { RedirectRegistration($0, problem: &ignored)?.matches(parts) ?? false }
    }
}

extension SandboxStore {
    /// Whether `url` is a redirect URL registered for `serviceId` (see ``RedirectRegistration``).
    func acceptsRedirect(_ url: String, serviceId: String) async throws -> Bool {
        guard let service = try await service(id: serviceId) else { return false }
        return RedirectRegistration.accepts(url, registrations: service.redirectURIs)
    }

    /// The seed format's additions to the schema: services' registered redirect URLs, connections' query results.
    static func registerRedirectAndQueryMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v-redirect-uris-and-query-results") { db in
            try db.alter(table: "services") { t in
                t.add(column: "redirect_uris", .jsonText)  // JSON array of strings, NULL = none
            }
            try db.alter(table: "connections") { t in
                t.add(column: "query_results", .jsonText)  // JSON {type_id: [item]}, NULL = none
            }
        }
    }
}
