@testable import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An activation link's partner `code` works only for the app that built the link, and the sandbox's partner codes
/// are single-use and fresh: each attack as the other person would run it, over loopback, each failing on the code
/// before the fix. Every person has a browser of their own (an ephemeral URLSession with its own cookies).
@Suite("Web activation: a link's code is bound to the app that built it")
struct LinkBindingTests {
    typealias Pages = WebActivationPageTests
    typealias Binding = PartnerLegBindingTests
    typealias Hardening = ActivationHardeningTests

    /// The verifier of the other suites' activation URLs with a code, and the items those URLs carry beside it.
    static let testVerifier = PKCE.verifier()
    static let challenge = ("code_challenge", PKCE.challenge(testVerifier))
    static let challengeMethod = ("code_challenge_method", "S256")

    /// The URL items that bind `code` to the holder of `verifier` (`code_challenge`, `S256`), as the SDK sends them.
    static func bound(_ code: String, verifier: String) -> [(String, String)] {
        [("code", code), ("code_challenge", PKCE.challenge(verifier)), ("code_challenge_method", "S256")]
    }

    /// Runs a flow of `items` in `browser` to its end as `email` (Authorize, configuration skipped): the
    /// `user_token` of the redirect to the app, or `nil` when the flow went elsewhere (the partner's sign-in).
    static func finish(
        _ base: URL, _ items: [(String, String)], email: String, password: String, in browser: URLSession
    ) async throws -> String? {
        let (session, page) = try await SandboxResidueTests.signedIn(
            base, items + [("skip_config", "true")], email: email, password: password, in: browser)
        var form = [("activation_session", session)]
        if let shown = Pages.hiddenValue("partner_account", in: page) { form.append(("partner_account", shown)) }
        let (status, _, response) = try await Pages.post(
            base, "/access/api/gx-arrive-store/authorize", form, in: browser)
        #expect(status == 303)
        let location = response.value(forHTTPHeaderField: "Location") ?? ""
        return URLComponents(string: location)?.queryItems?.first { $0.name == "user_token" }?.value
    }

    /// `POST /access/api/gx-arrive-store/partner_link` as the SDK sends it: the status.
    static func completeLink(_ client: Client, token: String, verifier: String) async throws -> Int {
        try await client.request(
            "POST", "/access/api/gx-arrive-store/partner_link",
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/x-www-form-urlencoded"],
            body: Data("code_verifier=\(verifier)".utf8)
        ).status
    }

