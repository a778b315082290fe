@testable import ConnectCLI
import ConnectSandbox
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Walks the sandbox's activation pages over plain HTTP as a browser without JavaScript would: fetches a page,
/// fills its one form through `fill`, posts it, and follows the sandbox's own redirects, until the sandbox redirects
/// somewhere else (the app). Returns that final `Location` and the titles of the pages seen.
enum PageWalker {
    struct Walk {
        var location: URLComponents
        var titles: [String]
        /// The final redirect's query items by name.
        var items: [String: String] {
            Dictionary((location.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        }
    }

    struct Stuck: Error, CustomStringConvertible {
        var description: String
    }

    static func walk(
        _ start: URL, base: URL, maxPages: Int = 8,
        fill: (_ title: String, _ fields: [(name: String, value: String)]) -> [(String, String)]
    ) async throws -> Walk {
        var request = URLRequest(url: start)
        var titles: [String] = []
        for _ in 0..<maxPages {
            request.timeoutInterval = 10
            let (data, response) = try await WebActivationPageTests.session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            let page = request.url!
            if http.statusCode == 303 || http.statusCode == 302 {
                let location = try #require(http.value(forHTTPHeaderField: "Location"))
                let target = try #require(URL(string: location, relativeTo: page)?.absoluteURL)
                if target.host == base.host && target.port == base.port && target.scheme == base.scheme {
                    request = URLRequest(url: target)
                    continue
                }
                return Walk(location: try #require(URLComponents(string: location)), titles: titles)
            }
            let html = String(decoding: data, as: UTF8.self)
            guard let form = HTMLForm(html: html, base: page) else {
                throw Stuck(description: "page \(page.path) (\(http.statusCode)) has no form: \(html.prefix(600))")
            }
            titles.append(form.title)
            var fields = fill(form.title, form.fields)
            if form.hasSaveButton, !fields.contains(where: { $0.0 == "action" }) { fields.append(("action", "save")) }
            request = URLRequest(url: form.action)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(
                fields.map { HTMLForm.encode($0.0) + "=" + HTMLForm.encode($0.1) }.joined(separator: "&").utf8)
        }
        throw Stuck(description: "more than \(maxPages) pages: \(titles)")
    }

    /// Fills every `password` input with `password` and keeps the other fields as the page set them.
    static func password(_ password: String) -> (String, [(name: String, value: String)]) -> [(String, String)] {
        { _, fields in fields.map { $0.name == "password" ? ($0.name, password) : ($0.name, $0.value) } }
    }
}

/// `--redirect-state echo|ignore`, and activation URLs built exactly as IFTTT's iOS 2.8 and Android SDKs build them.
@Suite("Redirect state and the original SDKs' activation URLs")
struct RedirectStateTests {
    /// The web activation URL of the iOS 2.8 SDK, byte for byte (spec connect-sdk-ios.md §2.6): `URLComponents` with
    /// query items in the order common items (`sdk_return_to`, `sdk_version`, `sdk_platform=ios`, `sdk_anonymous_id`,
    /// `locale` = `Locale.identifier`, `skip_config=true` when skipping), the user (`email=`), then
    /// `available_email_app_schemes[]` per mail app for an existing user, then `code`. `URLComponents` leaves
    /// `:`, `/` and `@` raw in query values and encodes `[]` as `%5B%5D`; the SDK then turns `+` into `%2B`.
    /// No `state` anywhere.
    static func ios28URL(base: URL, returnTo: String, email: String, code: String) -> URL {
        URL(
            string: base.absoluteString + "/access/api/gx-arrive-store"
                + "?sdk_return_to=" + returnTo
                + "&sdk_version=2.8.0"
                + "&sdk_platform=ios"
                + "&sdk_anonymous_id=6F2B2A5C-3C0D-4C4B-9F0E-2D7C9A1B5E11"
                + "&locale=es_419"
                + "&skip_config=true"
                + "&email=" + email.replacingOccurrences(of: "+", with: "%2B")
                + "&available_email_app_schemes%5B%5D=message://"
                + "&available_email_app_schemes%5B%5D=googlegmail://"
                + "&code=" + code)!
    }

    /// The Android SDK's embed URL (spec connect-sdk-android.md §9): `sdk_version`, `sdk_platform=android`,
    /// `sdk_return_to`, `sdk_anonymous_id`, `code`, `available_email_app_schemes[]` (package names),
    /// `username` (from `/v2/me`), `skip_config`, `locale` (`es-419`); Android's `Uri.Builder` encodes
    /// everything but unreserved characters.
    static func androidURL(base: URL, returnTo: String, username: String, code: String) -> URL {
        let enc = WebActivationPageTests.query
        return URL(
            string: base.absoluteString + "/access/api/gx-arrive-store?"
                + enc([
                    ("sdk_version", "2.6.1"), ("sdk_platform", "android"), ("sdk_return_to", returnTo),
                    ("sdk_anonymous_id", "0d6c8f0e-5a43-4c1e-9d0b-1f7a3c2e4b55"), ("code", code),
                    ("available_email_app_schemes[]", "com.google.android.gm"),
                    ("available_email_app_schemes[]", "com.microsoft.office.outlook"),
                    ("username", username), ("skip_config", "true"), ("locale", "es-419"),
                ]))!
    }

    @Test(arguments: RedirectStateMode.allCases)
    func anIOS28URLIsServedAndTheRedirectCarriesNoState(mode: RedirectStateMode) async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration(redirectState: mode)) { base in
            let url = Self.ios28URL(
                base: base, returnTo: "groceryexpress://ifttt/callback", email: "bob@example.com",
                code: "gx-oauth-code-bob")
            #expect(url.absoluteString.contains("?sdk_return_to=groceryexpress://ifttt/callback&sdk_version=2.8.0&"))
            let (data, response) = try await WebActivationPageTests.session.data(from: url)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
            #expect(String(decoding: data, as: UTF8.self).contains("value=\"bob@example.com\""))
            // A 2.8 URL's code carries no challenge: the partner's own sign-in links the account instead.
            let walk = try await PageWalker.walk(
                url, base: base,
                fill: ActivationHardeningTests.fill(ifttt: "bob-password", partner: ("bob", "gx-bob-password")))
            #expect(
                walk.location.scheme == "groceryexpress" && walk.location.host == "ifttt"
                    && walk.location.path == "/callback")
            #expect(walk.items["next_step"] == "complete")
            #expect(walk.items["user_token"]?.isEmpty == false)
            #expect(walk.items["state"] == nil)  // none was sent, so none comes back in either mode
        }
    }

