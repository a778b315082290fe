@testable import ConnectCLI
@testable import ConnectSandbox
import Crypto
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

/// The partner's own sign-in step, and one test per attack that worked on the sandbox before (issue 10).
@Suite("Web activation: partner sign-in and hardening")
struct ActivationHardeningTests {
    typealias Pages = WebActivationPageTests

    /// Starts a flow (the GET) and returns its `activation_session`.
    static func start(_ base: URL, _ connection: String, _ items: [(String, String)]) async throws -> String {
        let (status, html, _) = try await Pages.get(base, "/access/api/\(connection)", items)
        #expect(status == 200)
        return try #require(Pages.hiddenValue("activation_session", in: html))
    }

    /// Fills IFTTT's and the partner's sign-in pages.
    static func fill(ifttt password: String, partner: (String, String)? = nil)
        -> (String, [(name: String, value: String)]) -> [(String, String)]
    {
        { title, fields in
            fields.map { field in
                if title.hasPrefix("Sign in to Grocery"), let partner {
                    if field.name == "login" { return (field.name, partner.0) }
                    if field.name == "password" { return (field.name, partner.1) }
                }
                return field.name == "password" ? (field.name, password) : (field.name, field.value)
            }
        }
    }

    /// The IFTTT user whose token `/v2/user_token` returns for a partner account.
    static func linkedUser(_ client: Client, partnerUserId: String, accessToken: String) async throws -> String? {
        let exchange = try await client.post(
            "/v2/user_token", query: ["user_id": partnerUserId, "access_token": accessToken],
            serviceKey: SandboxTest.serviceKey)
        guard exchange.status == 200, let token = try exchange.json["user_token"]?.stringValue else { return nil }
        return try await client.get("/v2/me", token: token).json["user_login"]?.stringValue
    }

    // MARK: The partner's sign-in

