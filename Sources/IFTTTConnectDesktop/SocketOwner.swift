import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One end of a TCP connection on IPv4: the address in host byte order and the port.
struct LoopbackEndpoint: Hashable, Sendable {
    var address: UInt32
    var port: UInt16

    /// `127.0.0.1`.
    static let loopback: UInt32 = 0x7F00_0001
}

/// Which local user owns the socket at the other end of a loopback connection.
///
/// On Linux the kernel says, without privileges: first through `sock_diag` (a netlink query for the one socket
/// whose local end is the client's endpoint and whose remote end is ours, what `ss` uses), then, if netlink is
/// unavailable, through the `uid` column of `/proc/net/tcp`. Elsewhere ``isSupported`` is `false` and
/// ``owner(of:connectedTo:)`` returns `nil`.
enum SocketOwner {
    /// Whether this system can tell who owns a client's socket.
    static var isSupported: Bool {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }

    /// The user id owning the TCP socket whose local end is `client` and whose remote end is `server`, or `nil`
    /// when the system cannot tell (the client closed, or the system has no such query).
    static func owner(of client: LoopbackEndpoint, connectedTo server: LoopbackEndpoint) -> UInt32? {
        #if os(Linux)
        return diagnosticOwner(of: client, connectedTo: server) ?? procOwner(of: client, connectedTo: server)
        #else
        return nil
        #endif
    }

    #if os(Linux)
    private static let netlinkSockDiag: Int32 = 4  // NETLINK_SOCK_DIAG
    private static let sockDiagByFamily: UInt16 = 20  // SOCK_DIAG_BY_FAMILY
    private static let netlinkRequest: UInt16 = 1  // NLM_F_REQUEST
    private static let headerSize = 16  // struct nlmsghdr
    private static let socketIdSize = 48  // struct inet_diag_sockid

    /// Asks `sock_diag` for the one socket `client` → `server` (struct inet_diag_req_v2, no dump).
    static func diagnosticOwner(of client: LoopbackEndpoint, connectedTo server: LoopbackEndpoint) -> UInt32? {
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkSockDiag)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var request = [UInt8]()
        func native<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { request.append(contentsOf: $0) } }
        func network<T: FixedWidthInteger>(_ value: T) { native(value.bigEndian) }
        native(UInt32(headerSize + 8 + socketIdSize))
        native(sockDiagByFamily)
        native(netlinkRequest)
        native(UInt32(1))  // sequence
        native(UInt32(0))  // the kernel
        request += [UInt8(AF_INET), UInt8(IPPROTO_TCP), 0, 0]  // family, protocol, extensions, padding
        native(UInt32.max)  // every TCP state
        network(client.port)
        network(server.port)
        network(client.address)
        request += [UInt8](repeating: 0, count: 12)
        network(server.address)
        request += [UInt8](repeating: 0, count: 12)
        native(UInt32(0))  // any interface
        native(UInt32.max)  // INET_DIAG_NOCOOKIE
        native(UInt32.max)
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { return nil }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, 1000) == 1 else { return nil }
        var reply = [UInt8](repeating: 0, count: 1024)
        let count = recv(fd, &reply, reply.count, Int32(MSG_DONTWAIT))
        // struct inet_diag_msg: family, state, timer, retrans, the socket id, expires, rqueue, wqueue, uid, inode.
        let uidOffset = headerSize + 4 + socketIdSize + 12
        guard count >= uidOffset + 4 else { return nil }
        func read<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
            reply.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        guard read(UInt16.self, at: 4) == sockDiagByFamily,
            UInt16(bigEndian: read(UInt16.self, at: headerSize + 4)) == client.port,
            UInt16(bigEndian: read(UInt16.self, at: headerSize + 6)) == server.port,
            UInt32(bigEndian: read(UInt32.self, at: headerSize + 8)) == client.address
        else { return nil }
        return read(UInt32.self, at: uidOffset)
    }

    /// Finds the socket `client` → `server` in `/proc/net/tcp` (read at most 4 MiB) and returns its `uid` column.
    static func procOwner(
        of client: LoopbackEndpoint, connectedTo server: LoopbackEndpoint, table: String = "/proc/net/tcp"
    ) -> UInt32? {
        let fd = open(table, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count < 4 << 20 {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return procOwner(of: client, connectedTo: server, inTable: String(decoding: bytes, as: UTF8.self))
    }

    /// The `uid` column of the line of `text` (the format of `/proc/net/tcp`) for `client` → `server`.
    static func procOwner(of client: LoopbackEndpoint, connectedTo server: LoopbackEndpoint, inTable text: String)
        -> UInt32?
    {
        // The kernel prints the address as the integer it stores (network byte order read natively) and the port
        // in host order, both in upper-case hexadecimal.
        func column(_ endpoint: LoopbackEndpoint) -> String {
            hex(UInt64(endpoint.address.bigEndian), digits: 8) + ":" + hex(UInt64(endpoint.port), digits: 4)
        }
        let local = column(client)
        let remote = column(server)
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, fields[1] == local, fields[2] == remote else { continue }
            return UInt32(fields[7])
        }
        return nil
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
    #endif
}