    @Test(arguments: RedirectStateMode.allCases)
    func anAndroidURLWithAUsernameIsServed(mode: RedirectStateMode) async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration(redirectState: mode)) { base in
            let url = Self.androidURL(
                base: base, returnTo: "http://127.0.0.1:4567/cb", username: "bob", code: "gx-oauth-code-bob")
            let (data, response) = try await WebActivationPageTests.session.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("value=\"bob\""))
            let walk = try await PageWalker.walk(
                url, base: base,
                fill: ActivationHardeningTests.fill(ifttt: "bob-password", partner: ("bob", "gx-bob-password")))
            #expect(walk.location.host == "127.0.0.1" && walk.location.port == 4567)
            #expect(walk.location.queryItems?.map(\.name) == ["next_step", "user_token"])
        }
    }

    @Test func echoModeSendsTheStateBackAndIgnoreModeDoesNot() async throws {
        for mode in RedirectStateMode.allCases {
            try await SandboxServer.withRunning(SandboxTest.configuration(redirectState: mode)) { base in
                // The hand-off query (spec §2.5: `action=activation`) on the web pages, with a state as our SDK sends it.
                let url = URL(
                    string: base.absoluteString + "/access/api/gx-arrive-store?"
                        + WebActivationPageTests.query([
                            ("sdk_return_to", "http://127.0.0.1:4567/cb?app=1"), ("sdk_version", "3.0.0"),
                            ("sdk_platform", "ios"),
                            ("sdk_anonymous_id", "a"), ("locale", "es_419"), ("skip_config", "true"),
                            ("state", "s+t/a=te"),
                            ("code", "gx-oauth-code-bob"), ("email", "bob@example.com"), ("action", "activation"),
                        ]))!
                let walk = try await PageWalker.walk(
                    url, base: base,
                    fill: ActivationHardeningTests.fill(ifttt: "bob-password", partner: ("bob", "gx-bob-password")))
                let names = walk.location.queryItems?.map(\.name) ?? []
                switch mode {
                case .echo:
                    #expect(names == ["app", "next_step", "user_token", "state"])
                    #expect(walk.items["state"] == "s+t/a=te")
                case .ignore:
                    #expect(names == ["app", "next_step", "user_token"])
                }
            }
        }
    }

    @Test func theDefaultIsIgnore() {
        #expect(SandboxConfiguration().redirectState == .ignore)
        #expect(SandboxTest.configuration().redirectState == .ignore)
    }

    @Test func theSandboxCommandTakesRedirectState() throws {
        let echo = try #require(
            try IFTTTConnectCommand.parseAsRoot(["sandbox", "--redirect-state", "echo"]) as? SandboxCommand)
        #expect(echo.redirectState == "echo")
        let plain = try #require(try IFTTTConnectCommand.parseAsRoot(["sandbox"]) as? SandboxCommand)
        #expect(plain.redirectState == "ignore")
        #expect(throws: (any Error).self) {
            try IFTTTConnectCommand.parseAsRoot(["sandbox", "--redirect-state", "maybe"])
        }
    }
}
