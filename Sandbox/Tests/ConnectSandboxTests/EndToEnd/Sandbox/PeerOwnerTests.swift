@testable import ConnectSandbox
import Foundation
import NIOCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The table of connection owners (``PeerOwners``) and the spelling of a source (``RequestSource``).
@Suite("Request sources: the owners table and address forms", .serialized)
struct PeerOwnerTests {
    /// A connection's owner is kept while it is open, and forgotten when it closes: the table holds at most the
    /// open connections.
    @Test func theOwnerIsLearntPerConnectionAndForgotten() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            // (The request's own kept-alive connection stays in the table while it is open.)
            let answer = try await Client(base: base).get("/health")
            #expect(answer.status == 200)
            let before = PeerOwners.shared.count
            #if os(Linux)
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(base.port ?? 0).bigEndian
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            #expect(connected == 0)
            // The sandbox accepts and learns the owner (this process's uid) without any request.
            var learnt = false
            for _ in 0..<200 where !learnt {
                learnt = PeerOwners.shared.count > before
                if !learnt { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(learnt)
            _ = close(client)
            var forgotten = false
            for _ in 0..<200 where !forgotten {
                forgotten = PeerOwners.shared.count <= before
                if !forgotten { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(forgotten)
            #endif
        }
    }

    /// An IPv4-mapped IPv6 address is the IPv4 address it carries, in every spelling; other IPv6 addresses stay.
    @Test func mappedAddressesAreTheirIPv4Address() throws {
        let mapped = try SocketAddress(ipAddress: "::ffff:10.0.0.5", port: 4000)
        let plain = try SocketAddress(ipAddress: "10.0.0.5", port: 4000)
        #expect(RequestSource.key(remote: mapped, local: nil) == "ip:10.0.0.5")
        #expect(RequestSource.key(remote: plain, local: nil) == "ip:10.0.0.5")
        #expect(RequestSource.unmapped("0:0:0:0:0:ffff:a00:5") == "10.0.0.5")
        #expect(RequestSource.unmapped("fd00::2") == nil)
        #expect(RequestSource.unmapped("::1") == nil)
    }

}
