@testable import ConnectCLI
@testable import ConnectSandbox
import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// One test per attack on the sandbox's own defences (issue 19, item 6), each failing on the code before the fix.
@Suite("Sandbox hardening")
struct SandboxHardeningTests {
    typealias Pages = WebActivationPageTests

    static func signIn(_ base: URL, _ session: String, _ identifier: String, _ password: String) async throws -> Int {
        let (status, _, _) = try await Pages.post(
            base, "/access/api/gx-arrive-store/sign_in",
            [("activation_session", session), ("email", identifier), ("password", password)])
        return status
    }

    // MARK: Sign-in throttling

    /// The address and the login of one account had a count each: 5 + 5 guesses. Failed before the fix.
    @Test func theLoginAndTheAddressShareOneCount() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let session = try await ActivationHardeningTests.start(
                base, "gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:4567/cb")])
            for identifier in ["bob@example.com", "bob", "BOB@example.com", "bob", "bob@example.com"] {
                #expect(try await Self.signIn(base, session, identifier, "guess") == 401)
            }
            #expect(try await Self.signIn(base, session, "bob", "bob-password") == 429)
            #expect(try await Self.signIn(base, session, "bob@example.com", "bob-password") == 429)
            #expect(try await Self.signIn(base, session, "alice", "alice-password") == 200)
        }
    }

    /// One guess for each of many accounts was never limited. Failed before the fix. The limit is the sprayer's
    /// own (its source: this test process's user); other sources are not refused (`SandboxResidueTests`).
    @Test func passwordSprayingIsLimited() async throws {
        try await SandboxServer.withRunning(SandboxTest.heldClockConfiguration()) { base in
            let session = try await ActivationHardeningTests.start(
                base, "gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:4567/cb")])
            for n in 0..<SignInThrottle.maximumSourceFailures {
                #expect(try await Self.signIn(base, session, "user\(n)@example.com", "Summer2026!") == 401)
            }
            // The sprayer's next attempt is refused, whatever account it names, until the spray window has passed.
            #expect(try await Self.signIn(base, session, "alice@example.com", "alice-password") == 429)
        }
    }

    /// 10,010 failures for junk identifiers emptied the table, and with it a locked account's count. Failed before
    /// the fix (with the former API: `recordFailure(_:now:)`, `allows(_:now:)`).
    @Test func aFloodOfJunkFailuresDoesNotUnlockAnAccount() {
        let throttle = SignInThrottle()
        let start = Date()
        for _ in 0..<SignInThrottle.maximumFailures { throttle.recordFailure(account: "bob", source: "s", now: start) }
        for n in 0..<10_010 {
            throttle.recordFailure(account: nil, source: "s", now: start.addingTimeInterval(Double(n) / 1000))
        }
        // Past the spray window, within bob's.
        let later = start.addingTimeInterval(SignInThrottle.sprayWindow + 30)
        #expect(!throttle.allows(account: "bob", source: "s", now: later))
        #expect(throttle.allows(account: "alice", source: "s", now: later))
        #expect(throttle.trackedAccounts == 1)  // junk identifiers take no room
        #expect(throttle.allows(account: "bob", source: "s", now: start.addingTimeInterval(SignInThrottle.window + 1)))
    }

    // MARK: Passwords

    /// A password shaped like a stored hash was stored as that hash: the account could not sign in with it, and one
    /// naming 10,000,000 iterations made every wrong guess cost seconds of CPU. Failed before the fix.
    @Test func aPasswordThatLooksLikeAHashIsHashed() async throws {
        let path = temporaryDatabasePath()
        let lookalike =
            "pbkdf2-sha256$4096$00112233445566778899aabbccddeeff$"
            + "b0a94ad1bd261e03f243812a91fb16e6d258b359c63ba71cc6ef31be83916ef7"
        try await SandboxServer.withRunning(SandboxTest.configuration(databasePath: path)) { base in
            let first = try await ActivationHardeningTests.start(
                base, "gx-arrive-store",
                [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("sdk_create_account", "true")])
            let (created, _, _) = try await Pages.post(
                base, "/access/api/gx-arrive-store/create_account",
                [("activation_session", first), ("email", "hashy@example.com"), ("password", lookalike)])
            #expect(created == 200)
            let second = try await ActivationHardeningTests.start(
                base, "gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:4567/cb")])
            #expect(try await Self.signIn(base, second, "hashy@example.com", lookalike) == 200)
            #expect(try await Self.signIn(base, second, "hashy@example.com", "correct horse") == 401)
        }
        let stored = try await SandboxStore(path: path).exportSeed().users.first { $0.email == "hashy@example.com" }?
            .password
        #expect(stored != nil && stored != lookalike)
    }

    /// Stored values are read as hashes only within bounds; beyond them they never match and cost nothing.
    @Test func storedValuesBeyondTheBoundsAreNotHashes() {
        let salt = "00112233445566778899aabbccddeeff"
        let hash = "b0a94ad1bd261e03f243812a91fb16e6d258b359c63ba71cc6ef31be83916ef7"
        #expect(PasswordHash.isHash("pbkdf2-sha256$4096$\(salt)$\(hash)"))
        for stored in [
            "pbkdf2-sha256$10000000$\(salt)$\(hash)", "pbkdf2-sha256$100001$\(salt)$\(hash)",
            "pbkdf2-sha256$0$\(salt)$\(hash)", "pbkdf2-sha256$4096$\(salt)$\(String(repeating: "ab", count: 100_000))",
            "pbkdf2-sha256$4096$\(String(repeating: "ab", count: 1000))$\(hash)", "pbkdf2-sha256$4096$$\(hash)",
            "pbkdf2-sha256$+4096$\(salt)$\(hash)",
        ] {
            #expect(!PasswordHash.isHash(stored), "\(stored.prefix(40))")
            #expect(!PasswordHash.verify("correct horse", against: stored))
        }
        // A seed file's value beyond the bounds is a password like any other.
        let seeded = PasswordHash.storable("pbkdf2-sha256$10000000$\(salt)$\(hash)")
        #expect(seeded.hasPrefix("pbkdf2-sha256$4096$"))
        #expect(PasswordHash.verify("pbkdf2-sha256$10000000$\(salt)$\(hash)", against: seeded))
    }

    // MARK: Host

    /// DNS rebinding: a page at evil.example resolving to 127.0.0.1 sends `Host: evil.example:PORT` and an Origin
    /// that matches it, so the same-origin check let it sign in and read answers. Failed before the fix.
    @Test func requestsForAnotherHostAreRefused() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let port = base.port!
            let me = try await RawHTTP.exchangeOffThePool(
                port: port,
                "GET /v2/me HTTP/1.1\r\nHost: evil.example:\(port)\r\nAuthorization: Bearer \(SandboxTest.aliceToken)\r\n"
                    + "Connection: close\r\n\r\n")
            #expect(me.hasPrefix("HTTP/1.1 403"), "\(me.prefix(200))")
            #expect(!me.contains("alice@example.com"))
            let session = try await ActivationHardeningTests.start(
                base, "gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:4567/cb")])
            let body = "activation_session=\(session)&email=bob%40example.com&password=bob-password"
            let post = try await RawHTTP.exchangeOffThePool(
                port: port,
                "POST /access/api/gx-arrive-store/sign_in HTTP/1.1\r\nHost: evil.example:\(port)\r\n"
                    + "Origin: http://evil.example:\(port)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            #expect(post.hasPrefix("HTTP/1.1 403"), "\(post.prefix(200))")
            for host in ["127.0.0.1", "localhost", "LOCALHOST", "127.0.0.2", "[::1]"] {
                let reply = try await RawHTTP.exchangeOffThePool(
                    port: port, "GET /health HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n")
                #expect(reply.hasPrefix("HTTP/1.1 200"), "\(host)")
            }
            for host in ["127.0.0.1.evil.example", "localhost.evil.example", "0.0.0.0", "127.0.0.01", "169.254.1.1"] {
                let reply = try await RawHTTP.exchangeOffThePool(
                    port: port, "GET /health HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n")
                #expect(reply.hasPrefix("HTTP/1.1 403"), "\(host)")
            }
        }
    }

    // MARK: Credentials

    /// `GET /sandbox/sdk_events` listed every app's analytics to anyone. Failed before the fix.
    @Test func theAnalyticsListingNeedsAServiceKey() async throws {
        try await SandboxTest.withDemo { client in
            let event: JSONValue = ["name": "sdk.click", "timestamp": "1700000000000", "properties": [:]]
            let posted = try await client.request(
                "POST", "/v2/sdk/events", headers: ["IFTTT-SDK-Anonymous-Id": "someone"],
                body: JSONValue.object(["events": [event]]).serializedData())
            #expect(posted.status == 204)
            let anonymous = try await client.get("sandbox/sdk_events")
            #expect(anonymous.status == 401 && anonymous.errorCode == "unauthorized")
            #expect(!String(decoding: anonymous.data, as: UTF8.self).contains("someone"))
            #expect(try await client.get("sandbox/sdk_events", token: SandboxTest.aliceToken).status == 401)
            #expect(try await client.get("sandbox/sdk_events", serviceKey: "wrong").status == 401)
            let listed = try await client.get("sandbox/sdk_events", serviceKey: SandboxTest.serviceKey)
            #expect(listed.status == 200)
            #expect(try listed.json["data"]?[0]?["anonymous_id"]?.stringValue == "someone")
        }
    }

    // MARK: The playground's redirect

    /// `GET /playground/live/redirect` handed whatever it was given to the waiting controller: a link on any site
    /// completed the playground's flow with a token of the attacker's choice. Failed before the fix.
    @Test func thePlaygroundRedirectIsAPostBehindTheOriginCheck() async throws {
        try await SandboxTest.withDemo { client in
            func live() async throws -> String {
                String(
                    decoding: try await client.get("playground/live", query: ["connection": "gx-weekly-deals"]).data,
                    as: UTF8.self)
            }
            var html = try await live()
            // The page refreshes itself while the controller works; reload it like a browser, at most for 10 s.
            for _ in 0..<40 where !html.contains("<code id=\"step\">initial</code>") {
                try await Task.sleep(for: .milliseconds(250))
                html = try await live()
            }
            _ = try await client.request(
                "POST", "playground/live/tap", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("connection=gx-weekly-deals".utf8))
            _ = try await client.request(
                "POST", "playground/live/email", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("connection=gx-weekly-deals&email=alice%40example.com".utf8))
            html = try await live()
            for _ in 0..<40 where !html.contains("<code id=\"step\">waitingForRedirect</code>") {
                try await Task.sleep(for: .milliseconds(250))
                html = try await live()
            }
            try #require(html.contains("<code id=\"step\">waitingForRedirect</code>"))
            let forged = "next_step=complete&user_token=\(SandboxTest.bobToken)"
            // A link from another site: a page, nothing handed over.
            var request = URLRequest(
                url: URL(string: client.base.absoluteString + "/playground/live/redirect?" + forged)!)
            request.setValue("cross-site", forHTTPHeaderField: "Sec-Fetch-Site")
            let (data, response) = try await Pages.session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let page = String(decoding: data, as: UTF8.self)
            #expect(page.contains("action=\"/playground/live/redirect\""))
            #expect(try await live().contains("<code id=\"step\">waitingForRedirect</code>"))
            // A form posted from another site: refused.
            let post = try await client.request(
                "POST", "playground/live/redirect",
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example"],
                body: Data("query=\(WebActivationParameters.encode(forged))".utf8))
            #expect(post.status == 403)
            #expect(try await live().contains("<code id=\"step\">waitingForRedirect</code>"))
            // The playground's own form hands it over (here with a token the SDK then checks).
            let own = try await client.request(
                "POST", "playground/live/redirect", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("query=\(WebActivationParameters.encode("next_step=user_cancelled_configuration"))".utf8))
            #expect(own.status == 200)  // URLSession follows the 303 to the live page
            html = try await live()
            for _ in 0..<40 where html.contains("<code id=\"step\">waitingForRedirect</code>") {
                try await Task.sleep(for: .milliseconds(250))
                html = try await live()
            }
            #expect(!html.contains("<code id=\"step\">waitingForRedirect</code>"))
        }
    }

    // MARK: Connections and framing

    /// Connections that sent a header byte now and then were held as long as they liked (400 of them for over
    /// 65 s). Failed before the fix: none was closed.
    @Test func slowHeadersAreCutOff() async throws {
        var configuration = SandboxTest.configuration()
        configuration.headerReadTimeout = .seconds(1)
        try await SandboxServer.withRunning(configuration) { base in
            let port = base.port!
            let result = try await offCooperativePool { try RawHTTP.slowClients(port: port, count: 40, patience: 8) }
            #expect(result.closed == 40, "\(result.open) slow connections still open after 8 s")
            // Ordinary requests are served as before.
            #expect(try await Client(base: base).get("health").status == 200)
        }
    }

    /// A malformed chunk size was a 500 `internal_error`. Failed before the fix.
    @Test func aMalformedChunkSizeIs400() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let reply = try await RawHTTP.exchangeOffThePool(
                port: base.port!,
                "POST /v2/sdk/events HTTP/1.1\r\nHost: 127.0.0.1\r\nIFTTT-SDK-Anonymous-Id: a\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + "zz\r\n{}\r\n0\r\n\r\n")
            #expect(reply.hasPrefix("HTTP/1.1 400"), "\(reply.prefix(200))")
            #expect(reply.contains("\"code\":\"invalid_parameters\""))
        }
    }

    // MARK: URLs in SVG and HTML

    /// `ifttt-connect button render --file` drew a `javascript:` icon URL. Failed before the fix.
    @Test func buttonRenderDrawsOnlyWebURLs() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("connection.json")
        try Data(
            #"""
            {"type":"connection","id":"c1","name":"N","description":"D","url":"https://ifttt.com/c1",
             "services":[{"service_id":"a","service_name":"A","is_primary":true,"url":"javascript:alert(1)",
                          "monochrome_icon_url":"javascript:alert(2)","color_icon_url":"javascript:alert(3)"}]}
            """#.utf8
        ).write(to: file)
        for state in ["connect", "connected", "checkmark"] {
            let command = try IFTTTConnectCommand.parseAsRoot(
                ["button", "render", "--file", file.path, "--state", state])
            let render = try #require(command as? ButtonCommand.Render)
            let svg = render.svg(for: try await render.loadConnection())
            #expect(PlaygroundAndButtonCLITests.isSVG(svg))
            #expect(!svg.lowercased().contains("javascript:"), "\(state)")
        }
    }
}

extension RawHTTP {
    /// Opens `count` connections that each send a request line and then one header byte every 200 ms, never
    /// finishing the head, for at most `patience` seconds; returns how many the server closed and how many it kept.
    static func slowClients(port: Int, count: Int, patience: TimeInterval) throws -> (closed: Int, open: Int) {
        var sockets: [Int32] = []
        defer {
            for fd in sockets { close(fd) }
        }
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure(step: "socket") }
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw Failure(step: "connect") }
            let start = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
            _ = send(fd, start, start.count, Int32(MSG_NOSIGNAL))
        }
        var open = Set(sockets)
        let deadline = Date().addingTimeInterval(patience)
        while !open.isEmpty, Date() < deadline {
            for fd in open {
                var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if Glibc.poll(&poll, 1, 0) > 0 {
                    var byte: UInt8 = 0
                    if recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0 {
                        open.remove(fd)
                        continue
                    }
                }
                var one = UInt8(ascii: "a")
                _ = send(fd, &one, 1, Int32(MSG_NOSIGNAL))
            }
            usleep(200_000)  // the slow client's pace, not a wait for the server
        }
        return (count - open.count, open.count)
    }
}
