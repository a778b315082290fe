import Foundation
import NIOConcurrencyHelpers
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The local user owning each open connection's client socket, learnt once per connection when it is accepted
/// (``PeerOwnerLookup``) and read by every request of that connection (``RequestSource``).
///
/// Process-wide on purpose: Hummingbird makes each request's context from the channel alone, so the request context
/// cannot be handed the server's objects; the key is the connection's address pair (client and server address and
/// port), which the kernel gives to one live connection at a time, so servers in one process cannot collide. An
/// entry lives while its connection is open: at most as many as the sandbox's connection cap.
final class PeerOwners: Sendable {
    static let shared = PeerOwners()

    private let owners = NIOLockedValueBox([String: UInt32]())

    /// The key of the connection `client` → `server`.
    static func key(client: SocketAddress, server: SocketAddress) -> String? {
        guard let clientIP = client.ipAddress, let clientPort = client.port, let serverIP = server.ipAddress,
            let serverPort = server.port
        else { return nil }
        return "\(clientIP)|\(clientPort)|\(serverIP)|\(serverPort)"
    }

    /// The owner learnt for the connection `client` → `server`, if any.
    func owner(client: SocketAddress, server: SocketAddress) -> UInt32? {
        guard let key = Self.key(client: client, server: server) else { return nil }
        return owners.withLockedValue { $0[key] }
    }

    func record(_ owner: UInt32, key: String) {
        owners.withLockedValue { $0[key] = owner }
    }

    func forget(key: String) {
        _ = owners.withLockedValue { $0.removeValue(forKey: key) }
    }

    /// How many connections have a known owner (tests of the bound).
    var count: Int { owners.withLockedValue { $0.count } }
}

/// Learns the owner of a loopback connection's client socket once, when the connection opens, with one targeted
/// `sock_diag` query (``SocketDiagnostics``): a lookup by the connection's address pair in the kernel's socket hash,
/// whose cost does not depend on how many other sockets the machine has. Forgets it when the connection closes.
final class PeerOwnerLookup: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private var key: String?

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { learn(context.channel) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if key == nil { learn(context.channel) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        forget()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        forget()
    }

    private func learn(_ channel: Channel) {
        guard key == nil, let client = channel.remoteAddress, let server = channel.localAddress,
            let key = PeerOwners.key(client: client, server: server)
        else { return }
        self.key = key
        if let owner = SocketDiagnostics.owner(client: client, server: server) {
            PeerOwners.shared.record(owner, key: key)
        }
    }

    private func forget() {
        if let key { PeerOwners.shared.forget(key: key) }
        key = nil
    }
}

/// One `NETLINK_SOCK_DIAG` request (`inet_diag_req_v2` without `NLM_F_DUMP`): the kernel looks the TCP socket up by
/// its exact address pair and answers with its `inet_diag_msg`, which names its owner's uid. Readable without
/// privileges, as `ss` shows. Bounded: one datagram each way, with a 100 ms receive timeout.
enum SocketDiagnostics {
    /// The uid owning the TCP socket whose local end is `client` and remote end is `server` (Linux only).
    static func owner(client: SocketAddress, server: SocketAddress) -> UInt32? {
        #if os(Linux)
        guard let clientIP = client.ipAddress, let clientPort = client.port, let serverIP = server.ipAddress,
            let serverPort = server.port
        else { return nil }
        // A client that reached an every-interface IPv6 listener over IPv4 owns an IPv4 socket: ask for that first.
        if let client4 = RequestSource.unmapped(clientIP), let server4 = RequestSource.unmapped(serverIP),
            let owner = query(family: AF_INET, client4, clientPort, server4, serverPort)
        {
            return owner
        }
        guard clientIP.contains(":") else { return nil }
        return query(family: AF_INET6, clientIP, clientPort, serverIP, serverPort)
        #else
        return nil
        #endif
    }

    #if os(Linux)
    private static let sockDiagByFamily: UInt16 = 20
    private static let netlinkError: UInt16 = 2

    private static func query(
        family: Int32, _ sourceIP: String, _ sourcePort: Int, _ destinationIP: String, _ destinationPort: Int
    ) -> UInt32? {
        var source = [UInt8](repeating: 0, count: 16)
        var destination = [UInt8](repeating: 0, count: 16)
        guard inet_pton(family, sourceIP, &source) == 1, inet_pton(family, destinationIP, &destination) == 1 else {
            return nil
        }
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 4)  // NETLINK_SOCK_DIAG
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        // nlmsghdr (16 bytes) + inet_diag_req_v2 (56 bytes), in host byte order but for ports and addresses.
        var request = [UInt8]()
        func append32(_ value: UInt32) { withUnsafeBytes(of: value) { request += $0 } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value) { request += $0 } }
        append32(72)  // nlmsg_len
        append16(sockDiagByFamily)  // nlmsg_type
        append16(1)  // NLM_F_REQUEST: one socket, no dump
        append32(1)  // nlmsg_seq
        append32(0)  // nlmsg_pid
        request += [UInt8(family), UInt8(IPPROTO_TCP), 0, 0]  // sdiag_family, sdiag_protocol, idiag_ext, pad
        append32(0xFFF)  // idiag_states: every state
        append16(UInt16(sourcePort).bigEndian)
        append16(UInt16(destinationPort).bigEndian)
        request += source
        request += destination
        append32(0)  // idiag_if
        append32(UInt32.max)  // idiag_cookie: INET_DIAG_NOCOOKIE
        append32(UInt32.max)

        // Unaddressed, a netlink datagram goes to the kernel (port id 0).
        let sent = send(fd, request, request.count, 0)
        guard sent == request.count else { return nil }
        var reply = [UInt8](repeating: 0, count: 1024)
        let received = recv(fd, &reply, reply.count, 0)
        // nlmsghdr, then inet_diag_msg: family, state, timer, retrans (4), id (48), expires, rqueue, wqueue (12), uid.
        guard received >= 16 + 68 else { return nil }
        let type = reply[4..<6].withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }
        guard type == sockDiagByFamily else { return nil }
        return reply[80..<84].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }
    #endif
}
