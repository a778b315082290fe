@testable import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import Logging
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The partner backend's sign-in for its native app, `POST /partner/{service_id}/api/session` (issue 27, item 2: the
/// example apps' sign-in screen), over real HTTP on loopback: the session it answers is one the backend's
/// `user_token` route accepts, and wrong passwords are refused, throttled and never logged.
@Suite("The partner backend's sign-in for its app")
struct PartnerSessionTests {
    static let path = "/partner/grocery_express/api/session"

    /// `{"login": login, "password": password}`.
    static func body(_ login: String, _ password: String) -> Data {
        let json: JSONValue = ["login": .string(login), "password": .string(password)]
        return json.serializedData()
    }

    static func signIn(_ client: Client, _ login: String, _ password: String) async throws -> SandboxResponse {
        try await client.post(path, body: body(login, password))
    }

    /// A sandbox whose log lines are collected, on `clock`.
    static func withSandbox(
        clock: ManualClock = ManualClock(Date()), _ body: (Client, LineCollector, ManualClock) async throws -> Void
    ) async throws {
        let lines = LineCollector()
        var configuration = SandboxTest.configuration()
        configuration.clock = clock
        configuration.logger = Logger(label: "partner-session") { _ in CollectingLogHandler(collector: lines) }
        configuration.logger.logLevel = .trace
        try await SandboxServer.withRunning(configuration) { url in try await body(Client(base: url), lines, clock) }
    }

    /// Alice signs in as the example apps do; the session is the one the backend's `user_token` route vouches with,
    /// through the SDK's `PartnerBackend`, for alice's IFTTT account. A form body works too, and logins are
    /// case-insensitive.
    @Test func theRightPasswordGivesASessionTheUserTokenRouteAccepts() async throws {
        try await Self.withSandbox { client, lines, _ in
            let answer = try await Self.signIn(client, "alice", "gx-alice-password")
            #expect(answer.status == 200)
            #expect(answer.headers.value(forHTTPHeaderField: "Cache-Control") == "no-store")
            let json = try answer.json
            #expect(json["user_id"] == "gx-user-1001")
            #expect(json["login"] == "alice")
            // A fresh single-use code and a new session per sign-in, never the seed's fixed values.
            #expect(json["oauth_code"]?.stringValue?.hasPrefix("grocery_express-code-") == true)
            let session = try #require(json["session"]?.stringValue)
            #expect(session.hasPrefix("grocery_express-session-"))

            let backend = try PartnerBackend.userTokenEndpoint(
                client.base.appendingPathComponent("partner/grocery_express/api/user_token"), session: session)
            let token = try #require(try await backend.userToken())
            #expect(try await client.get("/v2/me", token: token).json["user_login"] == "alice")

            let form = try await client.request(
                "POST", Self.path, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("login=DAVE&password=gx-dave-password".utf8))
            #expect(form.status == 200)
            #expect(try form.json["session"]?.stringValue?.hasPrefix("grocery_express-session-") == true)
            #expect(try form.json["login"] == "dave")
            #expect(try form.json["oauth_code"]?.stringValue?.hasPrefix("grocery_express-code-") == true)
            // Dave has not connected IFTTT: the backend accepts his session and vouches for no token.
            let dave = try PartnerBackend.userTokenEndpoint(
                client.base.appendingPathComponent("partner/grocery_express/api/user_token"),
                session: "gx-access-token-dave")
            #expect(try await dave.userToken() == nil)

            #expect(!lines.lines.contains { $0.contains("gx-alice-password") || $0.contains("gx-dave-password") })
            #expect(!lines.lines.contains { $0.contains("gx-access-token-") })
        }
    }

    /// The request exactly as the example apps' `GroceryExpressBackend` sends it, through the SDK's
    /// `URLSessionTransport`: a JSON body of `login` and `password`, answered with the session.
    @Test func theExampleAppsRequestSignsIn() async throws {
        try await Self.withSandbox { client, _, _ in
            let root = client.base.appendingPathComponent("partner/grocery_express/api")
            let response = try await URLSessionTransport().send(
                HTTPRequest(
                    method: "POST", url: root.appendingPathComponent("session"),
                    headers: ["Content-Type": "application/json", "Accept": "application/json"],
                    body: try JSONEncoder().encode(["login": "alice", "password": "gx-alice-password"])))
            #expect(response.statusCode == 200)
            let answer = try JSONDecoder().decode([String: String].self, from: response.body)
            #expect(answer["session"]?.hasPrefix("grocery_express-session-") == true)
            #expect(answer["login"] == "alice")
        }
    }

    /// A wrong password and an unknown login get the same 401 envelope; neither the password nor the login typed
    /// is logged.
    @Test func aWrongPasswordIsRefusedWith401() async throws {
        try await Self.withSandbox { client, lines, _ in
            let wrong = try await Self.signIn(client, "alice", "not-her-password-1")
            #expect(wrong.status == 401)
            #expect(wrong.errorCode == "unauthorized")
            #expect(try wrong.json["type"] == "error")
            #expect(try wrong.json["session"] == nil)
            let unknown = try await Self.signIn(client, "typed-a-password-into-login", "not-her-password-2")
            #expect(unknown.status == 401)
            #expect(try unknown.json["message"] == (try wrong.json["message"]))
            let logged = lines.lines
            #expect(logged.contains { $0.contains("wrong username or password") })
            #expect(!logged.contains { $0.contains("not-her-password") || $0.contains("typed-a-password") })
        }
    }

