import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectDesktop

/// No secret reaches a command line: the desktop flow hands `xdg-open` (or `open`) a launch URL of the loopback
/// receiver, which leads only this program's user, once, to the activation URL.
@Suite("Browser launch without secrets", .timeLimit(.minutes(1)))
@MainActor
struct LoopbackLaunchTests {
    static let email = "carol@example.com"
    static let oauthCode = "gx-oauth-code-carol"
    static let inviteCode = "invite-2026"
    nonisolated static let token = "tok-9f8e7d6c5b4a39281706f5e4d3c2b1a0"

    /// A Connect API without network: the Connection `c1`, an existing account for every email.
    static let transport = RecordingTransport { request throws(ConnectAPIError) in
        switch request.url.path {
        case "/v2/connections/c1":
            // On for the user whose token the backend vouches for, once the activation has ended.
            let status = request.headers["Authorization"] == "Bearer \(token)" ? "enabled" : "never_enabled"
            return HTTPResponse(
                statusCode: 200,
                body: Data(
                    #"{"type":"connection","id":"c1","name":"N","description":"D","url":"https://ifttt.com/c1","user_status":"\#(status)","services":[{"service_id":"gx","service_name":"Grocery Express","is_primary":true}]}"#
                        .utf8))
        case "/v2/account/find": return HTTPResponse(statusCode: 204)
        default: return HTTPResponse(statusCode: 404)
        }
    }

    @Test func theDesktopFlowPutsNoSecretOnTheCommandLine() async throws {
        let registry = RedirectRegistry()
        let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback", registry: registry)
        defer { receiver.stop() }
        let launcher = RecordingLauncher()
        var setup = ConnectButtonController.Configuration(
            networkController: ConnectionNetworkController(
                configuration: .init(transport: Self.transport, connectBaseURL: URL(string: "https://api.test/v2")!)),
            urlOpener: RecordingURLOpener(),
            webAuthenticationSession: BrowserWebAuthenticationSession(
                opener: SystemBrowserURLOpener(launcher: launcher.launch), launchPad: receiver),
            timing: .immediate, webActivationBaseURL: URL(string: "https://sandbox.test/access/api")!)
        setup.registry = registry
        setup.analyticsUploaders = AnalyticsUploaderRegistry()
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(),
            connectionConfiguration: ConnectionConfiguration(
                connectionId: "c1", suggestedUserEmail: Self.email,
                credentialProvider: ConnectionCredentials(
                    oauthCode: Self.oauthCode, inviteCode: Self.inviteCode,
                    partnerBackend: PartnerBackend { Self.token }),
                redirectURL: receiver.redirectURL),
            delegate: nil, configuration: setup)
        let flow = Task { @MainActor in try await controller.connect(email: Self.email) }

        // What any local user can read in /proc/PID/cmdline of the opener.
        let argv = try await launcher.next()
        let commandLine = argv.joined(separator: " ")
        for secret in ["state", "?", "&", "code", Self.oauthCode, Self.inviteCode, "carol", "access/api"] {
            #expect(!commandLine.contains(secret), "the command line holds \(secret): \(commandLine)")
        }
        let launch = try #require(argv.last.flatMap(URL.init(string:)))
        #expect(launch.host == "127.0.0.1" && launch.port == Int(receiver.port))
        #expect(launch.path.hasPrefix("/ifttt-launch/") && launch.lastPathComponent.count == 32)

        // The browser (this user) gets the activation URL from it, once.
        let answer = try await Self.get(launch)
        #expect(answer.status == 303)
        let activation = try #require(answer.location)
        #expect(activation.path == "/access/api/c1")
        let state = try #require(Self.query("state", in: activation))
        #expect(Self.query("code", in: activation) == Self.oauthCode)
        #expect(try await Self.get(launch).status == 410)

