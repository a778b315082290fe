import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the sandbox listens, decided from the configured host by **address**, never by name (issue 30, hole 9:
/// `--host 127.evil.example` passed a name check and, resolving to 0.0.0.0, listened on every interface).
///
/// * An IP address is taken as written: a loopback address (127.0.0.0/8, `::1`); `0.0.0.0` or `::` (every
///   interface); or one of this machine's own network addresses (a LAN address, so a physical phone can reach the
///   sandbox: issue 27, item 3).
/// * A name must resolve to loopback addresses only; the sandbox binds the first of them, so a later answer of the
///   name server changes nothing. `localhost` is `127.0.0.1`. To listen beyond this machine, the address itself
///   must be given.
///
/// Beyond loopback, the `Host` allow-list also takes the addresses a device on the network types (the LAN address,
/// or with a wildcard every address of this machine's interfaces); names stay refused (DNS rebinding), and nothing
/// else about the sandbox's security changes.
public struct SandboxHost: Sendable, Equatable {
    /// The numeric address to bind.
    public let bindAddress: String
    /// Whether the sandbox is reachable from this machine only.
    public let isLoopback: Bool
    /// The addresses, besides the loopback names, that requests may name in `Host`, and that a phone on the same
    /// network types (`http://ADDRESS:PORT`): the LAN address, or every non-loopback interface address for a
    /// wildcard. Empty on loopback.
    public let networkAddresses: [String]

    /// Decides where `host` listens.
    ///
    /// - Throws: ``SandboxError/invalidConfiguration(parameter:message:)`` for a name that does not resolve, or that
    ///   resolves to anything but loopback, and for an address that is not this machine's.
    public static func resolve(_ host: String) throws(SandboxError) -> SandboxHost {
        try resolve(host, resolver: resolveName, interfaces: interfaceAddresses)
    }

    /// ``resolve(_:)`` with the name resolver and the interface list given (tests).
    static func resolve(
        _ host: String, resolver: (String) -> [String], interfaces: () -> [String]
    ) throws(SandboxError) -> SandboxHost {
        let trimmed = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if trimmed.lowercased() == "localhost" {
            return SandboxHost(bindAddress: "127.0.0.1", isLoopback: true, networkAddresses: [])
        }
        if let numeric = numericAddress(trimmed) {
            if isLoopback(numeric) {
                return SandboxHost(bindAddress: numeric, isLoopback: true, networkAddresses: [])
            }
            let known = interfaces()
            if numeric == "0.0.0.0" || numeric == "::" {
                let family = numeric == "::" ? known : known.filter { !$0.contains(":") }
                return SandboxHost(
                    bindAddress: numeric, isLoopback: false, networkAddresses: family.filter { !isLoopback($0) })
            }
            guard known.contains(numeric) else {
                throw .invalidConfiguration(
                    parameter: "host",
                    message:
                        "\(numeric) is not an address of this machine (its addresses: \(known.joined(separator: ", ")))"
                )
            }
            return SandboxHost(bindAddress: numeric, isLoopback: false, networkAddresses: [numeric])
        }
        let resolved = resolver(trimmed)
        guard let first = resolved.first else {
            throw .invalidConfiguration(parameter: "host", message: "\(host) does not resolve to an address")
        }
        guard resolved.allSatisfy(isLoopback) else {
            throw .invalidConfiguration(
                parameter: "host",
                message:
                    "\(host) resolves to \(resolved.joined(separator: ", ")), not only loopback addresses; to listen "
                    + "beyond this machine give the address itself (--host 0.0.0.0 or a LAN address)")
        }
        return SandboxHost(bindAddress: first, isLoopback: true, networkAddresses: [])
    }

    /// The warning the CLI prints when the sandbox listens beyond loopback, with the URLs to type into an app on
    /// another device.
    public func networkWarning(port: Int) -> String? {
        guard !isLoopback else { return nil }
        let urls = networkAddresses.map { SandboxURLs.baseURL(host: $0, port: port).absoluteString }
        return """
            warning: the sandbox listens on \(bindAddress), reachable by every device on your network. It is a test \
            server: demo accounts with published passwords, plain HTTP, no rate of a real service. Stop it when you \
            are done.
            On a phone on the same network, use \(urls.isEmpty ? "this machine's address" : urls.joined(separator: " or "))
            """
    }

    /// `text` in canonical numeric form when it is an IPv4 or IPv6 address, else `nil`.
    static func numericAddress(_ text: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return format(AF_INET, &v4, Int(INET_ADDRSTRLEN)) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return format(AF_INET6, &v6, Int(INET6_ADDRSTRLEN)) }
        return nil
    }

    private static func format(_ family: Int32, _ address: UnsafeRawPointer, _ length: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: length)
        guard inet_ntop(family, address, &buffer, socklen_t(length)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether a canonical numeric address is loopback (127.0.0.0/8, `::1`, `::ffff:127.x.x.x`).
    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.lowercased().hasPrefix("::ffff:127.")
    }

    /// Every address `name` resolves to, canonical and numeric.
    static func resolveName(_ name: String) -> [String] {
        var hints = addrinfo()
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var node = list
        while let entry = node?.pointee {
            if let address = socketAddress(entry.ai_addr), !addresses.contains(address) { addresses.append(address) }
            node = entry.ai_next
        }
        return addresses
    }

    /// The addresses of this machine's interfaces, canonical and numeric.
    static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var node = list
        while let entry = node?.pointee {
            if let address = socketAddress(entry.ifa_addr), !addresses.contains(address) { addresses.append(address) }
            node = entry.ifa_next
        }
        return addresses
    }

    private static func socketAddress(_ pointer: UnsafeMutablePointer<sockaddr>?) -> String? {
        guard let pointer else { return nil }
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET:
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                var address = $0.pointee.sin_addr
                return format(AF_INET, &address, Int(INET_ADDRSTRLEN))
            }
        case AF_INET6:
            return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                var address = $0.pointee.sin6_addr
                let linkLocal = withUnsafeBytes(of: address) { $0[0] == 0xfe && ($0[1] & 0xc0) == 0x80 }
                guard !linkLocal else {
                    return nil  // link-local addresses need a zone to be typed
                }
                return format(AF_INET6, &address, Int(INET6_ADDRSTRLEN))
            }
        default:
            return nil
        }
    }
}
