import Foundation
import Hummingbird
import Logging

/// Refuses requests whose `Host` is not one of the sandbox's own names: DNS rebinding (a page at `evil.example`
/// whose name then resolves to 127.0.0.1) reaches a loopback server with `Host: evil.example:PORT`, and the page's
/// own `Origin` matches that `Host`, so the same-origin check alone lets it post forms and read answers.
///
/// Allowed: `localhost`, IPv4 addresses in 127.0.0.0/8, `::1`, and, when the sandbox listens beyond loopback, the
/// network addresses a device there types (``SandboxHost/networkAddresses``: the LAN address, or every interface
/// address for `0.0.0.0`), any port (a forwarded port keeps working). Never a name but `localhost`. Anything else is
/// 403 (an HTML page on the pages' paths, the error envelope elsewhere); a request without `Host` is 400.
struct HostAllowListMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext
    let logger: Logger
    /// Where the sandbox listens: its network addresses are allowed besides the loopback names.
    let listening: SandboxHost

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let authority = request.head.authority, !authority.isEmpty else {
            throw APIError.badRequest("The Host header is required.")
        }
        let host = Self.hostname(authority)
        if Self.isAllowed(host, networkAddresses: listening.networkAddresses) {
            return try await next(request, context)
        }
        logger.warning("\(request.method) \(request.uri.path): refused a request for another host")
        let message = "This sandbox answers only for its own host names (localhost, 127.0.0.1, [::1])."
        if SameOriginMiddleware.isPage(request.uri.path) { return WebActivationPages.error(.forbidden, message) }
        throw APIError.forbidden(message)
    }

    /// The host name of a `Host` value, lower-cased, without port or IPv6 brackets.
    static func hostname(_ authority: String) -> String {
        let lower = authority.lowercased()
        if lower.hasPrefix("[") {
            return String(lower.dropFirst().prefix { $0 != "]" })
        }
        return String(lower.prefix { $0 != ":" })
    }

    static func isAllowed(_ host: String, networkAddresses: [String]) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        if networkAddresses.contains(host) { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { $0.count <= 3 && UInt8($0) != nil && ($0 == "0" || !$0.hasPrefix("0")) }
    }
}
