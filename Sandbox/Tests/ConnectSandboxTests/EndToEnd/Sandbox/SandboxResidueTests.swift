@testable import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The holes of issue 30's re-audit, each attacked as a second local user with real accounts would, each test
/// failing on the code before its fix. Every person has a browser of their own (an ephemeral URLSession with its
/// own cookies).
@Suite("Sandbox residue (issue 30): attacks by a second local user")
struct SandboxResidueTests {
    typealias Pages = WebActivationPageTests
    typealias Binding = PartnerLegBindingTests
    typealias Hardening = ActivationHardeningTests

    /// Starts a flow for `items` in `browser`, signs in as `email`: returns the flow id and the authorize page.
    static func signedIn(
        _ base: URL, _ items: [(String, String)], email: String, password: String, in browser: URLSession
    ) async throws -> (session: String, page: String) {
        let (status, html, _) = try await Pages.get(base, "/access/api/gx-arrive-store", items, in: browser)
        #expect(status == 200)
        let session = try #require(Pages.hiddenValue("activation_session", in: html))
        let (signedIn, page, _) = try await Pages.post(
            base, "/access/api/gx-arrive-store/sign_in",
            [("activation_session", session), ("email", email), ("password", password)], in: browser)
        #expect(signedIn == 200)
        return (session, page)
    }

    // MARK: Hole 1: an activation link carries the attacker's partner account

