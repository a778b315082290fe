import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives the activation redirect on `http://127.0.0.1:PORT/path`, so a desktop or command-line program
/// can finish the flow in the system browser (the loopback pattern of RFC 8252, §7.3).
///
/// It listens on 127.0.0.1 only, on a port the system picks. A `GET` of the redirect path is handed to a
/// ``ConnectionRedirectHandler``: when the flow accepts it, the browser gets a small "you can close this
/// window" page and the receiver stops; a refused redirect gets 400 and the receiver keeps waiting (so a
/// web page cannot end the flow by guessing). Every other path or method gets 404. Requests are limited to
/// 8 KiB and 5 seconds each.
///
/// ```swift
/// let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
/// let configuration = ConnectionConfiguration(connectionId: "gx-arrive-store", suggestedUserEmail: email,
///                                             credentialProvider: credentials, redirectURL: receiver.redirectURL)
/// // ... run the flow with a BrowserWebAuthenticationSession, then:
/// receiver.stop()
/// ```
public final class LoopbackRedirectReceiver: @unchecked Sendable {
    /// Why the receiver could not start.
    public struct StartError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The system call that failed.
        public let operation: String
        /// The `errno` value.
        public let code: Int32

        /// Names the call and the error number.
        public var description: String { "LoopbackRedirectReceiver: \(operation) failed (errno \(code))" }
    }

    /// The largest request accepted, in bytes.
    public static let maximumRequestBytes = 8 * 1024

    /// The port the system picked.
    public let port: UInt16
    /// `http://127.0.0.1:PORT/path`: give it to ``ConnectionConfiguration``.
    public let redirectURL: URL

    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let handler: ConnectionRedirectHandler
    private let expectedPath: String
    private let lock = NSLock()
    // Guarded by `lock`.
    private var stopped = false
    private var finished = false
    private let done = DispatchSemaphore(value: 0)

    /// Binds 127.0.0.1 on a free port and starts answering on a background thread.
    ///
    /// - Parameter path: The redirect path, starting with `/`; default `/ifttt/callback`.
    /// - Throws: ``StartError`` when the socket cannot be created or bound.
    public convenience init(path: String = "/ifttt/callback") throws(StartError) {
        try self.init(path: path, registry: .shared)
    }

    init(path: String, registry: RedirectRegistry) throws(StartError) {
        let fd = socket(AF_INET, Self.streamType, 0)
        guard fd >= 0 else { throw StartError(operation: "socket", code: errno) }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let code = errno
            close(fd)
            throw StartError(operation: "bind/listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            let code = errno
            close(fd)
            throw StartError(operation: "pipe", code: code)
        }
        listener = fd
        wakeRead = pipeFDs[0]
        wakeWrite = pipeFDs[1]
        port = UInt16(bigEndian: actual.sin_port)
        let cleanPath = path.hasPrefix("/") ? path : "/" + path
        redirectURL = URL(string: "http://127.0.0.1:\(port)\(cleanPath)")!
        handler = ConnectionRedirectHandler(redirectURL: redirectURL, registry: registry)
        expectedPath = URLComponents(url: redirectURL, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? cleanPath
        let thread = Thread { [self] in run() }
        thread.name = "IFTTT loopback redirect receiver"
        thread.start()
    }

    deinit {
        stop()
    }

    /// Stops listening and closes the socket; waits until the background thread is done. Safe to call twice.
    public func stop() {
        let first: Bool = {
            lock.lock()
            defer { lock.unlock() }
            if stopped { return false }
            stopped = true
            return true
        }()
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        done.wait()
        close(wakeWrite)
        close(wakeRead)
    }

    /// Whether the receiver stopped: it accepted a redirect or ``stop()`` was called.
    public var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    // MARK: - Serving

    private static var streamType: Int32 {
        #if os(Linux)
        return Int32(SOCK_STREAM.rawValue)
        #else
        return SOCK_STREAM
        #endif
    }

    private func run() {
        defer {
            // The wake-up pipe stays open until stop(), so writing to it can never raise SIGPIPE.
            close(listener)
            lock.lock()
            finished = true
            lock.unlock()
            done.signal()
        }
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let accepted = serve(client)
            close(client)
            if accepted {
                return
            }
        }
    }

    /// Answers one request; returns whether it was an accepted redirect.
    private func serve(_ client: Int32) -> Bool {
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let head = readHead(client) else {
            respond(client, status: "431 Request Header Fields Too Large", body: "Request too large.")
            return false
        }
        let requestLine = head.split(separator: "\r\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/"),
              let url = URL(string: "http://127.0.0.1:\(port)\(parts[1])"),
              URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath == expectedPath
        else {
            respond(client, status: "404 Not Found", body: "Not found.")
            return false
        }
        guard handler.handleApplicationRedirect(url: url) else {
            respond(client, status: "400 Bad Request", body: "This link is not a valid IFTTT redirect for this app.")
            return false
        }
        respond(client, status: "200 OK", body: "You're connected. You can close this window and return to the app.")
        return true
    }

    /// Reads until the end of the header block; `nil` when it exceeds the limit, times out or is cut.
    private func readHead(_ client: Int32) -> String? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1024)
        let terminator: [UInt8] = [13, 10, 13, 10]
        while data.count <= Self.maximumRequestBytes {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            data.append(contentsOf: buffer[0..<count])
            if data.count >= 4, let _ = data.indices.dropLast(3).first(where: { Array(data[$0..<($0 + 4)]) == terminator }) {
                return data.count <= Self.maximumRequestBytes ? String(decoding: data, as: UTF8.self) : nil
            }
        }
        return nil
    }

    private func respond(_ client: Int32, status: String, body: String) {
        let html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>IFTTT</title></head>"
            + "<body style=\"font-family: sans-serif; text-align: center; margin-top: 4em\"><p>\(body)</p></body></html>"
        let bytes = Array(html.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(bytes.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n"
        let message = Array(head.utf8) + bytes
        let total = message.count
        var offset = 0
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        while offset < total {
            let start = offset
            let sent = message.withUnsafeBytes { send(client, $0.baseAddress! + start, total - start, flags) }
            guard sent > 0 else { return }
            offset += sent
        }
    }
}