        let redirect = "/ifttt/callback?next_step=complete&user_token=\(Self.token)&state=\(state)"
        #expect(try await Self.get(URL(string: "http://127.0.0.1:\(receiver.port)\(redirect)")!).status == 200)
        #expect(try await flow.value.userToken == Self.token)
    }

    @Test func anotherUserWhoReadTheLaunchURLGetsNothingAndTheBrowserStillGetsIn() async throws {
        let other: UInt32 = UInt32(geteuid()) &+ 1
        let receiver = try LoopbackRedirectReceiver(
            path: "/cb", registry: RedirectRegistry(),
            ownerOf: { client, _ in client.address == 0x7F00_0002 ? other : UInt32(geteuid()) })
        defer { receiver.stop() }
        let activation = URL(string: "https://ifttt.com/access/api/c1?state=s3cr3t-state&code=oauth-1")!
        let launch = try #require(receiver.launchURL(for: activation))

        let foreign = try Self.get(launch, from: 0x7F00_0002)
        #expect(foreign.hasPrefix("HTTP/1.1 403"))
        #expect(!foreign.contains("s3cr3t") && !foreign.contains("Location"))
        let mine = try await Self.get(launch)
        #expect(mine.status == 303 && mine.location == activation)
    }

    @Test(
        .enabled(
            if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
            "needs root, setpriv and curl to act as another user"))
    func anotherRealUserGets403FromTheKernelsAnswer() async throws {
        let receiver = try LoopbackRedirectReceiver(path: "/cb", registry: RedirectRegistry())
        defer { receiver.stop() }
        let activation = URL(string: "https://ifttt.com/access/api/c1?state=s3cr3t-state&code=oauth-1")!
        let launch = try #require(receiver.launchURL(for: activation))
        // What user nobody (65534) gets with the launch URL read from a command line.
        let output = try await offPool {
            try Self.run(
                "/usr/bin/setpriv",
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/curl", "-s", "-i",
                    launch.absoluteString,
                ])
        }
        #expect(output.hasPrefix("HTTP/1.1 403"), "nobody got \(output.prefix(60))")
        #expect(!output.contains("s3cr3t"))
        let mine = try await Self.get(launch)
        #expect(mine.status == 303 && mine.location == activation)
    }

    @Test func aLaunchURLExpires() async throws {
        let clock = ManualClock()
        let receiver = try LoopbackRedirectReceiver(path: "/cb", registry: RedirectRegistry(), clock: clock)
        defer { receiver.stop() }
        let launch = try #require(receiver.launchURL(for: URL(string: "https://ifttt.com/access/api/c1?state=s")!))
        clock.advance(by: UInt64(LoopbackRedirectReceiver.launchLifetimeSeconds) * 1000)
        #expect(try await Self.get(launch).status == 410)
        #expect(try await Self.get(URL(string: "http://127.0.0.1:\(receiver.port)/ifttt-launch/0")!).status == 410)
    }

    @Test func onlyWebURLsAreLaunchedAndNothingAfterStop() throws {
        let receiver = try LoopbackRedirectReceiver(path: "/cb", registry: RedirectRegistry())
        for text in ["javascript:alert(1)", "file:///etc/passwd", "ifttt-handoff-v1://connections/c1?state=x"] {
            #expect(receiver.launchURL(for: URL(string: text)!) == nil, "\(text)")
        }
        receiver.stop()
        #expect(receiver.launchURL(for: URL(string: "https://ifttt.com/access/api/c1")!) == nil)
    }

    @Test func theSystemOpenerRefusesURLsThatCarrySecrets() async {
        let launcher = RecordingLauncher()
        let opener = SystemBrowserURLOpener(launcher: launcher.launch)
        for text in [
            "https://ifttt.com/access/api/c1?state=abc", "https://ifttt.com/c1#token=abc",
            "https://user:password@ifttt.com/", "http://127.0.0.1:9/launch?",
        ] {
            #expect(await opener.open(URL(string: text)!) == false, "\(text)")
        }
        #expect(launcher.calls.isEmpty)
        #expect(await opener.open(URL(string: "http://127.0.0.1:9/ifttt-launch/abc")!))
        #if os(Linux)
        #expect(launcher.calls == [["/usr/bin/env", "xdg-open", "http://127.0.0.1:9/ifttt-launch/abc"]])
        #endif
    }

    @Test func withoutALaunchPadTheSystemOpenerFailsTheSessionInsteadOfLeaking() async {
        let launcher = RecordingLauncher()
        let session = BrowserWebAuthenticationSession(opener: SystemBrowserURLOpener(launcher: launcher.launch))
        let result = await withCheckedContinuation { continuation in
            session.start(
                url: URL(string: "https://ifttt.com/access/api/c1?state=abc")!, callbackURLScheme: nil
            ) { continuation.resume(returning: $0) }
        }
        #expect(result == .failed)
        #expect(launcher.calls.isEmpty)
    }

    // MARK: - Helpers

    /// `GET url` without following redirects: the status and the `Location` header.
    nonisolated static func get(_ url: URL) async throws -> (status: Int, location: URL?) {
        let response = try await offPool { try get(url, from: nil) }
        let status = Int(response.split(separator: " ").dropFirst().first ?? "") ?? 0
        let location = response.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location: ") }
            .flatMap { URL(string: String($0.dropFirst("location: ".count))) }
        return (status, location)
    }

    /// The raw response to `GET url` sent from `source` (an address of 127.0.0.0/8).
    nonisolated static func get(_ url: URL, from source: UInt32?) throws -> String {
        let client = try LoopbackTestClient(port: UInt16(url.port ?? 80), from: source)
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return try client.readAll(timeout: .seconds(5))
    }

    nonisolated static func query(_ name: String, in url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }

    /// Runs a program and returns its standard output.
    nonisolated static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Stands in for starting `xdg-open`: records each command line (the executable, then its arguments).
final class RecordingLauncher: Sendable {
    private let recorded = Locked<[[String]]>([])
    private let stream: AsyncStream<[String]>
    private let continuation: AsyncStream<[String]>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: [String].self)
    }

    /// The command lines recorded so far.
    var calls: [[String]] { recorded.withLock { $0 } }

    /// What `SystemBrowserURLOpener` calls instead of starting a process.
    var launch: @Sendable (URL, [String]) -> Bool {
        { [self] executable, arguments in
            let line = [executable.path] + arguments
            recorded.withLock { $0.append(line) }
            continuation.yield(line)
            return true
        }
    }

    /// The next command line.
    func next() async throws -> [String] {
        var iterator = stream.makeAsyncIterator()
        guard let line = await iterator.next() else { throw CancellationError() }
        return line
    }
}
