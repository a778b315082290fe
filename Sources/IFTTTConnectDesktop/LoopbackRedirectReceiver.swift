import Foundation
@_spi(Sandbox) import IFTTTConnectCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives the activation redirect on `http://127.0.0.1:PORT/path`, so a desktop or command-line program
/// can finish the flow in the system browser (the loopback pattern of RFC 8252, §7.3), and gives the browser a
/// secret-free URL to start from.
///
/// It listens on 127.0.0.1 only, on a port the system picks. A `GET` of the redirect path is handed to a
/// `ConnectionRedirectHandler` as written (its request target behind the receiver's own origin, never the `Host`
/// header; non-ASCII is refused): when the flow accepts it, the browser gets a small "you can close this
/// window" page and the receiver stops; a refused redirect gets 400 and the receiver keeps waiting (so a
/// web page cannot end the flow by guessing). A redirect without `state` is answered once its verification
/// ends. Every other path or method gets 404.
///
/// **Launching the browser.** The activation URL carries the flow's `state`, the email and the partner's OAuth
/// code, and whatever a program passes to `xdg-open` or `open` can be read by every local user in its command
/// line. Opened through it (`openActivationInBrowser(launchingThrough:)`), the receiver keeps the activation URL and gives out
/// `http://127.0.0.1:PORT/ifttt-launch/<random id>` instead: its first `GET` by the user
/// running this program is answered with a 303 to the activation URL, once, within 2 minutes.
/// On Linux the receiver asks the kernel which user owns the client's socket, so another user who read the
/// launch URL from a command line gets 403 and the launch stays for the browser; where the system cannot tell
/// (macOS), the random id alone guards it.
///
/// **Connections.** Up to 32 connections are served at the same time, at most
/// 8 of them from one peer (the user owning the client's socket on Linux, the
/// client's address elsewhere), each with one deadline for its whole request (5 seconds, however
/// slowly its bytes arrive) and at most 8 KiB. A peer over its share closes its own connections
/// that have not finished their request, the idle ones first; when all slots are taken, the peer holding the most
/// makes room. Pending connections are accepted in every turn of the serving loop and a request that came with
/// its connection is read at once. So neither a client that sends a byte at a time, idle connections (a
/// browser's preconnects) nor another user's flood of held-open connections keeps the real redirect out.
/// Deadlines are read from a `ConnectClock` (the system clock unless you pass another).
///
/// It is part of the IFTTTConnectDesktop product, for desktop and command-line programs: an iOS app that links
/// only IFTTTConnectSDK does not carry it.
///
/// ```swift
/// let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
/// let configuration = ConnectionConfiguration(connectionId: "gx-arrive-store", suggestedUserEmail: email,
///                                             credentialProvider: credentials, redirectURL: receiver.redirectURL)
/// setup.openActivationInBrowser(launchingThrough: receiver)
/// // ... run the flow, then:
/// receiver.stop()
/// ```
public final class LoopbackRedirectReceiver: Sendable {
    /// Why the receiver could not start.
    public struct StartError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The system call that failed.
        @_spi(Sandbox) public let operation: String
        /// The `errno` value.
        @_spi(Sandbox) public let code: Int32

