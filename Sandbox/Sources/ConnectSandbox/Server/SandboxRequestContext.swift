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
/// on Linux the source is the local user owning the client's socket (the `uid` column of `/proc/net/tcp` and
/// `/proc/net/tcp6`, readable without privileges): another local user flooding the sandbox counts as himself, not
/// as everyone. Elsewhere, and for clients on other hosts (`--host` on a LAN address), the source is the client's
/// IP address.
enum RequestSource {
    /// `uid:N` for a loopback client whose socket owner the kernel names, else `ip:ADDRESS`.
    static func key(remote: SocketAddress?, local: SocketAddress?) -> String {
        guard let remote, let ip = remote.ipAddress else { return "unknown" }
        if let local, let owner = owner(client: remote, server: local) { return "uid:\(owner)" }
        return "ip:\(ip)"
    }

    /// The uid owning the socket `client` → `server`, from `/proc/net/tcp{,6}` (Linux only).
    static func owner(client: SocketAddress, server: SocketAddress) -> UInt32? {
        #if os(Linux)
        guard let clientPort = client.port, let serverPort = server.port, let clientIP = client.ipAddress,
            let serverIP = server.ipAddress
        else { return nil }
        for (file, family) in [("/proc/net/tcp", AF_INET), ("/proc/net/tcp6", AF_INET6)] {
            guard let local = procAddress(clientIP, port: clientPort, family: family),
                let remote = procAddress(serverIP, port: serverPort, family: family),
                // Read to the end: /proc files report a size of 0, which whole-file readers take at its word.
                let handle = FileHandle(forReadingAtPath: file),
                let table = String(data: (try? handle.readToEnd()) ?? Data(), encoding: .ascii)
            else { continue }
            for line in table.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count > 7, columns[1] == local, columns[2] == remote else { continue }
                return UInt32(columns[7])
            }
        }
        return nil
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// An address as `/proc/net/tcp` writes it: each 32-bit word of the address in host byte order, then the port.
    static func procAddress(_ ip: String, port: Int, family: Int32) -> Substring? {
        let size = family == AF_INET ? 4 : 16
        var bytes = [UInt8](repeating: 0, count: size)
        guard inet_pton(family, ip, &bytes) == 1 else { return nil }
        var text = ""
        for word in stride(from: 0, to: size, by: 4) {
            let value = bytes[word..<word + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            text += String(format: "%08X", value)
        }
        return Substring(text + String(format: ":%04X", port))
    }
    #endif
}