    /// Dave sends carol an activation link carrying his Grocery Express account's code (with a challenge of his own,
    /// or none, as a 2.8 app's URL has). Carol signs in and clicks Authorize. Before the fix the code linked dave's
    /// partner account to carol's IFTTT account at once, and dave's backend handed dave carol's user token (the
    /// reported attack: he could then disable her Connection). Now the code only claims the link, which needs the
    /// redirect's token (carol's device) together with dave's verifier (dave's app): his backend vouches for nobody,
    /// and presenting his verifier without her token links nothing.
    @Test func aLinkWithSomeoneElsesCodeLinksNothingEvenWhenAuthorized() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let client = Client(base: base)
            let daveVerifier = PKCE.verifier()
            let carol = Pages.browser()
            let link = [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "carol@example.com")]
            let token = try #require(
                try await Self.finish(
                    base, link + Self.bound("gx-oauth-code-dave", verifier: daveVerifier), email: "carol@example.com",
                    password: "carol-password", in: carol))
            #expect(try await client.get("/v2/me", token: token).json["user_login"] == "carol")
            // Dave's backend, asked with his partner session, has no IFTTT token for him: nothing is linked.
            #expect(try await Binding.backendUser(client, partnerSession: "gx-access-token-dave") == nil)
            #expect(
                try await Hardening.linkedUser(
                    client, partnerUserId: "gx-user-1003", accessToken: "gx-access-token-dave") == nil)
            // Dave's verifier with a token that is not carol's (his own IFTTT account's: bob's here) links nothing.
            #expect(try await Self.completeLink(client, token: "sandbox-user-token-bob", verifier: daveVerifier) == 404)
            // Carol's device holds her token but not dave's verifier: another verifier links nothing either.
            #expect(try await Self.completeLink(client, token: token, verifier: PKCE.verifier()) == 404)
            #expect(try await Binding.backendUser(client, partnerSession: "gx-access-token-dave") == nil)

            // Without a challenge (a 2.8-style link), the code is not used at all: the partner's sign-in decides.
            let other = Pages.browser()
            let (session, page) = try await SandboxResidueTests.signedIn(
                base, link + [("code", "gx-oauth-code-dave")], email: "carol@example.com",
                password: "carol-password", in: other)
            #expect(!page.contains("partner-account"))
            let (status, _, response) = try await Pages.post(
                base, "/access/api/gx-arrive-store/authorize", [("activation_session", session)], in: other)
            #expect(status == 303)
            #expect(
                response.value(forHTTPHeaderField: "Location")?.hasPrefix("/partner/grocery_express/oauth/") == true)
            #expect(try await Binding.backendUser(client, partnerSession: "gx-access-token-dave") == nil)
        }
    }

    /// The genuine flow: the app builds the link with its signed-in user's code (the Grocery Express account dave)
    /// and its challenge; that user signs in to IFTTT (the IFTTT account carol here) and authorizes; the app
    /// presents the redirect's token with its verifier: the link is made, once, and the backend then vouches.
    @Test func theAppThatBuiltTheLinkCompletesItWithTheRedirectsToken() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let client = Client(base: base)
            let verifier = PKCE.verifier()
            let items =
                [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "carol@example.com")]
                + Self.bound("gx-oauth-code-dave", verifier: verifier)
            let token = try #require(
                try await Self.finish(
                    base, items, email: "carol@example.com", password: "carol-password", in: Pages.browser()))
            #expect(try await Binding.backendUser(client, partnerSession: "gx-access-token-dave") == nil)
            #expect(try await Self.completeLink(client, token: token, verifier: verifier) == 204)
            #expect(try await Binding.backendUser(client, partnerSession: "gx-access-token-dave") == "carol")
            // The claim is used up.
            #expect(try await Self.completeLink(client, token: token, verifier: verifier) == 404)
            // No token, a junk verifier: refused.
            let anonymous = try await client.request(
                "POST", "/access/api/gx-arrive-store/partner_link",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("code_verifier=\(verifier)".utf8))
            #expect(anonymous.status == 401)
            #expect(try await Self.completeLink(client, token: token, verifier: "short") == 400)
        }
    }

    // MARK: The partner's codes

    /// The backend's sign-in for the native app handed out the seed's static code on every sign-in, also once it
    /// was spent (and `connect --help` printed it). Now each sign-in issues a fresh single-use code, valid 10
    /// minutes; a spent one is never handed out again.
    @Test func everySignInIssuesAFreshSingleUseCode() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let client = Client(base: base)
            func signIn() async throws -> String {
                let answer = try await client.request(
                    "POST", "/partner/grocery_express/api/session",
                    body: Data(#"{"login": "dave", "password": "gx-dave-password"}"#.utf8))
                #expect(answer.status == 200)
                return try #require(try answer.json["oauth_code"]?.stringValue)
            }
            let first = try await signIn()
            let second = try await signIn()
            #expect(first != second)
            #expect(first != "gx-oauth-code-dave" && second != "gx-oauth-code-dave")
            let verifier = PKCE.verifier()
            let token = try #require(
                try await Self.finish(
                    base,
                    [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "carol@example.com")]
                        + Self.bound(first, verifier: verifier),
                    email: "carol@example.com", password: "carol-password", in: Pages.browser()))
            #expect(try await Self.completeLink(client, token: token, verifier: verifier) == 204)
            // Spent: a second flow with it goes through the partner's sign-in, and no sign-in returns it again.
            let again = try await Self.finish(
                base,
                [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "alice@example.com")]
                    + Self.bound(first, verifier: PKCE.verifier()),
                email: "alice@example.com", password: "alice-password", in: Pages.browser())
            #expect(again == nil)
            for _ in 0..<3 { #expect(try await signIn() != first) }
        }
    }

    // MARK: Partner sessions

    /// The "session" the backend's sign-in returned was the account's permanent access token: it never expired and
    /// signing out could not revoke it. Failed before the fix (the session was `gx-access-token-dave` and still
    /// worked after sign-out). Now each sign-in starts a random session, and sign-out ends it everywhere.
    @Test func signingOutRevokesThePartnerSession() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let client = Client(base: base)
            let answer = try await client.request(
                "POST", "/partner/grocery_express/api/session",
                body: Data(#"{"login": "alice", "password": "gx-alice-password"}"#.utf8))
            let session = try #require(try answer.json["session"]?.stringValue)
            #expect(session != "gx-access-token-alice")
            let other = try #require(
                try await client.request(
                    "POST", "/partner/grocery_express/api/session",
                    body: Data(#"{"login": "alice", "password": "gx-alice-password"}"#.utf8)
                ).json["session"]?.stringValue)
            #expect(other != session)
            #expect(try await Binding.backendUser(client, partnerSession: session) == "alice")
            let signOut = try await client.request(
                "DELETE", "/partner/grocery_express/api/session", headers: ["Authorization": "Bearer \(session)"])
            #expect(signOut.status == 204)
            let after = try await client.request(
                "POST", "/partner/grocery_express/api/user_token", headers: ["Authorization": "Bearer \(session)"])
            #expect(after.status == 401)
            let again = try await client.request(
                "DELETE", "/partner/grocery_express/api/session", headers: ["Authorization": "Bearer \(session)"])
            #expect(again.status == 401)
            // Another session of the same account is not affected.
            #expect(try await Binding.backendUser(client, partnerSession: other) == "alice")
        }
    }

    // MARK: /sandbox/dispatches

    /// Every action run and trigger test, with its field values (an e-mail subject), was readable by anyone
    /// without credentials. Failed before the fix (200 with the subject). Now a service key is required and reads
    /// only its own service's Connections' dispatches.
    @Test func dispatchesNeedTheServiceKeyAndShowOnlyItsOwnService() async throws {
        let seed = try SandboxTest.temporaryDirectory().appendingPathComponent("rival.json")
        let rival =
            ##"{"services": [{"id": "rival", "name": "Rival", "short_name": "Rival", "brand_color": "#000000", "##
            + ##""url": "https://ifttt.com/rival", "service_key": "rival-key"}]}"##
        try Data(rival.utf8).write(to: seed)
        try await SandboxServer.withRunning(SandboxTest.configuration(seedFile: seed)) { base in
            let client = Client(base: base)
            let run = try await client.post(
                "/v2/connections/gx-weekly-deals/actions/email.send_me_email/run", serviceKey: SandboxTest.serviceKey,
                body: Data(#"{"user_id": "gx-user-1001", "fields": {"subject": "Private subject"}}"#.utf8))
            #expect(run.status == 200 || run.status == 204)
            let anonymous = try await client.get("/sandbox/dispatches")
            #expect(anonymous.status == 401)
            #expect(!String(decoding: anonymous.data, as: UTF8.self).contains("Private subject"))
            let user = try await client.get("/sandbox/dispatches", token: "sandbox-user-token-bob")
            #expect(user.status == 401)
            let other = try await client.get("/sandbox/dispatches", serviceKey: "rival-key")
            #expect(other.status == 200)
            #expect(!String(decoding: other.data, as: UTF8.self).contains("Private subject"))
            let own = try await client.get("/sandbox/dispatches", serviceKey: SandboxTest.serviceKey)
            #expect(String(decoding: own.data, as: UTF8.self).contains("Private subject"))
        }
    }
}