    /// After ``SignInThrottle/maximumFailures`` wrong passwords for dave from one source, that source gets 429 even
    /// with his right password, on this route and on the partner's HTML sign-in page (one count for both doors);
    /// bob is not affected; once the window has passed (on the sandbox's clock), dave signs in again.
    @Test func wrongPasswordsAreThrottledWith429() async throws {
        try await Self.withSandbox { client, _, clock in
            for attempt in 0..<SignInThrottle.maximumFailures {
                let wrong = try await Self.signIn(client, "dave", "guess-\(attempt)")
                #expect(wrong.status == 401)
            }
            let throttled = try await Self.signIn(client, "dave", "gx-dave-password")
            #expect(throttled.status == 429)
            #expect(throttled.errorCode == "too_many_requests")
            #expect(try throttled.json["session"] == nil)
            #expect(throttled.headers.value(forHTTPHeaderField: "Retry-After") == String(Int(SignInThrottle.window)))

            let bob = try await Self.signIn(client, "bob", "gx-bob-password")
            #expect(bob.status == 200)

            let url = try await PartnerLegBindingTests.partnerSignInURL(
                client.base, email: "carol@example.com", password: "carol-password")
            let (page, _, _) = try await WebActivationPageTests.post(
                client.base, url.path,
                PartnerLegBindingTests.partnerForm(url, login: "dave", password: "gx-dave-password"))
            #expect(page == 429)

            clock.advance(SignInThrottle.window + 1)
            let later = try await Self.signIn(client, "dave", "gx-dave-password")
            #expect(later.status == 200)
            #expect(try later.json["session"]?.stringValue?.hasPrefix("grocery_express-session-") == true)
        }
    }

    /// A service without a partner backend (unknown, or one without a service key, like `email`) is 404.
    @Test func anUnknownServiceIs404() async throws {
        try await Self.withSandbox { client, _, _ in
            for service in ["no_such_service", "email"] {
                let answer = try await client.post(
                    "/partner/\(service)/api/session", body: Self.body("alice", "gx-alice-password"))
                #expect(answer.status == 404, "\(service)")
                #expect(answer.errorCode == "not_found", "\(service)")
            }
        }
    }

    /// A body that is not a JSON object is a typed 400; missing fields are named in `details`; a field of the wrong
    /// type is 422. None of them counts as a wrong password.
    @Test func aMalformedBodyIsATyped400() async throws {
        try await Self.withSandbox { client, _, _ in
            for body in ["login=alice", "[\"alice\"]", "{\"login\": ", ""] {
                let answer = try await client.request(
                    "POST", Self.path, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                #expect(answer.status == 400, "\(body)")
                #expect(answer.errorCode == "invalid_parameters", "\(body)")
                #expect(try answer.json["type"] == "error", "\(body)")
            }
            let empty = try await client.post(Self.path, body: Data("{}".utf8))
            #expect(empty.status == 400)
            let details = try #require(try empty.json["details"]?.arrayValue)
            #expect(details.compactMap { $0["parameter"]?.stringValue } == ["/login", "/password"])
            let noPassword = try await client.request(
                "POST", Self.path, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("login=alice".utf8))
            #expect(noPassword.status == 400)
            #expect(try noPassword.json["details"]?[0]?["parameter"] == "password")
            let number = try await client.post(Self.path, body: Data("{\"login\": 5, \"password\": \"x\"}".utf8))
            #expect(number.status == 422)
            #expect(try number.json["details"]?[0]?["parameter"] == "/login")
            for _ in 0..<SignInThrottle.maximumFailures {
                _ = try await client.post(Self.path, body: Data("{\"login\": \"alice\"}".utf8))
            }
            #expect(try await Self.signIn(client, "alice", "gx-alice-password").status == 200)
        }
    }

    /// A web page cannot sign anyone in from another site: a cross-site `POST` (its `Origin`) is 403, and so is a
    /// DNS-rebinding page's (`Host: evil.example` with a matching `Origin`); neither answer holds a session.
    @Test func aCrossSitePageCannotSignIn() async throws {
        try await Self.withSandbox { client, _, _ in
            let crossSite = try await client.request(
                "POST", Self.path, headers: ["Origin": "http://evil.example"],
                body: Self.body("alice", "gx-alice-password"))
            #expect(crossSite.status == 403)
            #expect(crossSite.errorCode == "forbidden")
            let port = try #require(client.base.port)
            let body = String(decoding: Self.body("alice", "gx-alice-password"), as: UTF8.self)
            let rebound = try await RawHTTP.exchangeOffThePool(
                port: port,
                "POST \(Self.path) HTTP/1.1\r\nHost: evil.example:\(port)\r\nOrigin: http://evil.example:\(port)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
                    + body)
            #expect(rebound.hasPrefix("HTTP/1.1 403"), "\(rebound.prefix(200))")
            #expect(!rebound.contains("gx-access-token"))
        }
    }
}
