import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectDesktop

/// The kernel's answer to "who owns the client's socket", which the receiver's launch check and per-peer limit use.
@Suite("Socket owner", .enabled(if: SocketOwner.isSupported, "only Linux says who owns a socket"))
struct SocketOwnerTests {
    /// A listener on 127.0.0.1 and a client connected to it; `body` gets both endpoints.
    static func withConnection(_ body: (LoopbackEndpoint, LoopbackEndpoint) throws -> Void) throws {
        let receiver = try LoopbackRedirectReceiver(path: "/cb")
        defer { receiver.stop() }
        let client = try LoopbackTestClient(port: receiver.port)
        defer { client.shut() }
        try body(
            LoopbackEndpoint(address: LoopbackEndpoint.loopback, port: client.localPort),
            LoopbackEndpoint(address: LoopbackEndpoint.loopback, port: receiver.port))
    }

    #if os(Linux)
    @Test func sockDiagNamesThisProcesssUser() throws {
        try Self.withConnection { client, server in
            #expect(SocketOwner.diagnosticOwner(of: client, connectedTo: server) == UInt32(geteuid()))
            // The server's own end is another socket: asking for it the wrong way round finds the server's.
            #expect(SocketOwner.diagnosticOwner(of: server, connectedTo: client) == UInt32(geteuid()))
            let nobody = LoopbackEndpoint(address: LoopbackEndpoint.loopback, port: 1)
            #expect(SocketOwner.diagnosticOwner(of: nobody, connectedTo: server) == nil)
        }
    }

    @Test func procNetTCPNamesThisProcesssUser() throws {
        try Self.withConnection { client, server in
            #expect(SocketOwner.procOwner(of: client, connectedTo: server) == UInt32(geteuid()))
            #expect(SocketOwner.procOwner(of: client, connectedTo: server, table: "/no/such/table") == nil)
        }
    }

    @Test func procNetTCPLinesAreMatchedByBothEnds() {
        // 127.0.0.1:44000 → 127.0.0.1:8123, uid 1001, as the kernel prints it (address read natively on x86).
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1FBB 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 0
               1: 0100007F:ABE0 0100007F:1FBB 01 00000000:00000000 00:00000000 00000000  1001        0 2 1 0 0
            """
        let client = LoopbackEndpoint(address: LoopbackEndpoint.loopback, port: 44000)
        let server = LoopbackEndpoint(address: LoopbackEndpoint.loopback, port: 8123)
        let expected: UInt32? = UInt32(1).bigEndian == 1 ? nil : 1001  // the table is little-endian
        #expect(SocketOwner.procOwner(of: client, connectedTo: server, inTable: table) == expected)
        #expect(SocketOwner.procOwner(of: server, connectedTo: client, inTable: table) == nil)
    }
    #endif
}
