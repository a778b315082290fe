@testable import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The partner leg (the sandbox plays Grocery Express's OAuth) bound like a careful OAuth server (issue 19, item 5):
/// one test per attack, each failing on the code before the fix. Every person has a browser of their own (an
/// ephemeral URLSession with its own cookies).
@Suite("Web activation: the partner leg is bound to its flow and browser")
struct PartnerLegBindingTests {
    typealias Pages = WebActivationPageTests
    typealias Hardening = ActivationHardeningTests

    /// Starts a flow without a code in `browser`, signs in to IFTTT and authorizes: returns the partner sign-in URL
    /// the pages redirect to.
    static func partnerSignInURL(
        _ base: URL, email: String, password: String, connection: String = "gx-arrive-store",
        in browser: URLSession = WebActivationPageTests.session
    ) async throws -> URL {
        let (status, html, _) = try await Pages.get(
            base, "/access/api/\(connection)", [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", email)],
            in: browser)
        #expect(status == 200)
        let session = try #require(Pages.hiddenValue("activation_session", in: html))
        let (signedIn, _, _) = try await Pages.post(
            base, "/access/api/\(connection)/sign_in",
            [("activation_session", session), ("email", email), ("password", password)], in: browser)
        #expect(signedIn == 200)
        let (redirected, _, response) = try await Pages.post(
            base, "/access/api/\(connection)/authorize", [("activation_session", session)], in: browser)
        #expect(redirected == 303)
        let location = try #require(response.value(forHTTPHeaderField: "Location"))
        return try #require(URL(string: location, relativeTo: base)?.absoluteURL)
    }

    /// The partner's form fields of a sign-in URL, with `login` and `password`.
    static func partnerForm(_ url: URL, login: String, password: String) -> [(String, String)] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.map { ($0.name, $0.value ?? "") } + [("login", login), ("password", password)]
    }

    /// Follows the partner's sign-in URL in `browser`: signs in as `login` and returns where the partner redirects
    /// (IFTTT's callback with `code` and `state`), without following it.
    static func partnerSignIn(_ base: URL, _ url: URL, login: String, password: String, in browser: URLSession)
        async throws -> (page: String, callback: URLComponents)
    {
        let items = (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
            ($0.name, $0.value ?? "")
        }
        let (status, page, _) = try await Pages.get(base, url.path, items, in: browser)
        #expect(status == 200)
        let (posted, _, response) = try await Pages.post(
            base, url.path, Self.partnerForm(url, login: login, password: password), in: browser)
        #expect(posted == 303)
        let location = try #require(response.value(forHTTPHeaderField: "Location"))
        return (page, try #require(URLComponents(string: location)))
    }

    /// GETs IFTTT's callback `callback` in `browser`; returns the status and the page.
    static func deliver(_ base: URL, _ callback: URLComponents, in browser: URLSession) async throws -> (Int, String) {
        let url = try #require(URL(string: base.absoluteString + (callback.string ?? "")))
        let (data, response) = try await browser.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? -1, String(decoding: data, as: UTF8.self))
    }

    /// The IFTTT login the partner backend's `POST /partner/grocery_express/api/user_token` answers for a partner
    /// session: whose token the app would hold.
    static func backendUser(_ client: Client, partnerSession: String) async throws -> String? {
        let answer = try await client.request(
            "POST", "/partner/grocery_express/api/user_token", headers: ["Authorization": "Bearer \(partnerSession)"])
        #expect(answer.status == 200)
        guard let token = try answer.json["user_token"]?.stringValue else { return nil }
        return try await client.get("/v2/me", token: token).json["user_login"]?.stringValue
    }

    /// Carol sends dave her flow's partner sign-in URL; dave signs in to Grocery Express, and his account was linked
    /// to carol's IFTTT account: the partner backend then gave dave's app carol's token, and the page never said
    /// which IFTTT account it connected. Failed before the fix.
    @Test func aPartnerSignInLinkSentToSomeoneElseLinksNothing() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let carol = Pages.browser()
            let dave = Pages.browser()
            let url = try await Self.partnerSignInURL(
                base, email: "carol@example.com", password: "carol-password", in: carol)
            let (page, callback) = try await Self.partnerSignIn(
                base, url, login: "dave", password: "gx-dave-password", in: dave)
            // The page names the IFTTT account being connected: dave can see it is not his.
            #expect(page.contains("<strong id=\"ifttt-account\">carol (carol@example.com)</strong>"))
            let (status, html) = try await Self.deliver(base, callback, in: dave)
            #expect(status == 400)
            #expect(html.contains("another browser"))
            let client = Client(base: base)
            #expect(
                try await Hardening.linkedUser(
                    client, partnerUserId: "gx-user-1003", accessToken: "gx-access-token-dave")
                    == nil)
            #expect(try await Self.backendUser(client, partnerSession: "gx-access-token-dave") == nil)
        }
    }

    /// A code the partner issued to flow A, sent with flow B's state from B's own browser, linked A's partner account
    /// (dave's) to B's IFTTT user (bob). Failed before the fix. The code, bound to flow A, still works there.
    @Test func aCodeWorksOnlyForTheFlowItWasIssuedTo() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let alice = Pages.browser()
            let bob = Pages.browser()
            // Flow A: alice's IFTTT account, dave's Grocery Express account; its code is not delivered yet.
            let urlA = try await Self.partnerSignInURL(
                base, email: "alice@example.com", password: "alice-password", in: alice)
            let (_, callbackA) = try await Self.partnerSignIn(
                base, urlA, login: "dave", password: "gx-dave-password", in: alice)
            let codeA = try #require(callbackA.queryItems?.first { $0.name == "code" }?.value)
            // Flow B: bob learns his own flow's state by signing in to Grocery Express himself, then swaps in A's code.
            let urlB = try await Self.partnerSignInURL(
                base, email: "bob@example.com", password: "bob-password", in: bob)
            let (_, callbackB) = try await Self.partnerSignIn(
                base, urlB, login: "bob", password: "gx-bob-password", in: bob)
            var forged = callbackB
            forged.queryItems = callbackB.queryItems?.map {
                $0.name == "code" ? URLQueryItem(name: "code", value: codeA) : $0
            }
            let (status, _) = try await Self.deliver(base, forged, in: bob)
            #expect(status == 400)
            // A seeded (provisional) code is not accepted on the callback either.
            forged.queryItems = callbackB.queryItems?.map {
                $0.name == "code" ? URLQueryItem(name: "code", value: "gx-oauth-code-dave") : $0
            }
            #expect(try await Self.deliver(base, forged, in: bob).0 == 400)
            let client = Client(base: base)
            #expect(
                try await Hardening.linkedUser(
                    client, partnerUserId: "gx-user-1003", accessToken: "gx-access-token-dave")
                    == nil)
            // Flow A's own callback, in alice's browser: dave's account is linked to alice.
            let (delivered, html) = try await Self.deliver(base, callbackA, in: alice)
            #expect(delivered == 200)
            #expect(html.contains("id=\"configure\""))
            #expect(
                try await Hardening.linkedUser(
                    client, partnerUserId: "gx-user-1003", accessToken: "gx-access-token-dave")
                    == "alice")
        }
    }

    /// After authorizing as alice, signing in again as bob in the same flow made the flow bob's: the Connection was
    /// configured for bob and bob's token sent to the app, with alice's partner authorization. Failed before the fix.
    @Test func noOtherUserCanSignInToAFlow() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let session = try await Hardening.start(
                base, "gx-weekly-deals",
                [
                    ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "alice@example.com"),
                    ("code", "gx-oauth-code-alice"), LinkBindingTests.challenge, LinkBindingTests.challengeMethod,
                ])
            let path = "/access/api/gx-weekly-deals"
            func signIn(_ email: String, _ password: String) async throws -> Int {
                try await Pages.post(
                    base, "\(path)/sign_in",
                    [("activation_session", session), ("email", email), ("password", password)]
                ).0
            }
            #expect(try await signIn("alice@example.com", "alice-password") == 200)
            // Before authorizing: another user cannot take over the flow, nor create an account in it.
            #expect(try await signIn("bob@example.com", "bob-password") == 409)
            let (created, _, _) = try await Pages.post(
                base, "\(path)/create_account",
                [("activation_session", session), ("email", "mallory@example.com"), ("password", "p")])
            #expect(created == 409)
            let mallory = try await Client(base: base).get("/v2/account/find", query: ["email": "mallory@example.com"])
            #expect(mallory.status == 404)
            let (authorized, configure, _) = try await Pages.post(
                base, "\(path)/authorize", [("activation_session", session)])
            #expect(authorized == 200 && configure.contains("id=\"configure\""))
            // After authorizing: nobody signs in again, alice included.
            #expect(try await signIn("bob@example.com", "bob-password") == 409)
            #expect(try await signIn("alice@example.com", "alice-password") == 409)
            let (status, _, response) = try await Pages.post(
                base, "\(path)/configure", [("activation_session", session), ("action", "save")])
            #expect(status == 303)
            let token = try #require(
                URLComponents(string: response.value(forHTTPHeaderField: "Location") ?? "")?.queryItems?.first {
                    $0.name == "user_token"
                }?.value)
            #expect(try await Client(base: base).get("/v2/me", token: token).json["user_login"]?.stringValue == "alice")
        }
    }

    /// Carol's attempt to relink alice's Grocery Express account with alice's code was refused, but it used the code
    /// up: alice's own activation with it then had to go through the partner's sign-in. Failed before the fix.
    @Test func aRefusedRelinkLeavesTheCodeUsable() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let session = try await Hardening.start(
                base, "gx-arrive-store",
                [
                    ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "carol@example.com"),
                    ("code", "gx-oauth-code-alice"), LinkBindingTests.challenge, LinkBindingTests.challengeMethod,
                ])
            _ = try await Pages.post(
                base, "/access/api/gx-arrive-store/sign_in",
                [("activation_session", session), ("email", "carol@example.com"), ("password", "carol-password")])
            let (refused, _, _) = try await Pages.post(
                base, "/access/api/gx-arrive-store/authorize", [("activation_session", session)])
            #expect(refused == 409)
            let alice = URL(
                string: base.absoluteString + "/access/api/gx-arrive-store?"
                    + Pages.query([
                        ("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "alice@example.com"),
                        ("code", "gx-oauth-code-alice"), LinkBindingTests.challenge, LinkBindingTests.challengeMethod,
                        ("skip_config", "true"),
                    ]))!
            let walk = try await PageWalker.walk(alice, base: base, fill: PageWalker.password("alice-password"))
            #expect(walk.titles == ["Sign in to IFTTT", "Authorize Grocery Express"])
            #expect(walk.items["next_step"] == "complete")
        }
    }

    /// A flow's form, posted from another browser (someone who was sent the page's hidden session id), does
    /// nothing. Failed before the fix.
    @Test func aFlowsFormsWorkOnlyInItsBrowser() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { base in
            let session = try await Hardening.start(
                base, "gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:4567/cb"), ("email", "bob@example.com")])
            let (elsewhere, _, _) = try await Pages.post(
                base, "/access/api/gx-arrive-store/sign_in",
                [("activation_session", session), ("email", "bob@example.com"), ("password", "bob-password")],
                in: Pages.browser())
            #expect(elsewhere == 400)
            let (here, _, _) = try await Pages.post(
                base, "/access/api/gx-arrive-store/sign_in",
                [("activation_session", session), ("email", "bob@example.com"), ("password", "bob-password")])
            #expect(here == 200)
        }
    }
}