        /// Names the call and the error number.
        public var description: String { "LoopbackRedirectReceiver: \(operation) failed (errno \(code))" }
    }

    /// The largest request accepted, in bytes.
    @_spi(Sandbox) public static let maximumRequestBytes = 8 * 1024
    /// The most connections served at the same time, from all peers together.
    @_spi(Sandbox) public static let maximumConnections = 32
    /// The most connections served at the same time from one peer: the user owning the client's socket on Linux,
    /// the client's address elsewhere.
    @_spi(Sandbox) public static let maximumConnectionsPerPeer = 8
    /// The time a client has to send its whole request, in seconds: one deadline per request, not per read.
    @_spi(Sandbox) public static let requestTimeoutSeconds = 5
    /// How long a launch URL leads to its activation URL, in seconds; it is good for one `GET` either way.
    @_spi(Sandbox) public static let launchLifetimeSeconds = 120
    /// The longest a redirect without `state` waits for its verification before it gets 503, in seconds.
    static let verificationTimeoutSeconds = 60
    /// The most connections accepted in one turn of the serving loop, so the clients already in are served too.
    static let acceptsPerTurn = 64
    /// The path of launch URLs, before their id.
    static let launchPrefix = "/ifttt-launch/"

    /// The port the system picked.
    public let port: UInt16
    /// `http://127.0.0.1:PORT/path`: give it to `ConnectionConfiguration`.
    public let redirectURL: URL

    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let handler: ConnectionRedirectHandler
    private let expectedPath: String
    private let clock: any ConnectClock
    private let ownerOf: @Sendable (LoopbackEndpoint, LoopbackEndpoint) -> UInt32?
    private let user: UInt32
    private let afterPoll: (@Sendable () -> Void)?
    private let admission = ConnectionAdmission(perPeer: maximumConnectionsPerPeer, total: maximumConnections)
    private let state = Locked(State())
    private let done = DispatchSemaphore(value: 0)

    /// What the serving thread and the callers share.
    private struct State {
        /// ``stop()`` was called.
        var stopped = false
        /// The serving thread ended.
        var finished = false
        /// Verdicts on redirects, by connection id, not yet answered.
        var verdicts: [Int: Bool] = [:]
        /// The activation URLs behind launch URLs.
        var launches = LaunchTable()
        /// Launch URLs answered with their activation URL.
        var launchesOpened = 0
    }

    /// Binds 127.0.0.1 on a free port and starts answering on a background thread.
    ///
    /// - Parameters:
    ///   - path: The redirect path, starting with `/`; default `/ifttt/callback`.
    /// - Throws: ``StartError`` when the socket cannot be created or bound.
    public convenience init(path: String = "/ifttt/callback") throws(StartError) {
        try self.init(path: path, registry: .shared, clock: SystemConnectClock())
    }

    /// Binds 127.0.0.1 on a free port and starts answering on a background thread, reading deadlines from `clock`.
    ///
    /// - Parameters:
    ///   - path: The redirect path, starting with `/`.
    ///   - clock: The clock of the request and verification deadlines (its `nowMilliseconds`).
    /// - Throws: ``StartError`` when the socket cannot be created or bound.
    @_spi(Sandbox) public convenience init(path: String, clock: any ConnectClock) throws(StartError) {
        try self.init(path: path, registry: .shared, clock: clock)
    }

    /// - Parameters:
    ///   - ownerOf: Who owns the socket of a client (its endpoint, then ours); tests stand in for the kernel.
    ///   - afterPoll: Runs on the serving thread each time `poll` returns; tests hold the loop there.
    init(
        path: String, registry: RedirectRegistry, clock: any ConnectClock = SystemConnectClock(),
        ownerOf: @escaping @Sendable (LoopbackEndpoint, LoopbackEndpoint) -> UInt32? = SocketOwner.owner,
        afterPoll: (@Sendable () -> Void)? = nil
    ) throws(StartError) {
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
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, SOMAXCONN) == 0, Self.setNonBlocking(fd) else {
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
        guard pipe(&pipeFDs) == 0, Self.setNonBlocking(pipeFDs[0]), Self.setNonBlocking(pipeFDs[1]) else {
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
        self.clock = clock
        self.ownerOf = ownerOf
        user = UInt32(geteuid())
        self.afterPoll = afterPoll
        let thread = Thread { [self] in run() }
        thread.name = "IFTTT loopback redirect receiver"
        thread.start()
    }

    deinit {
        stop()
    }

    /// Stops listening and closes the socket; waits until the background thread is done. Safe to call twice.
    public func stop() {
        let first: Bool = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        done.wait()
        close(wakeWrite)
        close(wakeRead)
    }

    /// How many launch URLs led a browser to their activation URL so far: a command that waits for a person can tell
    /// a flow in progress from a launch URL nobody opened before it expired.
    @_spi(Sandbox) public var launchesOpened: Int { state.withLock { $0.launchesOpened } }

    /// Whether the receiver stopped: it accepted a redirect or ``stop()`` was called.
    @_spi(Sandbox) public var isFinished: Bool { state.withLock { $0.finished } }

    /// `http://127.0.0.1:PORT/ifttt-launch/<random id>`: a URL without secrets that leads to `url` once, within
    /// ``launchLifetimeSeconds``, for the user running this program. Give it to the browser instead of `url`.
    ///
    /// - Parameter url: The activation URL (`http` or `https`).
    /// - Returns: The launch URL, or `nil` when the receiver stopped or `url` cannot be launched.
    @_spi(Sandbox) public func launchURL(for url: URL) -> URL? {
        guard LaunchTable.canLaunch(url) else { return nil }
        let now = clock.nowMilliseconds
        let expires = now + UInt64(Self.launchLifetimeSeconds) * 1000
        let id: String? = state.withLock { state in
            state.stopped ? nil : state.launches.add(url, expires: expires, now: now)
        }
        return id.flatMap { URL(string: "http://127.0.0.1:\(port)\(Self.launchPrefix)\($0)") }
    }

    // MARK: - Serving

    private static var streamType: Int32 {
        #if os(Linux)
        return Int32(SOCK_STREAM.rawValue)
        #else
        return SOCK_STREAM
        #endif
    }

    private static func setNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL, 0)
        return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// Records the verdict on connection `id` and wakes the serving thread.
    private func post(verdict: Bool, for id: Int) {
        state.withLock { $0.verdicts[id] = verdict }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        var clients: [Client] = []
        var nextId = 0
        var finishing = false
        defer {
            for client in clients { client.close() }
            // The wake-up pipe stays open until stop(), so writing to it can never raise SIGPIPE.
            close(listener)
            state.withLock { $0.finished = true }
            done.signal()
        }
        while true {
            let (stop, decided): (Bool, [Int: Bool]) = state.withLock { state in
                defer { state.verdicts = [:] }
                return (state.stopped, state.verdicts)
            }
            for (id, accepted) in decided {
                if accepted { finishing = true }
                guard let client = clients.first(where: { $0.id == id }), case .verifying = client.phase else {
                    continue
                }
                if accepted {
                    respond(
                        client, status: "200 OK",
                        body: "You're connected. You can close this window and return to the app.", finishes: true)
                } else {
                    respond(
                        client, status: "400 Bad Request", body: "This link is not a valid IFTTT redirect for this app."
                    )
                }
            }
            if stop {
                // Stopped: the answers already decided are still written (the browser that sent the redirect that
                // finished the flow sees its outcome); every other connection is closed, and no new one is taken.
                for client in clients where !client.isWriting { client.abort() }
                clients.removeAll { $0.closed }
                if clients.isEmpty { return }
                finishing = true
            }
            let now = clock.nowMilliseconds
            for client in clients where !client.closed && client.deadline <= now {
                switch client.phase {
                case .reading: client.abort()
                case .writing: client.close()
                case .verifying:
                    respond(
                        client, status: "503 Service Unavailable", body: "The redirect could not be verified in time.")
                }
            }
            clients.removeAll { $0.closed }
            if finishing
                && !clients.contains(where: {
                    if case .writing(true) = $0.phase { return true } else { return stop && $0.isWriting }
                })
            {
                return
            }

            var fds = [
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listener, events: finishing ? 0 : Int16(POLLIN), revents: 0),
            ]
            for client in clients {
                let events: Int16
                switch client.phase {
                case .reading: events = Int16(POLLIN)
                case .verifying: events = 0
                case .writing: events = Int16(POLLOUT)
                }
                fds.append(pollfd(fd: client.fd, events: events, revents: 0))
            }
            let nearest = clients.map(\.deadline).min()
            let timeout = nearest.map { Int32(clamping: $0 > now ? $0 - now : 0) } ?? -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return }
            afterPoll?()
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &drain, drain.count) > 0 {}
            }
            for (index, client) in clients.enumerated() where fds[index + 2].revents != 0 && !client.closed {
                switch client.phase {
                case .reading: readAvailable(client)
                case .writing: flush(client)
                case .verifying: break
                }
            }
            if fds[1].revents != 0 && !finishing {
                acceptTurn(into: &clients, nextId: &nextId)
            }
        }
    }

    /// Accepts up to ``acceptsPerTurn`` pending connections, each admitted by ``ConnectionAdmission`` (which may
    /// close another connection to make room, or refuse it), and reads what each one already sent.
    private func acceptTurn(into clients: inout [Client], nextId: inout Int) {
        let local = LoopbackEndpoint(address: LoopbackEndpoint.loopback, port: port)
        for _ in 0..<Self.acceptsPerTurn {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard fd >= 0 else {
                // Out of descriptors: free one, so the next turn can take the pending connection.
                if errno == EMFILE || errno == ENFILE,
                    let victim = clients.first(where: { $0.isReading && $0.input.isEmpty })
                        ?? clients.first(where: \.isReading)
                {
                    victim.abort()
                    clients.removeAll { $0.closed }
                }
                return
            }
            guard Self.setNonBlocking(fd) else {
                close(fd)
                continue
            }
            #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let peer = LoopbackEndpoint(
                address: UInt32(bigEndian: address.sin_addr.s_addr), port: UInt16(bigEndian: address.sin_port))
            let owner = ownerOf(peer, local)
            clients.removeAll { $0.closed }
            let key: ConnectionAdmission.PeerKey = owner.map { .user($0) } ?? .address(peer.address)
            switch admission.decide(newcomer: key, occupants: clients.map(\.occupant)) {
            case .admit:
                break
            case .evict(let id):
                clients.first { $0.id == id }?.abort()
                clients.removeAll { $0.closed }
            case .refuse:
                Self.reset(fd)
                close(fd)
                continue
            }
            nextId += 1
            let deadline = clock.nowMilliseconds + UInt64(Self.requestTimeoutSeconds) * 1000
            let client = Client(id: nextId, fd: fd, peer: peer, owner: owner, deadline: deadline)
            clients.append(client)
            readAvailable(client)
        }
    }

    /// Reads what is available; answers once the header block is complete or too large.
    private func readAvailable(_ client: Client) {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let count = recv(client.fd, &buffer, buffer.count, 0)
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                client.close()
                return
            }
            client.input.append(contentsOf: buffer[0..<count])
            if let end = Self.headerEnd(client.input), end <= Self.maximumRequestBytes {
                handle(String(decoding: client.input[0..<end], as: UTF8.self), from: client)
                return
            }
            if client.input.count > Self.maximumRequestBytes {
                respond(client, status: "431 Request Header Fields Too Large", body: "Request too large.")
                return
            }
        }
    }

    /// The index just after the `\r\n\r\n` that ends the header block, if it arrived.
    private static func headerEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4)
        where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// Answers a complete request: a `GET` of the redirect path gets the handler's verdict, a `GET` of a launch
    /// URL its redirect (`serveLaunch(_:to:)`), anything else 404.
    private func handle(_ head: String, from client: Client) {
        let requestLine = head.split(separator: "\r\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/"),
            let url = URL(string: "http://127.0.0.1:\(port)\(parts[1])"),
            let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath
        else {
            respond(client, status: "404 Not Found", body: "Not found.")
            return
        }
        if path.hasPrefix(Self.launchPrefix) {
            serveLaunch(String(path.dropFirst(Self.launchPrefix.count)), to: client)
            return
        }
        guard path == expectedPath else {
            respond(client, status: "404 Not Found", body: "Not found.")
            return
        }
        client.phase = .verifying
        client.deadline = clock.nowMilliseconds + UInt64(Self.verificationTimeoutSeconds) * 1000
        let id = client.id
        handler.submit(text: "http://127.0.0.1:\(port)\(parts[1])") { [weak self] in self?.post(verdict: $0, for: id) }
    }

    /// Answers a launch URL: 303 to its activation URL for the user running this program, once; 403 for another
    /// user (the launch stays for the browser); 410 once it was used or expired.
    private func serveLaunch(_ id: String, to client: Client) {
        guard Self.mayLaunch(owner: client.owner, user: user) else {
            respond(
                client, status: "403 Forbidden",
                body: "This link belongs to an activation started by another user of this computer.")
            return
        }
        let now = clock.nowMilliseconds
        let taken = state.withLock { state in
            let destination = state.launches.take(id, now: now)
            if destination != nil { state.launchesOpened += 1 }
            return destination
        }
        guard let destination = taken else {
            respond(
                client, status: "410 Gone",
                body: "This link was already used or has expired. Start the activation again in the app.")
            return
        }
        respond(
            client, status: "303 See Other", body: "Continuing to IFTTT.",
            headers: "Location: \(destination.absoluteString)\r\n")
    }

    /// Whether a client whose socket `owner` holds may open a launch URL of a program run by `user`: only the same
    /// user, or anyone where the system cannot tell owners (then the random id alone guards the launch).
    static func mayLaunch(owner: UInt32?, user: UInt32) -> Bool {
        guard let owner else { return !SocketOwner.isSupported }
        return owner == user
    }

    /// Starts writing a small HTML response; the connection closes once it is sent.
    private func respond(_ client: Client, status: String, body: String, headers: String = "", finishes: Bool = false) {
        let html =
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>IFTTT</title></head>"
            + "<body style=\"font-family: sans-serif; text-align: center; margin-top: 4em\"><p>\(body)</p></body></html>"
        let bytes = Array(html.utf8)
        let head =
            "HTTP/1.1 \(status)\r\n\(headers)Content-Type: text/html; charset=utf-8\r\nContent-Length: \(bytes.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n"
        client.output = Array(head.utf8) + bytes
        client.sent = 0
        client.phase = .writing(finishes: finishes)
        client.deadline = clock.nowMilliseconds + UInt64(Self.requestTimeoutSeconds) * 1000
        flush(client)
    }

    /// Sends what the socket takes; closes the connection when everything was sent or it failed.
    private func flush(_ client: Client) {
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        while client.sent < client.output.count {
            let start = client.sent
            let sent = client.output.withUnsafeBytes {
                send(client.fd, $0.baseAddress! + start, client.output.count - start, flags)
            }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { break }
            client.sent += sent
        }
        client.close()
    }
}

@_spi(Sandbox) extension LoopbackRedirectReceiver: BrowserLaunchPad {}

extension ConnectButtonController.Configuration {
    /// Shows the activation page in the system browser, opened at `receiver`'s launch URL (which holds no secret)
    /// instead of the activation URL itself; the flow finishes when the browser's redirect reaches `receiver`.
    /// Use it in programs without a web view of their own (macOS and Linux command-line tools).
    ///
    /// - Parameter receiver: The loopback receiver whose ``LoopbackRedirectReceiver/redirectURL`` is the
    ///   Connection configuration's redirect URL.
    @MainActor
    public mutating func openActivationInBrowser(launchingThrough receiver: LoopbackRedirectReceiver) {
        webAuthenticationSession = BrowserWebAuthenticationSession(launchPad: receiver)
    }
}