    /// Dave (attacker) sends carol an activation link whose `code` is his own Grocery Express account's. Before the
    /// fix carol's authorize page never named the partner account and Authorize was the only way on: dave's
    /// backend then exchanged his partner session for carol's IFTTT token. Now the page names dave's account, and
    /// "Not my account" sends carol through Grocery Express's own sign-in, linking nothing.
    @Test func aLinkWithTheAttackersCodeNamesHisAccountAndCanBeDeclined() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let carol = Pages.browser()
            let link = [
                ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "carol@example.com"),
                ("code", "gx-oauth-code-dave"), LinkBindingTests.challenge, LinkBindingTests.challengeMethod,
            ]
            let (session, page) = try await Self.signedIn(
                base, link, email: "carol@example.com", password: "carol-password", in: carol)
            #expect(page.contains("<strong id=\"partner-account\">dave (gx-user-1003)</strong>"))
            #expect(Pages.hiddenValue("partner_account", in: page) == "gx-user-1003")
            #expect(page.contains("value=\"partner_sign_in\""))
            let (declined, _, response) = try await Pages.post(
                base, "/access/api/gx-arrive-store/authorize",
                [("activation_session", session), ("partner_account", "gx-user-1003"), ("action", "partner_sign_in")],
                in: carol)
            #expect(declined == 303)
            #expect(
                response.value(forHTTPHeaderField: "Location")?.hasPrefix("/partner/grocery_express/oauth/") == true)
            let client = Client(base: base)
            #expect(try await Binding.backendUser(client, partnerSession: "gx-access-token-dave") == nil)
        }
    }

    /// A URL code belongs to the first browser whose flow presents it: carol (attacker) read the activation URL of
    /// another user's flow (a command line, a shared screen) and used its code in her own flow first. Before the
    /// fix dave's Grocery Express account was linked to carol's IFTTT account; now carol goes through Grocery
    /// Express's sign-in and the code stays usable in the flow that presented it.
    @Test func aURLCodeWorksOnlyInTheBrowserThatPresentedItFirst() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let victim = Pages.browser()
            let carol = Pages.browser()
            let link = [
                ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("code", "gx-oauth-code-dave"),
                LinkBindingTests.challenge,
                LinkBindingTests.challengeMethod,
            ]
            let (first, _, _) = try await Pages.get(base, "/access/api/gx-arrive-store", link, in: victim)
            #expect(first == 200)
            let (session, page) = try await Self.signedIn(
                base, link, email: "carol@example.com", password: "carol-password", in: carol)
            #expect(!page.contains("partner-account"))
            let (status, _, response) = try await Pages.post(
                base, "/access/api/gx-arrive-store/authorize", [("activation_session", session)], in: carol)
            #expect(status == 303)
            #expect(
                response.value(forHTTPHeaderField: "Location")?.hasPrefix("/partner/grocery_express/oauth/") == true)
            let client = Client(base: base)
            #expect(
                try await Hardening.linkedUser(
                    client, partnerUserId: "gx-user-1003", accessToken: "gx-access-token-dave") == nil)
        }
    }

    // MARK: Hole 3: the overall sign-in limit locked everyone out

    /// 100 wrong sign-ins per minute from anyone refused every user's right password for 60 s. Failed before the
    /// fix (the former `allows(account:now:)` had one overall count). Now an attacker's source is refused, and an
    /// account nobody guesses at signs in from any other source, however much he guesses.
    @Test func noFloodOfWrongPasswordsLocksOutAnUnattackedAccount() {
        let throttle = SignInThrottle()
        let start = Date()
        let attacker = "uid:65534"
        let victim = "uid:1000"
        for n in 0..<10_000 {
            let now = start.addingTimeInterval(Double(n) / 100)
            if throttle.allows(account: n % 2 == 0 ? nil : "bob", source: attacker, now: now) {
                throttle.recordFailure(account: n % 2 == 0 ? nil : "bob", source: attacker, now: now)
            }
        }
        let later = start.addingTimeInterval(100)
        #expect(!throttle.allows(account: "alice", source: attacker, now: later))
        #expect(throttle.allows(account: "alice", source: victim, now: later))
        // bob was guessed at, but from one source: his own sign-in elsewhere still works.
        #expect(throttle.allows(account: "bob", source: victim, now: later))
        // Only a guess from many sources (≥ 20 here) at one account refuses that account, and no other.
        for n in 0..<SignInThrottle.maximumAccountFailures {
            throttle.recordFailure(account: "carol", source: "ip:10.0.0.\(n / 5)", now: later)
        }
        #expect(!throttle.allows(account: "carol", source: victim, now: later))
        #expect(throttle.allows(account: "alice", source: victim, now: later))
    }

    /// The same flood over HTTP by a second local user (uid 65534, through `setpriv`; only when the tests run as
    /// root): 110 wrong passwords for junk identifiers and for bob, on IFTTT's and on Grocery Express's sign-in page.
    /// Before the fix alice's and dave's right passwords were then refused (429); now they sign in.
    @Test(.enabled(if: OtherLocalUser.isAvailable)) func anotherLocalUsersFloodDoesNotLockOutAlice() async throws {
        try await SandboxServer.withRunning(SandboxTest.heldClockConfiguration()) { base in
            let script = """
                jar=$(mktemp); page=$(curl -s -c "$jar" -b "$jar" "$BASE/access/api/gx-arrive-store?sdk_return_to=http%3A%2F%2F127.0.0.1%3A4567%2Fcb")
                session=$(printf '%s' "$page" | sed -n 's/.*name="activation_session" value="\\([0-9a-f]*\\)".*/\\1/p' | head -n 1)
                for n in $(seq 1 110); do
                  curl -s -o /dev/null -w '%{http_code}\\n' -c "$jar" -b "$jar" \\
                    --data "activation_session=$session&email=user$n%40example.com&password=guess" \\
                    "$BASE/access/api/gx-arrive-store/sign_in"
                done | sort | uniq -c
                """
            let output = try await OtherLocalUser.run(script, environment: ["BASE": base.absoluteString])
            #expect(output.contains("100 401") && output.contains("10 429"), "\(output)")
            // alice, from this process's user, signs in; so does dave at Grocery Express.
            let session = try await Hardening.start(
                base, "gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:4567/cb")])
            #expect(try await SandboxHardeningTests.signIn(base, session, "alice@example.com", "alice-password") == 200)
            let url = try await Binding.partnerSignInURL(base, email: "carol@example.com", password: "carol-password")
            let (partner, _, _) = try await Pages.post(
                base, url.path, Binding.partnerForm(url, login: "dave", password: "gx-dave-password"))
            #expect(partner == 303)
        }
    }

    // MARK: Hole 6: cookie tossing

    /// A GET in `browser` with the headers a browser sends (`Sec-Fetch-Site`, `Referer`).
    static func navigate(_ url: URL, site: String?, referer: String? = nil, in browser: URLSession) async throws
        -> (Int, String)
    {
        var request = URLRequest(url: url)
        if let site { request.setValue(site, forHTTPHeaderField: "Sec-Fetch-Site") }
        if let referer { request.setValue(referer, forHTTPHeaderField: "Referer") }
        let (data, response) = try await browser.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? -1, String(decoding: data, as: UTF8.self))
    }

    /// Carol (attacker) starts a flow in her browser, signs in to IFTTT, and gets her flow's partner sign-in link. A
    /// page of hers on another loopback port sets the sandbox's binding cookie to her browser id in dave's browser
    /// (cookies do not separate ports) and sends him to the link; dave signs in to Grocery Express and his account
    /// was linked to carol's IFTTT account. Failed before the fix (the link answered 200 and the chain linked dave).
    /// Now the link works only as the 303 of the sandbox's own authorize step.
    @Test func aTossedCookieDoesNotLetAPartnerLinkWorkInAnotherBrowser() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let carol = Pages.browser()
            let link = try await Binding.partnerSignInURL(
                base, email: "carol@example.com", password: "carol-password", in: carol)
            // dave's browser now carries carol's cookie (the tossed one): modelled by carol's own session.
            let tossed = carol
            for (site, referer) in [("same-site", nil), ("cross-site", nil), ("none", nil)] as [(String?, String?)]
                + [(nil, "http://127.0.0.1:9999/toss.html")]
            {
                let (status, page) = try await Self.navigate(link, site: site, referer: referer, in: tossed)
                #expect(status == 403, "\(site ?? referer ?? "")")
                #expect(!page.contains("id=\"partner-sign-in\""))
            }
            // The form itself cannot be posted from another site either.
            var post = URLRequest(url: link)
            post.httpMethod = "POST"
            post.setValue("same-site", forHTTPHeaderField: "Sec-Fetch-Site")
            post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            post.httpBody = Data(
                Binding.partnerForm(link, login: "dave", password: "gx-dave-password")
                    .map { "\($0.0)=\(Pages.query([("", $0.1)]).dropFirst())" }.joined(separator: "&").utf8)
            let (_, refused) = try await tossed.data(for: post)
            #expect((refused as? HTTPURLResponse)?.statusCode == 403)
            let client = Client(base: base)
            #expect(try await Binding.backendUser(client, partnerSession: "gx-access-token-dave") == nil)
            // Carol's own browser, arriving from the sandbox's authorize step, still gets the page.
            let own = "http://\(base.host!):\(base.port!)/access/api/gx-arrive-store/authorize"
            #expect(try await Self.navigate(link, site: "same-origin", in: carol).0 == 200)
            #expect(try await Self.navigate(link, site: nil, referer: own, in: carol).0 == 200)
        }
    }

    // MARK: Hole 7: the in-memory tables could be flooded

    /// 10,000 anonymous `GET`s (flows started) by another user evicted the victim's flow in progress. Failed before
    /// the fix (capacity 10,000, oldest first). Now each source keeps at most its own 64; the flood replaces only
    /// the flooder's own flows.
    @Test func aFloodOfFlowsEvictsOnlyTheFloodersOwn() {
        let sessions = WebActivationSessions()
        let start = Date()
        let parameters = WebActivationParameters(pairs: [("sdk_return_to", "http://127.0.0.1:4567/cb")])
        let victim = sessions.start(
            connectionId: "gx-arrive-store", parameters: parameters, browser: "victim", source: "uid:1000", now: start)
        for n in 0..<10_500 {
            _ = sessions.start(
                connectionId: "gx-arrive-store", parameters: parameters, browser: "b\(n)", source: "uid:65534",
                now: start.addingTimeInterval(Double(n) / 1000))
        }
        let later = start.addingTimeInterval(60)
        #expect(sessions.session(victim.id, connectionId: "gx-arrive-store", browser: "victim", now: later) != nil)
    }

    /// One signed-in flow posting authorize 10,000 times pushed 10,000 requests and evicted another user's pushed
    /// request (her partner sign-in then failed). Failed before the fix. Now each flow has one pushed request.
    @Test func aFlowPushingAgainReplacesOnlyItsOwnRequest() throws {
        let requests = PartnerAuthorizationRequests()
        let now = Date()
        let redirect = "/access/api/gx-arrive-store/partner_callback"
        let victim = requests.push(
            flow: "victim-flow", serviceId: "grocery_express", redirectURI: redirect, state: "s", codeChallenge: "c",
            iftttAccount: "alice", now: now)
        for _ in 0..<10_500 {
            _ = requests.push(
                flow: "attacker-flow", serviceId: "grocery_express", redirectURI: redirect, state: "s2",
                codeChallenge: "c2", iftttAccount: "carol", now: now)
        }
        #expect(requests.request(try #require(victim), serviceId: "grocery_express", now: now) != nil)
        #expect(requests.count == 2)
    }

    // MARK: Hole 8: SDK analytics events

    /// An event about `connection` from the SDK (its `object_id`).
    static func event(about connection: String, _ extra: [String: JSONValue] = [:]) -> JSONValue {
        var properties: [String: JSONValue] = ["object_type": "connection", "object_id": .string(connection)]
        properties.merge(extra) { $1 }
        return [
            "name": "sdk.impression", "timestamp": "1700000000000",
            "properties": .object(JSONObject(properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })),
        ]
    }

    /// Another service's key (a rival partner on the same sandbox) listed Grocery Express's users' analytics. Failed
    /// before the fix. And an unauthenticated post of 100 events with 10 KB properties each was stored whole (the
    /// database grew to 281 MB in 17.5 s). Now each key reads only its own service's events, properties are
    /// bounded, and the table keeps the newest events only.
    @Test func aServiceKeyReadsOnlyItsOwnServicesEventsAndPostsAreBounded() async throws {
        let seed = try SandboxTest.temporaryDirectory().appendingPathComponent("rival.json")
        let rival =
            ##"{"services": [{"id": "rival", "name": "Rival", "short_name": "Rival", "brand_color": "#000000", "##
            + ##""url": "https://ifttt.com/rival", "service_key": "rival-key"}]}"##
        try Data(rival.utf8).write(to: seed)
        try await SandboxServer.withRunning(SandboxTest.configuration(seedFile: seed)) { base in
            let client = Client(base: base)
            let posted = try await client.request(
                "POST", "/v2/sdk/events", headers: ["IFTTT-SDK-Anonymous-Id": "alice-phone"],
                body: JSONValue.object(["events": [Self.event(about: "gx-weekly-deals")]]).serializedData())
            #expect(posted.status == 204)
            let rival = try await client.get("sandbox/sdk_events", serviceKey: "rival-key")
            #expect(rival.status == 200)
            #expect(!String(decoding: rival.data, as: UTF8.self).contains("alice-phone"))
            let own = try await client.get("sandbox/sdk_events", serviceKey: SandboxTest.serviceKey)
            #expect(String(decoding: own.data, as: UTF8.self).contains("alice-phone"))
            // Bounded posts: 10 KB properties are refused.
            let big = String(repeating: "x", count: 10_000)
            let flood = try await client.request(
                "POST", "/v2/sdk/events", headers: ["IFTTT-SDK-Anonymous-Id": "flood"],
                body: JSONValue.object([
                    "events": .array(
                        (0..<100).map { _ in Self.event(about: "gx-weekly-deals", ["junk": .string(big)]) })
                ])
                .serializedData())
            #expect(flood.status == 422)
        }
        // The table keeps the newest events only.
        let store = try SandboxStore(path: SandboxConfiguration.inMemoryDatabasePath)
        let events = (0..<100).map { _ in IncomingSDKEvent(name: "sdk.click", timestamp: "1", properties: [:]) }
        for _ in 0..<(Int(SandboxStore.maximumStoredSDKEvents) / 100 + 5) {
            try await store.recordSDKEvents(events, anonymousId: "flood", sdkVersion: nil, platform: nil)
        }
        #expect(try await store.sdkEvents(anonymousId: "flood").count == Int(SandboxStore.maximumStoredSDKEvents))
    }

    // MARK: Hole 10: the public playground page showed a walkable activation URL

    /// The playground's live page is public; it showed the activation URL with the partner's OAuth code and the
    /// flow's `state`, and another user who walked it ended the playground connected as him. Failed before the fix.
    /// Now only the browser that tapped the button sees the URL.
    @Test func onlyTheBrowserThatTappedSeesThePlaygroundsActivationURL() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let owner = Pages.browser()
            let other = Pages.browser()
            func live(_ browser: URLSession) async throws -> String {
                try await Pages.get(base, "/playground/live", [("connection", "gx-weekly-deals")], in: browser).1
            }
            var html = try await live(owner)
            for _ in 0..<40 where !html.contains("<code id=\"step\">initial</code>") {
                try await Task.sleep(for: .milliseconds(250))
                html = try await live(owner)
            }
            _ = try await Pages.post(base, "/playground/live/tap", [("connection", "gx-weekly-deals")], in: owner)
            _ = try await Pages.post(
                base, "/playground/live/email", [("connection", "gx-weekly-deals"), ("email", "alice@example.com")],
                in: owner)
            for _ in 0..<40 where !html.contains("id=\"activation\"") {
                try await Task.sleep(for: .milliseconds(250))
                html = try await live(owner)
            }
            #expect(html.contains("id=\"activation\"") && html.contains("gx-oauth-code-dave"))
            let seen = try await live(other)
            #expect(!seen.contains("id=\"activation\"") && !seen.contains("gx-oauth-code"), "\(seen)")
            #expect(seen.contains("id=\"activation-elsewhere\""))
        }
    }

    // MARK: Hole 11: a stale cache with a second writer

    /// A second writer to the database file (a CLI command's embedded sandbox) toggles alice's Connection 300 times;
    /// after each of its commits the running sandbox must answer the new status. Before the fix some rounds served
    /// the cached, stale status (6 of 300 in the audit: the WAL index header check missed commits).
    @Test func everyCommitOfASecondWriterIsSeenAtOnce() async throws {
        try await SandboxPerformanceTests.withFileSandbox { client, database in
            let path = "/v2/connections/gx-weekly-deals"
            let other = try SandboxStore(path: database.path)
            var stale = 0
            for round in 0..<300 {
                #expect(try await client.get(path, token: SandboxTest.aliceToken).status == 200)  // cached
                let status: SeedData.UserConnectionStatus = round % 2 == 0 ? .disabled : .enabled
                _ = try await other.setStatus(status, userId: "alice", connectionId: "gx-weekly-deals")
                let seen = try await client.get(path, token: SandboxTest.aliceToken).json["user_status"]
                if seen != .string(status.rawValue) { stale += 1 }
            }
            #expect(stale == 0, "\(stale) of 300 rounds served a stale status")
        }
    }

    // MARK: Hole 9 and issue 27 item 3: --host by address; a LAN address for a phone

    /// `--host 127.evil.example` passed the name check (`hasPrefix("127.")`) and, resolving to 0.0.0.0, the sandbox
    /// listened on every interface. Failed before the fix (the CLI parsed it). Now a name must resolve to loopback
    /// only, and the sandbox binds the address it resolved to.
    @Test func aHostNameIsJudgedByTheAddressItResolvesTo() throws {
        func resolve(_ host: String, to addresses: [String]) throws(SandboxError) -> SandboxHost {
            try SandboxHost.resolve(host, resolver: { _ in addresses }, interfaces: { ["127.0.0.1", "192.0.2.2"] })
        }
        #expect(throws: SandboxError.self) { try resolve("127.evil.example", to: ["0.0.0.0"]) }
        #expect(throws: SandboxError.self) { try resolve("127.evil.example", to: ["127.0.0.1", "203.0.113.9"]) }
        #expect(throws: SandboxError.self) { try resolve("nowhere.example", to: []) }
        #expect(try resolve("sandbox.test", to: ["127.0.0.7"]).bindAddress == "127.0.0.7")
        #expect(try resolve("localhost", to: ["0.0.0.0"]).bindAddress == "127.0.0.1")
        // Addresses are taken as written: loopback, a wildcard, or one of this machine's.
        #expect(try resolve("127.0.0.2", to: []).isLoopback)
        #expect(try resolve("::1", to: []).isLoopback)
        #expect(throws: SandboxError.self) { try resolve("198.51.100.7", to: []) }
        let lan = try resolve("192.0.2.2", to: [])
        #expect(!lan.isLoopback && lan.networkAddresses == ["192.0.2.2"])
        let wildcard = try resolve("0.0.0.0", to: [])
        #expect(wildcard.bindAddress == "0.0.0.0" && wildcard.networkAddresses == ["192.0.2.2"])
        let warning = try #require(wildcard.networkWarning(port: 8080))
        #expect(warning.contains("test server") && warning.contains("http://192.0.2.2:8080"))
        #expect(
            SandboxHost(bindAddress: "127.0.0.1", isLoopback: true, networkAddresses: []).networkWarning(port: 1) == nil
        )
    }

    /// A sandbox on this machine's LAN address (what `ifttt-connect sandbox --host <LAN address>` runs so a
    /// physical iPhone can use it): a request naming that address in `Host` is served, names are still refused
    /// (DNS rebinding), and the sandbox's absolute URLs use the address a phone types.
    @Test(
        .enabled(
            if: !SandboxHost.interfaceAddresses().filter { !SandboxHost.isLoopback($0) && !$0.contains(":") }
                .isEmpty))
    func aLANAddressServesAPhoneAndStillRefusesNames() async throws {
        let lan = try #require(
            SandboxHost.interfaceAddresses().first { !SandboxHost.isLoopback($0) && !$0.contains(":") })
        var configuration = SandboxTest.configuration()
        configuration.host = lan
        try await SandboxServer.withRunning(configuration) { base in
            #expect(base.host == lan)
            let (data, response) = try await URLSession.shared.data(from: base.appendingPathComponent("health"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
            let connection = try await URLSession.shared.data(
                from: base.appendingPathComponent("v2/connections/gx-arrive-store"))
            #expect(String(decoding: connection.0, as: UTF8.self).contains("http://\(lan):\(base.port!)/assets/"))
            var request = URLRequest(url: base.appendingPathComponent("health"))
            request.setValue("evil.example:\(base.port!)", forHTTPHeaderField: "Host")
            let (_, refused) = try await URLSession.shared.data(for: request)
            #expect((refused as? HTTPURLResponse)?.statusCode == 403)
        }
    }

    // MARK: Hole 5: --db trusted whatever was at the path

    /// Another user pre-created the database file (or a link to his own) in a shared directory: the sandbox used it
    /// as it was, and he read `user_tokens`. A path that is no database (`--db /etc/passwd`) lost its mode before
    /// the open failed. Failed before the fix. Now each is refused with a `database` error and nothing is changed.
    @Test func aDatabasePathSomeoneElseControlsIsRefusedUntouched() async throws {
        let shared = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: shared) }
        // A shared directory like /tmp: writable by everyone, sticky.
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: shared.path)
        func mode(_ path: String) throws -> Int {
            try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
        }
        func refuses(_ path: String) async -> Bool {
            do {
                _ = try await SandboxServer.withRunning(SandboxTest.configuration(databasePath: path)) { _ in true }
                return false
            } catch let error as SandboxError {
                if case .database = error { return true }
                return false
            } catch {
                return false
            }
        }
        // A link to a file of the attacker's.
        let target = shared.appendingPathComponent("attacker.sqlite").path
        #expect(FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o666]))
        let link = shared.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(await refuses(link))
        #expect(try mode(target) == 0o666)
        // A file others can write.
        let writable = shared.appendingPathComponent("writable.sqlite").path
        #expect(FileManager.default.createFile(atPath: writable, contents: nil, attributes: [.posixPermissions: 0o666]))
        #expect(await refuses(writable))
        #expect(try mode(writable) == 0o666)
        // A file that is no database keeps its mode (before: 0600, then the open failed).
        let passwd = shared.appendingPathComponent("passwd").path
        #expect(
            FileManager.default.createFile(
                atPath: passwd, contents: Data("root:x:0:0:root:/root:/bin/sh\n".utf8),
                attributes: [.posixPermissions: 0o644]))
        #expect(await refuses(passwd))
        #expect(try mode(passwd) == 0o644)
        // Another user's file, mode 0600 (only when the tests run as root: they can give it away).
        #if canImport(Glibc)
        if geteuid() == 0 {
            let theirs = shared.appendingPathComponent("theirs.sqlite").path
            #expect(
                FileManager.default.createFile(atPath: theirs, contents: nil, attributes: [.posixPermissions: 0o600]))
            #expect(chown(theirs, 65534, 65534) == 0)
            #expect(await refuses(theirs))
        }
        #endif
        // A companion file planted next to a fresh path.
        let fresh = shared.appendingPathComponent("fresh.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: fresh + "-wal", withDestinationPath: target)
        #expect(FileManager.default.createFile(atPath: fresh, contents: nil, attributes: [.posixPermissions: 0o600]))
        #expect(await refuses(fresh))
        // The user's own database in that directory works.
        let own = shared.appendingPathComponent("own.sqlite").path
        #expect(await !refuses(own))
        #expect(try mode(own) == 0o600)
    }

    // MARK: Hole 4: a slow request body held its descriptor forever

    /// A socket to the sandbox with `text` sent and nothing more; returns its descriptor.
    static func held(port: Int, _ text: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTP.Failure(step: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw RawHTTP.Failure(step: "connect")
        }
        let bytes = Array(text.utf8)
        _ = send(fd, bytes, bytes.count, 0)
        return fd
    }

    /// Whether the sandbox has closed `fd` (a read sees the end, or a reset), waiting at most `milliseconds`.
    static func isClosed(_ fd: Int32, within milliseconds: Int) -> Bool {
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: .init(max(1, milliseconds % 1000) * 1000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { continue }  // an answer (e.g. 408): keep reading to the end
            return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    /// A complete head with `Content-Length: 1048576` and no body: the connection stayed open with no deadline
    /// (the header deadline ended at the head). Failed before the fix. Now the body has its own deadline.
    @Test func aRequestWhoseBodyNeverComesIsClosed() async throws {
        var configuration = SandboxTest.configuration()
        configuration.bodyReadTimeout = .milliseconds(300)
        try await SandboxServer.withRunning(configuration) { base in
            let port = base.port!
            let closed = try await offCooperativePool {
                let fd = try Self.held(
                    port: port,
                    "POST /v2/sdk/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 1048576\r\n\r\n{")
                defer { close(fd) }
                return Self.isClosed(fd, within: 10_000)
            }
            #expect(closed)
        }
    }

    /// 200 held connections (heads without bodies, from another program): each kept a descriptor, so enough of them
    /// made `/health` time out. Failed before the fix (all 200 stayed open). Now at most the cap stay open, the ones
    /// waiting longest go first, and a client that sends its request is answered.
    @Test func heldConnectionsAreCappedAndARealRequestIsAnswered() async throws {
        var configuration = SandboxTest.configuration()
        configuration.maximumConnections = 16
        try await SandboxServer.withRunning(configuration) { base in
            let port = base.port!
            let held = try await offCooperativePool {
                try (0..<200).map { _ in
                    try Self.held(
                        port: port,
                        "POST /v2/sdk/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 1048576\r\n\r\n")
                }
            }
            defer { for fd in held { close(fd) } }
            let health = try await RawHTTP.exchangeOffThePool(
                port: port, "GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            #expect(health.hasPrefix("HTTP/1.1 200"), "\(health.prefix(100))")
            let stillOpen = try await offCooperativePool { held.filter { !Self.isClosed($0, within: 50) }.count }
            #expect(stillOpen <= 16, "\(stillOpen) of 200 held connections still open")
        }
    }

    // MARK: Fidelity

    /// The docs' own dropdown example asks for field options without `user_id`: it was a 400 here. Now the service
    /// key gets the Connection's options; with a `user_id`, that user must have the Connection enabled, as before.
    @Test func fieldOptionsWithoutAUserIdAnswerAsTheDocsExampleDoes() async throws {
        try await SandboxTest.withDemo { client in
            let path = "/v2/connections/gx-weekly-deals/triggers/grocery_express.new_weekly_deals/field_options"
            let anonymous = try await client.get(path, serviceKey: SandboxTest.serviceKey)
            #expect(anonymous.status == 200)
            #expect(try anonymous.json["options"]?["store"]?.arrayValue?.count == 3)
            #expect(try await client.get(path).status == 401)
            #expect(
                try await client.get(path, query: ["user_id": "gx-user-1002"], serviceKey: SandboxTest.serviceKey)
                    .status == 404)
        }
    }

    /// `PUT .../user_connection` omitting the action step's configuration was a 422 although its one field
    /// (`subject`) has a default; IFTTT's docs say omitting a configuration removes it. Now the default applies.
    @Test func omittingAStepsConfigurationFallsBackToItsDefaults() async throws {
        try await SandboxTest.withDemo { client in
            let body: JSONValue = [
                "user_features": [
                    [
                        "feature_id": "weekly-deals-email", "enabled": true,
                        "user_feature_triggers": [
                            [
                                "feature_trigger_id": "ft-weekly-deals",
                                "user_fields": [["field_id": "store", "value": "store-923-market"]],
                            ]
                        ],
                    ]
                ]
            ]
            let put = try await client.put(
                "/v2/connections/gx-weekly-deals/user_connection", query: ["user_id": "gx-user-1001"],
                serviceKey: SandboxTest.serviceKey, json: body)
            #expect(put.status == 200, "\(String(decoding: put.data, as: UTF8.self))")
            #expect(String(decoding: put.data, as: UTF8.self).contains("This week's deals at Grocery Express"))
        }
    }

    /// The document had no `links`, so schemathesis's stateful phase followed nothing. Every documented chain now has
    /// one, and each names an operation of the document.
    @Test func theDocumentLinksTheDocumentedChains() throws {
        let data = try #require(OpenAPIRoutes.document)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: Set<String> = []
        var links: [String: String] = [:]  // "operation → link name" → target operationId
        for (_, item) in paths {
            for (_, value) in item {
                guard let operation = value as? [String: Any], let id = operation["operationId"] as? String else {
                    continue
                }
                operations.insert(id)
                for (_, response) in operation["responses"] as? [String: [String: Any]] ?? [:] {
                    for (name, link) in response["links"] as? [String: [String: Any]] ?? [:] {
                        links["\(id) → \(name)"] = link["operationId"] as? String
                    }
                }
            }
        }
        for (link, target) in links { #expect(operations.contains(target), "\(link)") }
        let chains = Set(links.map { "\($0.key.components(separatedBy: " → ")[0]) → \($0.value)" })
        for chain in [
            "showConnection → triggerFieldOptions", "showConnection → featureFieldOptions",
            "showConnection → runAction",
            "showConnection → performQuery", "showConnection → testTrigger", "showConnection → updateConnection",
            "updateConnection → refreshConnection", "createProvisionalAccessCode → connectURL",
            "exchangeUserToken → showMe",
        ] {
            #expect(chains.contains(chain), "\(chain)")
        }
    }

    /// Strict mode (`--strict`) refuses what IFTTT documents nowhere and answers the token exchange of an unlinked
    /// partner user as the one real answer on record does; the default stays lenient.
    @Test(arguments: [false, true]) func strictModeRefusesWhatTheDefaultLetsThrough(strict: Bool) async throws {
        var configuration = SandboxTest.configuration()
        configuration.strict = strict
        try await SandboxServer.withRunning(configuration) { base in
            let client = Client(base: base)
            let exchange = try await client.post(
                "/v2/user_token", query: ["user_id": "gx-user-1003", "access_token": "gx-access-token-dave"],
                serviceKey: SandboxTest.serviceKey)
            #expect(exchange.status == (strict ? 401 : 404))
            if strict {
                #expect(String(decoding: exchange.data, as: UTF8.self).contains("Cannot uniquely identify user"))
            }
            let run = try await client.request(
                "POST", "/v2/connections/gx-weekly-deals/actions/email.send_me_email/run",
                headers: ["IFTTT-Service-Key": SandboxTest.serviceKey, "Content-Type": "application/json"],
                body: Data(#"{"user_id": null}"#.utf8))
            #expect(run.status == (strict ? 422 : 400), "\(String(decoding: run.data, as: UTF8.self))")
            let (page, _, _) = try await Pages.get(
                base, "/access/api/gx-arrive-store",
                [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("skip_config", "maybe")], in: Pages.browser())
            #expect(page == (strict ? 400 : 200))
            // The Connect URL reads skip_config as the activation pages do (it took any value, even in strict mode).
            let (landing, _, _) = try await Pages.get(
                base, "/connect/gx-weekly-deals",
                [
                    ("email", "alice@example.com"), ("redirect_uri", "groceryexpress://ifttt/callback"),
                    ("skip_config", "maybe"),
                ], in: Pages.browser())
            #expect(landing == (strict ? 400 : 200))
        }
    }

    /// TRACE, DELETE and PATCH on documented paths were 404 and HEAD on `GET` routes 404. Now 405 with `Allow`, and
    /// `HEAD` answers the `GET`'s headers without a body.
    @Test func otherMethodsAre405AndHeadAnswersLikeGet() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let port = base.port!
            for method in ["TRACE", "DELETE", "PATCH"] {
                let reply = try await RawHTTP.exchangeOffThePool(
                    port: port,
                    "\(method) /v2/connections/gx-weekly-deals HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
                )
                #expect(reply.hasPrefix("HTTP/1.1 405"), "\(method): \(reply.prefix(80))")
                #expect(reply.lowercased().contains("allow: get, head"), "\(reply.prefix(300))")
            }
            let post = try await RawHTTP.exchangeOffThePool(
                port: port,
                "POST /v2/me HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            #expect(post.hasPrefix("HTTP/1.1 405"), "\(post.prefix(80))")
            let unknown = try await RawHTTP.exchangeOffThePool(
                port: port, "DELETE /v2/nothing HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            #expect(unknown.hasPrefix("HTTP/1.1 404"), "\(unknown.prefix(80))")
            let head = try await RawHTTP.exchangeOffThePool(
                port: port,
                "HEAD /v2/connections/gx-weekly-deals HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head.prefix(80))")
            #expect(head.lowercased().contains("content-type: application/json"))
            let bodyStart = head.range(of: "\r\n\r\n").map { head[$0.upperBound...] } ?? ""
            #expect(bodyStart.isEmpty, "HEAD sent a body: \(bodyStart.prefix(80))")
        }
    }
}

/// A second local user for attacks: runs a shell script as uid/gid 65534 (`nobody`) through `setpriv`. Only when the
/// tests run as root and `setpriv` exists; the tests that need it are skipped otherwise.
enum OtherLocalUser {
    static let setpriv = "/usr/bin/setpriv"

    static var isAvailable: Bool {
        #if canImport(Glibc)
        return geteuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
        #else
        return false
        #endif
    }

    /// Runs `script` with `sh` as uid 65534 and returns its standard output.
    static func run(_ script: String, environment: [String: String] = [:]) async throws -> String {
        try await offCooperativePool {
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script]
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp"].merging(environment) {
                $1
            }
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let output = directory.appendingPathComponent("out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return try String(contentsOf: output, encoding: .utf8)
        }
    }
}
