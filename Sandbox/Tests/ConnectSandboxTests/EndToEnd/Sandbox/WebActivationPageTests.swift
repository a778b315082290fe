import ConnectSandbox
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Returns redirects instead of following them.
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// The web activation pages over plain HTTP, as a browser without JavaScript uses them.
@Suite("Web activation pages")
struct WebActivationPageTests {
    /// The tests' browser: it keeps cookies (the flow's browser binding), in memory, and returns redirects.
    static let session = browser()

    /// Another browser, with cookies of its own.
    static func browser() -> URLSession {
        URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
    }

    static func query(_ items: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return items.map {
            "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }
        .joined(separator: "&")
    }

    static func get(_ base: URL, _ path: String, _ items: [(String, String)], in browser: URLSession = session)
        async throws -> (Int, String, HTTPURLResponse)
    {
        let (data, response) = try await browser.data(
            from: URL(string: base.absoluteString + path + "?" + query(items))!)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, String(decoding: data, as: UTF8.self), http)
    }

    static func post(_ base: URL, _ path: String, _ items: [(String, String)], in browser: URLSession = session)
        async throws -> (Int, String, HTTPURLResponse)
    {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(query(items).utf8)
        let (data, response) = try await browser.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, String(decoding: data, as: UTF8.self), http)
    }

    static func hiddenValue(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    static let flow: [(String, String)] = [
        ("sdk_return_to", "http://127.0.0.1:4567/ifttt/callback"), ("state", "s+t/a=te"),
        ("email", "alice@example.com"), ("code", "gx-oauth-code-alice"), LinkBindingTests.challenge,
        LinkBindingTests.challengeMethod,
    ]

    @Test func refusesReturnURLsThatAreNotRegisteredForTheService() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { url in
            for target in [
                "https://evil.example/steal", "http://evil.example:4567/cb", "javascript:alert(1)", "evilapp://cb",
                "http://127.0.0.1.evil.example/cb", "//evil.example/cb", "http://127.0.0.1:9/not-registered",
                "groceryexpress://elsewhere",
            ] {
                let (status, html, _) = try await Self.get(
                    url, "/access/api/gx-arrive-store", [("sdk_return_to", target), ("state", "x")])
                #expect(status == 400, "\(target)")
                #expect(html.contains("registered"))
            }
            for target in ["http://localhost:9/cb", "http://[::1]:80/cb", "groceryexpress://ifttt/callback"] {
                let (status, _, _) = try await Self.get(
                    url, "/access/api/gx-arrive-store", [("sdk_return_to", target), ("state", "x")])
                #expect(status == 200, "\(target)")
            }
            // No state: IFTTT's own SDKs never send one.
            let (noState, _, _) = try await Self.get(
                url, "/access/api/gx-arrive-store", [("sdk_return_to", "http://127.0.0.1:9/cb")])
            #expect(noState == 200)
            let (unknown, _, _) = try await Self.get(url, "/access/api/nope", Self.flow)
            #expect(unknown == 404)
            let (unpublished, _, _) = try await Self.get(url, "/access/api/gx-early-access", Self.flow)
            #expect(unpublished == 403)
        }
    }

    @Test func escapesEverythingFromTheQuery() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { url in
            let evil = "\"><script>alert(1)</script>"
            let (status, html, response) = try await Self.get(
                url, "/access/api/gx-arrive-store",
                Self.flow.map { $0.0 == "email" ? ($0.0, evil) : $0 } + [("locale", evil)])
            #expect(status == 200)
            #expect(!html.contains("<script>"))
            #expect(html.contains("&quot;&gt;&lt;script&gt;"))
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
            #expect(html.contains("<label for=\"email\">Email</label>"))
            #expect(html.contains("<label for=\"password\">Password</label>"))
        }
    }

    @Test func signInAuthorizeConfigureRedirectsWithTheTokenAndEchoesState() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration(redirectState: .echo)) { url in
            let (started, startHTML, _) = try await Self.get(url, "/access/api/gx-store-visits", Self.flow)
            #expect(started == 200)
            let session = try #require(Self.hiddenValue("activation_session", in: startHTML))
            #expect(!startHTML.contains("name=\"sdk_return_to\""))  // the flow's parameters stay on the server
            let (wrong, wrongHTML, _) = try await Self.post(
                url, "/access/api/gx-store-visits/sign_in",
                [("activation_session", session), ("email", "alice@example.com"), ("password", "nope")])
            #expect(wrong == 401)
            #expect(wrongHTML.contains("not correct"))
            let (_, authorize, _) = try await Self.post(
                url, "/access/api/gx-store-visits/sign_in",
                [("activation_session", session), ("email", "alice@example.com"), ("password", "alice-password")])
            #expect(Self.hiddenValue("activation_session", in: authorize) == session)
            let (_, configure, _) = try await Self.post(
                url, "/access/api/gx-store-visits/authorize", [("activation_session", session)])
            #expect(configure.contains("id=\"save\""))
            let (status, _, response) = try await Self.post(
                url, "/access/api/gx-store-visits/configure",
                [
                    ("activation_session", session), ("enabled:store-visit-log", "on"), ("action", "save"),
                    ("field:store-visit-log:ft-store-visit:location:lat", "37.7"),
                    ("field:store-visit-log:ft-store-visit:location:lng", "-122.4"),
                    ("field:store-visit-log:ft-store-visit:location:radius", "300"),
                ])
            #expect(status == 303)
            let location = try #require(response.value(forHTTPHeaderField: "Location"))
            let parts = try #require(URLComponents(string: location))
            #expect(parts.host == "127.0.0.1" && parts.port == 4567 && parts.path == "/ifttt/callback")
            let items = parts.queryItems ?? []
            #expect(items.map(\.name) == ["next_step", "user_token", "state"])
            #expect(items.first { $0.name == "state" }?.value == "s+t/a=te")
            #expect(items.first { $0.name == "next_step" }?.value == "complete")
            // The session ends with the flow.
            let (again, _, _) = try await Self.post(
                url, "/access/api/gx-store-visits/configure", [("activation_session", session), ("action", "save")])
            #expect(again == 400)
        }
    }
}