    @Test func aNewUserWithoutACodeGoesThroughThePartnerSignIn() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let url = URL(
                string: base.absoluteString + "/access/api/gx-arrive-store?"
                    + Pages.query([
                        ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "new@example.com"),
                        ("sdk_create_account", "true"),
                        ("skip_config", "true"),
                    ]))!
            let walk = try await PageWalker.walk(
                url, base: base, fill: Self.fill(ifttt: "new password", partner: ("dave", "gx-dave-password")))
            #expect(
                walk.titles == ["Create your IFTTT account", "Authorize Grocery Express", "Sign in to Grocery Express"])
            #expect(walk.items["next_step"] == "complete")
            let token = try #require(walk.items["user_token"])
            let client = Client(base: base)
            #expect(try await client.get("/v2/me", token: token).json["user_login"]?.stringValue == "new")
            #expect(
                try await Self.linkedUser(client, partnerUserId: "gx-user-1003", accessToken: "gx-access-token-dave")
                    == "new")
        }
    }

    @Test func thePartnerSignInRefusesWrongPasswordsAndRequestsItWasNotGiven() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let url = try await PartnerLegBindingTests.partnerSignInURL(
                base, email: "carol@example.com", password: "carol-password")
            #expect(url.path == "/partner/grocery_express/oauth/authorize")
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            // Only the client and an opaque pushed request: nothing in the URL to edit.
            #expect(items.map(\.name) == ["client_id", "request_uri"])
            #expect(items.last?.value?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)
            let (page, html, _) = try await Pages.get(base, url.path, items.map { ($0.name, $0.value ?? "") })
            #expect(page == 200)
            #expect(html.contains("<title>Sign in to Grocery Express</title>"))
            // Requests the pages did not push: a front-channel request naming its own redirect, an unknown
            // request_uri, another client.
            for evil in [
                [
                    ("response_type", "code"), ("client_id", "ifttt"),
                    ("redirect_uri", "/access/api/gx-arrive-store/partner_callback"), ("state", "abc"),
                ],
                [("client_id", "ifttt"), ("request_uri", "urn:ietf:params:oauth:request_uri:0123")],
                [("client_id", "evil"), ("request_uri", items.last?.value ?? "")],
            ] {
                let (status, _, _) = try await Pages.get(base, "/partner/grocery_express/oauth/authorize", evil)
                #expect(status == 400, "\(evil)")
            }
            let (wrong, _, _) = try await Pages.post(
                base, url.path, PartnerLegBindingTests.partnerForm(url, login: "dave", password: "nope"))
            #expect(wrong == 401)
            let (right, _, response) = try await Pages.post(
                base, url.path, PartnerLegBindingTests.partnerForm(url, login: "dave", password: "gx-dave-password"))
            #expect(right == 303)
            let location = try #require(response.value(forHTTPHeaderField: "Location"))
            #expect(location.hasPrefix("/access/api/gx-arrive-store/partner_callback?code=grocery_express-code-"))
            #expect(location.contains("&state="))
            // The request is used up with its code.
            let (again, _, _) = try await Pages.get(base, url.path, items.map { ($0.name, $0.value ?? "") })
            #expect(again == 400)
        }
    }

    // MARK: Partner codes: single-use, short-lived, never relinking another user's account

    @Test func aCodeWorksOnceThenThePartnerSignInIsNeeded() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let items = [
                ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "bob@example.com"),
                ("code", "gx-oauth-code-bob"), LinkBindingTests.challenge, LinkBindingTests.challengeMethod,
                ("skip_config", "true"),
            ]
            let url = URL(string: base.absoluteString + "/access/api/gx-arrive-store?" + Pages.query(items))!
            let first = try await PageWalker.walk(url, base: base, fill: Self.fill(ifttt: "bob-password"))
            #expect(first.titles == ["Sign in to IFTTT", "Authorize Grocery Express"])
            #expect(first.items["next_step"] == "complete")
            // The same code again: used, so the user goes through Grocery Express's sign-in.
            let second = try await PageWalker.walk(
                url, base: base, fill: Self.fill(ifttt: "bob-password", partner: ("bob", "gx-bob-password")))
            #expect(second.titles == ["Sign in to IFTTT", "Authorize Grocery Express", "Sign in to Grocery Express"])
            #expect(second.items["next_step"] == "complete")
        }
    }

    @Test func anExpiredCodeIsRefused() async throws {
        let path = temporaryDatabasePath()
        try await SandboxServer.withRunning(SandboxTest.configuration(databasePath: path)) { base in
            try await SandboxStore(path: path).expirePartnerCode("gx-oauth-code-bob", at: Date().addingTimeInterval(-1))
            let url = URL(
                string: base.absoluteString + "/access/api/gx-arrive-store?"
                    + Pages.query([
                        ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "bob@example.com"),
                        ("code", "gx-oauth-code-bob"), LinkBindingTests.challenge, LinkBindingTests.challengeMethod,
                        ("skip_config", "true"),
                    ]))!
            let walk = try await PageWalker.walk(
                url, base: base, fill: Self.fill(ifttt: "bob-password", partner: ("bob", "gx-bob-password")))
            #expect(walk.titles.last == "Sign in to Grocery Express")
        }
    }

    /// The relink attack: carol used alice's partner code (or signed in to alice's Grocery Express account) and
    /// `/v2/user_token` for alice's partner account then returned carol's token. Failed before the fix.
    @Test func anotherUsersPartnerAccountIsNeverRelinked() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let client = Client(base: base)
            // With alice's code.
            let session = try await Self.start(
                base, "gx-arrive-store",
                [
                    ("sdk_return_to", "http://127.0.0.1:4567/cb"),
                    ("email", "carol@example.com"), ("code", "gx-oauth-code-alice"), LinkBindingTests.challenge,
                    LinkBindingTests.challengeMethod,
                ])
            _ = try await Pages.post(
                base, "/access/api/gx-arrive-store/sign_in",
                [("activation_session", session), ("email", "carol@example.com"), ("password", "carol-password")])
            let (status, html, _) = try await Pages.post(
                base, "/access/api/gx-arrive-store/authorize", [("activation_session", session)])
            #expect(status == 409)
            #expect(html.contains("already connected to another IFTTT account"))
            #expect(
                try await Self.linkedUser(client, partnerUserId: "gx-user-1001", accessToken: "gx-access-token-alice")
                    == "alice")
            // Through the partner sign-in with alice's Grocery Express password.
            let url = URL(
                string: base.absoluteString + "/access/api/gx-arrive-store?"
                    + Pages.query([
                        ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "carol@example.com"),
                    ]))!
            await #expect(throws: PageWalker.Stuck.self) {
                _ = try await PageWalker.walk(
                    url, base: base, fill: Self.fill(ifttt: "carol-password", partner: ("alice", "gx-alice-password")))
            }
            #expect(
                try await Self.linkedUser(client, partnerUserId: "gx-user-1001", accessToken: "gx-access-token-alice")
                    == "alice")
        }
    }

    // MARK: The flow is bound to the parameters it started with

    /// A later form post swapped `sdk_return_to` and `state` in the hidden fields and got the token sent to the
    /// attacker's URL. Failed before the fix.
    @Test func laterHiddenFieldsCannotChangeTheFlow() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration(redirectState: .echo)) { base in
            let session = try await Self.start(
                base, "gx-arrive-store",
                [
                    ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("state", "victim-state"),
                    ("email", "bob@example.com"),
                    ("code", "gx-oauth-code-bob"), LinkBindingTests.challenge, LinkBindingTests.challengeMethod,
                    ("skip_config", "true"),
                ])
            let swapped = [
                ("sdk_return_to", "http://127.0.0.1:9999/steal"), ("state", "attacker-state"),
                ("code", "gx-oauth-code-dave"),
                ("skip_config", "true"), ("activation_session", session),
            ]
            _ = try await Pages.post(
                base, "/access/api/gx-arrive-store/sign_in",
                swapped + [("email", "bob@example.com"), ("password", "bob-password")])
            let (status, _, response) = try await Pages.post(base, "/access/api/gx-arrive-store/authorize", swapped)
            #expect(status == 303)
            let location = try #require(URLComponents(string: response.value(forHTTPHeaderField: "Location") ?? ""))
            #expect(location.port == 4567 && location.path == "/cb")
            #expect(location.queryItems?.first { $0.name == "state" }?.value == "victim-state")
            // dave's code was not used: it still links dave's account.
            let client = Client(base: base)
            #expect(
                try await Self.linkedUser(client, partnerUserId: "gx-user-1003", accessToken: "gx-access-token-dave")
                    == nil)
        }
    }

    // MARK: Cross-site posts

    /// No Origin check on any form post (sign-in, account creation, the playground's tap). Failed before the fix.
    @Test func crossSitePostsAreRefused() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let session = try await Self.start(base, "gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:4567/cb")])
            let own = "http://\(base.host!):\(base.port!)"
            let posts: [(String, String)] = [
                (
                    "/access/api/gx-arrive-store/sign_in",
                    "activation_session=\(session)&email=bob%40example.com&password=bob-password"
                ),
                (
                    "/access/api/gx-arrive-store/create_account",
                    "activation_session=\(session)&email=x%40example.com&password=p"
                ),
                ("/playground/live/tap", "connection=gx-weekly-deals"),
                (
                    "/partner/grocery_express/oauth/authorize",
                    "response_type=code&client_id=ifttt&redirect_uri=%2Faccess%2Fapi%2Fgx-arrive-store%2Fpartner_callback&state=s&login=dave&password=gx-dave-password"
                ),
            ]
            for (path, body) in posts {
                for headers in [
                    ["Origin": "http://evil.example"], ["Origin": "null"], ["Sec-Fetch-Site": "cross-site"],
                    ["Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:1"],
                ] {
                    var request = URLRequest(url: URL(string: base.absoluteString + path)!)
                    request.httpMethod = "POST"
                    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
                    request.httpBody = Data(body.utf8)
                    let (data, response) = try await Pages.session.data(for: request)
                    #expect((response as? HTTPURLResponse)?.statusCode == 403, "\(path) \(headers)")
                    #expect(String(decoding: data, as: UTF8.self).contains("Cross-site requests are not allowed"))
                }
            }
            // The sandbox's own pages post with their own origin.
            var request = URLRequest(url: URL(string: base.absoluteString + posts[0].0)!)
            request.httpMethod = "POST"
            request.setValue(own, forHTTPHeaderField: "Origin")
            request.setValue("same-origin", forHTTPHeaderField: "Sec-Fetch-Site")
            request.httpBody = Data(posts[0].1.utf8)
            let (_, response) = try await Pages.session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            // An API post from a page elsewhere gets the JSON envelope.
            let api = try await Client(base: base).request(
                "POST", "/v2/sdk/events", headers: ["Origin": "http://evil.example"],
                body: Data("{\"events\":[]}".utf8))
            #expect(api.status == 403 && api.errorCode == "forbidden")
        }
    }

    // MARK: Passwords

    /// Passwords were stored and compared in plain text. Failed before the fix.
    @Test func passwordsAreStoredAsSaltedHashes() async throws {
        let path = temporaryDatabasePath()
        try await SandboxServer.withRunning(SandboxTest.configuration(databasePath: path)) { base in
            let first = try await Self.start(
                base, "gx-arrive-store",
                [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("sdk_create_account", "true")])
            _ = try await Pages.post(
                base, "/access/api/gx-arrive-store/create_account",
                [("activation_session", first), ("email", "twin1@example.com"), ("password", "same secret")])
            let second = try await Self.start(
                base, "gx-arrive-store",
                [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("sdk_create_account", "true")])
            _ = try await Pages.post(
                base, "/access/api/gx-arrive-store/create_account",
                [("activation_session", second), ("email", "twin2@example.com"), ("password", "same secret")])
        }
        let store = try SandboxStore(path: path)
        let seed = try await store.exportSeed()
        let stored = [String: String](uniqueKeysWithValues: seed.users.map { ($0.email, $0.password ?? "") })
        #expect(stored.count == 5)
        for (email, hash) in stored {
            #expect(hash.hasPrefix("pbkdf2-sha256$4096$"), "\(email)")
            #expect(!hash.contains("password") && !hash.contains("secret"))
        }
        #expect(stored["twin1@example.com"] != stored["twin2@example.com"])  // salted
        let partner = seed.partnerAccounts.map { $0.password ?? "" }
        #expect(partner.count == 3 && partner.allSatisfy { $0.hasPrefix("pbkdf2-sha256$") })
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(
            file.range(of: Data("alice-password".utf8)) == nil && file.range(of: Data("gx-dave-password".utf8)) == nil)
        // The lookups and the hash check the sign-in pages use.
        let alice = try await store.signInUser(identifier: "ALICE@example.com")
        #expect(SandboxStore.verified(alice, stored: \.password, password: "alice-password")?.id == "alice")
        #expect(SandboxStore.verified(alice, stored: \.password, password: "alice-passwordX") == nil)
        let dave = try await store.partnerSignInAccount(serviceId: "grocery_express", login: "dave")
        #expect(
            SandboxStore.verified(dave, stored: \.password, password: "gx-dave-password")?.partnerUserId
                == "gx-user-1003")
    }

    @Test func theHashFunctionsMatchTheirTestVectors() {
        #expect(
            PasswordHash.hex(SHA256.hash(data: Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            PasswordHash.hex(SHA256.hash(data: [UInt8]()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            PasswordHash.hex(SHA256.hash(data: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let p = Array("password".utf8)
        let s = Array("salt".utf8)
        #expect(
            PasswordHash.hex(PasswordHash.pbkdf2(password: p, salt: s, iterations: 1, length: 32))
                == "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")
        #expect(
            PasswordHash.hex(PasswordHash.pbkdf2(password: p, salt: s, iterations: 2, length: 32))
                == "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43")
        #expect(
            PasswordHash.hex(PasswordHash.pbkdf2(password: p, salt: s, iterations: 4096, length: 32))
                == "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")
        let hash = PasswordHash.make("correct horse")
        #expect(PasswordHash.verify("correct horse", against: hash))
        #expect(!PasswordHash.verify("correct horsf", against: hash))
        #expect(!PasswordHash.verify("correct horse", against: "correct horse"))  // plain text never matches
        #expect(PasswordHash.make("correct horse") != hash)
        // The stored format is unchanged: a hash made elsewhere (Python's hashlib.pbkdf2_hmac) verifies.
        let stored =
            "pbkdf2-sha256$4096$00112233445566778899aabbccddeeff$"
            + "b0a94ad1bd261e03f243812a91fb16e6d258b359c63ba71cc6ef31be83916ef7"
        #expect(PasswordHash.verify("correct horse", against: stored))
        #expect(!PasswordHash.verify("correct horsf", against: stored))
    }

    /// No throttling: a guesser could try passwords forever. Failed before the fix.
    @Test func signInIsThrottled() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let session = try await Self.start(base, "gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:4567/cb")])
            for _ in 0..<SignInThrottle.maximumFailures {
                let (status, _, _) = try await Pages.post(
                    base, "/access/api/gx-arrive-store/sign_in",
                    [("activation_session", session), ("email", "bob@example.com"), ("password", "guess")])
                #expect(status == 401)
            }
            let (status, html, _) = try await Pages.post(
                base, "/access/api/gx-arrive-store/sign_in",
                [("activation_session", session), ("email", "BOB@example.com"), ("password", "bob-password")])
            #expect(status == 429)
            #expect(html.contains("Too many wrong passwords"))
            // Another account is not affected.
            let (alice, _, _) = try await Pages.post(
                base, "/access/api/gx-arrive-store/sign_in",
                [("activation_session", session), ("email", "alice@example.com"), ("password", "alice-password")])
            #expect(alice == 200)
            // The partner's sign-in is throttled the same way.
            let url = try await PartnerLegBindingTests.partnerSignInURL(
                base, email: "carol@example.com", password: "carol-password")
            for _ in 0..<SignInThrottle.maximumFailures {
                _ = try await Pages.post(
                    base, url.path, PartnerLegBindingTests.partnerForm(url, login: "dave", password: "guess"))
            }
            let (partner, _, _) = try await Pages.post(
                base, url.path, PartnerLegBindingTests.partnerForm(url, login: "dave", password: "gx-dave-password"))
            #expect(partner == 429)
        }
    }

    @Test func theThrottleForgetsOldFailures() {
        let throttle = SignInThrottle()
        let start = Date()
        for _ in 0..<SignInThrottle.maximumFailures { throttle.recordFailure(account: "x", source: "s", now: start) }
        #expect(!throttle.allows(account: "x", source: "s", now: start.addingTimeInterval(1)))
        #expect(throttle.allows(account: "x", source: "s", now: start.addingTimeInterval(SignInThrottle.window + 1)))
        #expect(throttle.trackedAccounts == 0)
    }

    // MARK: Files

    /// The embedded sandbox's database (all tokens, the service key) was created 0644. Failed before the fix.
    @Test func theDatabaseAndItsDirectoryArePrivate() throws {
        let root = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("a/b/sandbox.sqlite").path
        _ = try SandboxStore(path: path)
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(path) == 0o600)
        #expect(try mode(root.appendingPathComponent("a/b").path) == 0o700)
        #expect(try mode(root.appendingPathComponent("a").path) == 0o700)
        let old = root.appendingPathComponent("old.sqlite").path
        #expect(FileManager.default.createFile(atPath: old, contents: nil, attributes: [.posixPermissions: 0o644]))
        _ = try SandboxStore(path: old)
        #expect(try mode(old) == 0o600)
    }

    /// The default token file path ignored `$HOME`. Failed before the fix.
    @Test func theDefaultTokenPathHonoursHOME() {
        #expect(
            ConnectCommand.defaultTokenFile(environment: ["HOME": "/tmp/someone"])
                == "/tmp/someone/.ifttt-connect/user-token")
        #expect(ConnectCommand.defaultTokenFile(environment: [:]).hasSuffix("/.ifttt-connect/user-token"))
    }

    // MARK: Headers and error bodies

    /// Playground pages had no CSP or frame protection and were cached `public, max-age=3600`. Failed before the fix.
    @Test func everyPageHasTheSecurityHeaders() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let pages = [
                "/playground", "/playground/live?connection=gx-weekly-deals",
                "/access/api/gx-weekly-deals?sdk_return_to=http://127.0.0.1:1/cb",
                "/access/api/nope?sdk_return_to=http://127.0.0.1:1/cb",
                "/partner/grocery_express/oauth/authorize?response_type=code&client_id=ifttt&redirect_uri=/access/api/x/partner_callback&state=s",
            ]
            for page in pages {
                let (_, response) = try await Pages.session.data(from: URL(string: base.absoluteString + page)!)
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/html") == true, "\(page)")
                #expect(
                    http.value(forHTTPHeaderField: "Content-Security-Policy")?.contains("frame-ancestors 'none'")
                        == true, "\(page)")
                #expect(
                    http.value(forHTTPHeaderField: "Content-Security-Policy")?.contains("default-src 'none'") == true,
                    "\(page)")
                #expect(http.value(forHTTPHeaderField: "X-Frame-Options") == "DENY", "\(page)")
                #expect(http.value(forHTTPHeaderField: "Cache-Control") == "no-store", "\(page)")
                #expect(http.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff", "\(page)")
            }
        }
    }

    /// Icon URLs with a `javascript:` scheme reached the playground's SVG; a service's `url` and a seeded
    /// `cover_image` kept any scheme (issue 19). Failed before the fix.
    @Test func onlyWebIconURLsAreRendered() async throws {
        var seed = try SeedData.demo()
        seed.services[0].monochromeIconURL = "javascript:alert(1)"
        seed.services[0].colorIconURL = "JavaScript:alert(2)"
        seed.services[0].url = "javascript:alert(3)"
        for index in seed.connections.indices {
            seed.connections[index].coverImage = [
                "480w_url": "javascript:alert(4)", "720w_url": "https://covers.example/720.png",
            ]
        }
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("seed.json")
        try JSONEncoder().encode(seed).write(to: file)
        try await SandboxServer.withRunning(SandboxTest.configuration(seedFile: file)) { base in
            let client = Client(base: base)
            for connection in seed.connections where connection.published {
                let json = try await client.get("/v2/connections/\(connection.id)")
                #expect(
                    !String(decoding: json.data, as: UTF8.self).lowercased().contains("javascript:"), "\(connection.id)"
                )
                #expect(try json.json["cover_image"]?["720w_url"]?.stringValue == "https://covers.example/720.png")
            }
            let (data, _) = try await Pages.session.data(from: URL(string: base.absoluteString + "/playground")!)
            let html = String(decoding: data, as: UTF8.self)
            #expect(html.contains("<svg"))
            #expect(!html.lowercased().contains("javascript:"))
        }
        #expect(ConnectionRenderer.webURL("https://example.com/i.png") != nil)
        for bad in [
            "javascript:alert(1)", "data:image/svg+xml,<svg/>", "/relative.png", "http://",
            "https://a.example/x\" onload=\"x",
        ] {
            #expect(ConnectionRenderer.webURL(bad) == nil, "\(bad)")
        }
    }

    /// Parser-level 400s had an empty body. Failed before the fix.
    @Test func parserErrorsHaveTheErrorEnvelope() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let reply = try await RawHTTP.exchangeOffThePool(
                port: base.port!, "GET /v2/me HTTP/1.1\r\nHost: x\r\nBad Header Name: y\r\n\r\n")
            #expect(reply.hasPrefix("HTTP/1.1 400"))
            let lower = reply.lowercased()
            #expect(lower.contains("content-type: application/json"))
            #expect(lower.contains("x-content-type-options: nosniff"))
            #expect(reply.contains("\"type\":\"error\"") && reply.contains("\"code\":\"invalid_parameters\""))
            // Route-level errors carry nosniff too.
            let missing = try await Client(base: base).get("/v2/nothing-here")
            #expect(missing.status == 404 && missing.errorCode == "not_found")
            #expect(missing.headers.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff")
        }
    }
}

/// One request over a plain TCP socket, for requests URLSession cannot send (malformed HTTP).
enum RawHTTP {
    struct Failure: Error { var step: String }

    /// ``exchange(port:_:)`` on a Dispatch thread: its blocking `recv` must not hold one of the few threads of
    /// Swift's cooperative pool, which the in-process server needs to answer.
    static func exchangeOffThePool(port: Int, _ request: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try exchange(port: port, request) })
            }
        }
    }

    static func exchange(port: Int, _ request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(step: "socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)  // generous: the machine may be busy
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
        let bytes = Array(request.utf8)
        guard send(fd, bytes, bytes.count, 0) == bytes.count else { throw Failure(step: "send") }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        return String(decoding: reply, as: UTF8.self)
    }
}
