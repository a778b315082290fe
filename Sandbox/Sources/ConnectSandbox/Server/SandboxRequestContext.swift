import Foundation
import Hummingbird
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The sandbox's request context: Hummingbird's basic storage plus both ends of the connection, so sign-in
/// throttling can count per source (``RequestSource``).
struct SandboxRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's end of the connection.
    let remoteAddress: SocketAddress?
    /// The sandbox's end of the connection.
    let localAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        localAddress = source.channel.localAddress
    }

    /// Who sends the request, as far as the sandbox can tell (``RequestSource``).
    var source: String { RequestSource.key(remote: remoteAddress, local: localAddress) }
}

/// Who a request comes from, for per-source limits. Over loopback every local user has the address 127.0.0.1, so
/// on Linux the source is the local user owning the client's socket, learnt once per connection when it opens
/// (``PeerOwnerLookup``: one targeted `sock_diag` query, whose cost no other user's sockets change): another local
/// user flooding the sandbox counts as himself, not as everyone. Elsewhere, and for clients on other hosts (`--host`
/// on a LAN address), the source is the client's IP address, an IPv4-mapped IPv6 address (`::ffff:10.0.0.5`, as an
/// every-interface `--host ::` sees IPv4 clients) written as the IPv4 address it is, so both forms are one source.
enum RequestSource {
    /// `uid:N` for a client whose socket owner the kernel named, else `ip:ADDRESS`.
    static func key(remote: SocketAddress?, local: SocketAddress?) -> String {
        guard let remote, let ip = remote.ipAddress else { return "unknown" }
        if let local, let owner = PeerOwners.shared.owner(client: remote, server: local) { return "uid:\(owner)" }
        return "ip:\(unmapped(ip) ?? ip)"
    }

    /// The IPv4 address `ip` is: itself when it is one, the embedded one of an IPv4-mapped IPv6 address
    /// (`::ffff:a.b.c.d`, any spelling); `nil` for any other IPv6 address.
    static func unmapped(_ ip: String) -> String? {
        #if canImport(Glibc)
        var v4 = in_addr()
        if inet_pton(AF_INET, ip, &v4) == 1 { return ip }
        var v6 = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, ip, &v6) == 1, v6[0..<10].allSatisfy({ $0 == 0 }), v6[10] == 0xFF, v6[11] == 0xFF
        else { return nil }
        return v6[12...].map(String.init).joined(separator: ".")
        #else
        return nil
        #endif
    }
}
