import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTConnectCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw TCP client on 127.0.0.1 for the loopback receiver's tests: it can connect and stay idle, send one
/// byte at a time, and read a response with a deadline (poll, never a sleep).
final class LoopbackTestClient: Sendable {
    enum Failure: Error { case socket, connect, timeout, closed }

    private let fd: Int32
    private let closed = Locked(false)

    /// Connects to 127.0.0.1:`port`, from `source` (an address of 127.0.0.0/8 in host byte order) when given.
    init(port: UInt16, from source: UInt32? = nil) throws {
        #if os(Linux)
        let type = Int32(SOCK_STREAM.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw Failure.socket }
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = in_addr_t(source.bigEndian)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw Failure.socket
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure.connect
        }
    }

    deinit { shut() }

    /// The client's own port.
    var localPort: UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Sends `bytes`; returns false when the peer closed.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        while offset < bytes.count {
            let start = offset
            let sent = bytes.withUnsafeBytes { Glibc_send(fd, $0.baseAddress! + start, bytes.count - start, flags) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads until the peer closes or `timeout` passes; throws `timeout` if nothing complete arrived.
    func readAll(timeout: Duration) throws -> String {
        let deadline = ContinuousClock.now + timeout
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw Failure.timeout }
            let milliseconds = Int32(
                max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return String(decoding: data, as: UTF8.self) }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Whether the peer closed or reset the connection (checked without waiting).
    func wasReset() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Closes the socket (once).
    func shut() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { close(fd) }
    }
}

/// `send(2)` under a name that does not clash with the method.
private func Glibc_send(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, pointer, count, flags)
}

/// A client that sends a request one byte at a time, one byte every `interval`, on its own thread, until it has
/// sent everything, the peer closes, or it is stopped. Records when the peer closed the connection.
final class DribblingClient: Sendable {
    private struct State {
        var stopped = false
        var closedAt: ContinuousClock.Instant?
    }

    private let client: LoopbackTestClient
    private let state = Locked(State())
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    let connectedAt: ContinuousClock.Instant

    init(port: UInt16, request: String, interval: Duration) throws {
        client = try LoopbackTestClient(port: port)
        connectedAt = .now
        let bytes = request.map(String.init)
        let thread = Thread { [self] in
            var first = true
            for byte in bytes {
                if state.withLock({ $0.stopped }) { break }
                if !client.send(byte) {
                    state.withLock { $0.closedAt = $0.closedAt ?? .now }
                    break
                }
                if first {
                    started.signal()
                    first = false
                }
                // Wait `interval` or until the server closes the connection.
                if (try? client.readAll(timeout: interval)) != nil {
                    state.withLock { $0.closedAt = $0.closedAt ?? .now }
                    break
                }
            }
            if first { started.signal() }
            finished.signal()
        }
        thread.start()
        started.wait()
    }

    /// When the server closed the connection, if it did.
    var serverClosedAt: ContinuousClock.Instant? { state.withLock { $0.closedAt } }

    /// Waits until the sending thread ends (the server closed, or everything was sent), at most `timeout`.
    func waitUntilDone(timeout: Duration) -> Bool {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        return finished.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }

    func stop() {
        state.withLock { $0.stopped = true }
        client.shut()
    }
}

extension RedirectVerifier {
    /// A verifier for connection `c1` whose flow started with `token`: that token vouches for itself, and the Connect
    /// API (a recording transport) says the Connection is on for its user.
    static func vouching(for token: String) -> RedirectVerifier {
        let api = RecordingTransport { _ in
            HTTPResponse(
                statusCode: 200,
                body: Data(
                    #"{"type":"connection","id":"c1","name":"N","description":"D","url":"https://ifttt.com/c1","user_status":"enabled","services":[{"service_id":"gx","service_name":"Grocery Express","is_primary":true}]}"#
                        .utf8))
        }
        return RedirectVerifier(
            voucher: .startingToken(RedactedToken(value: token)),
            network: ConnectionNetworkController(
                configuration: .init(transport: api, anonymousId: "test", callbackQueue: nil)),
            connectionId: "c1", inviteCode: nil, userVerifier: nil, allowsUnvouchedToken: false)
    }
}
