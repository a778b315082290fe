import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTSDK
import Testing

@Suite("IFTTTAPIManager configuration")
struct APIManagerConfigurationTests {
    @Test func productionDefaults() {
        let manager = IFTTTAPIManager(transport: RecordingTransport(body: "{}"), anonymousId: "a", callbackQueue: nil)
        #expect(manager.apiHost == "api.ifttt.com")
        #expect(manager.scheme == "https")
        #expect(manager.baseURL == URL(string: "https://api.ifttt.com"))
        #expect(manager.serviceSlug == nil && manager.userToken == nil && manager.inviteCode == nil)
        #expect(manager.timeout == 30)
    }

    @Test func apiHostPointsAtAProxyOverHTTPS() async throws {
        let transport = RecordingTransport(body: #"{"type":"list","data":[]}"#)
        let manager = LegacyFixtures.manager(transport)
        manager.apiHost = "proxy.example.com:8443"
        #expect(manager.scheme == "https")
        _ = try await manager.fetchApplets(platform: .noMobileServices)
        #expect(
            transport.requests.first?.url.absoluteString
                == "https://proxy.example.com:8443/v1/services/ifttt_api_example/applets")
    }

    @Test func baseURLKeepsSchemeHostAndPortOnly() async throws {
        let transport = RecordingTransport(body: #"{"type":"list","data":[]}"#)
        let manager = LegacyFixtures.manager(transport)
        manager.baseURL = URL(string: "http://user:pw@localhost:9999/ignored/path?q=1#f")
        #expect(manager.scheme == "http")
        #expect(manager.apiHost == "localhost:9999")
        _ = try await manager.fetchApplets()
        #expect(
            transport.requests.first?.url.absoluteString
                == "http://localhost:9999/v1/services/ifttt_api_example/applets?platform=ios")
        manager.baseURL = URL(string: "http://[::1]:8080")
        #expect(manager.baseURL?.absoluteString == "http://[::1]:8080")
        manager.baseURL = nil
        #expect(manager.baseURL == URL(string: "https://api.ifttt.com"))
    }

    @Test(arguments: ["", "evil.com/path", "a b", "host?x", "user@host", "h\u{00E9}llo.com"])
    func invalidHostsSendNothing(host: String) async throws {
        let transport = RecordingTransport(body: "{}")
        let manager = LegacyFixtures.manager(transport, token: "t")
        manager.apiHost = host
        #expect(manager.baseURL == nil)
        await #expect(throws: ConnectAPIError.invalidRequest("apiHost is not a valid host")) {
            _ = try await manager.fetchApplets()
        }
        await #expect(throws: ConnectAPIError.self) { _ = try await manager.fetchCurrentUser() }
        #expect(transport.requests.isEmpty)
    }

    @Test func unsupportedSchemesSendNothing() async throws {
        let transport = RecordingTransport(body: "{}")
        let manager = LegacyFixtures.manager(transport)
        manager.baseURL = URL(string: "ftp://127.0.0.1:21")
        #expect(manager.baseURL == nil)
        await #expect(throws: ConnectAPIError.self) { _ = try await manager.fetchApplet(id: "a") }
        #expect(transport.requests.isEmpty)
    }

    @Test func concurrentConfigurationAndCallsAreSafe() async throws {
        let transport = RecordingTransport(body: try LegacyFixtures.appletJSON())
        let manager = LegacyFixtures.manager(transport)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    manager.userToken = "token-\(index)"
                    manager.inviteCode = index.isMultiple(of: 2) ? nil : "invite-\(index)"
                    _ = try? await manager.fetchApplet(id: "aVxGRrtD")
                }
            }
        }
        #expect(transport.requests.count == 50)
        // Each request carries one consistent configuration.
        for request in transport.requests {
            let token = try #require(request.headers["Authorization"]?.dropFirst("Bearer token-".count))
            #expect(Int(token) != nil)
        }
    }
}

@Suite("No user token in logs, descriptions or errors")
struct APIManagerSecretTests {
    static let token = "TOKEN-8c1f2a9d0e7b4c3a"
    static let invite = "21790-INVITE-SECRET-77"

    @Test func logsDescriptionsAndErrorsNeverShowTheToken() async throws {
        let log = LogCapture()
        // The server echoes the token and invite code back in its error message.
        let echo =
            #"{"type":"error","code":"unauthorized","message":"token \#(Self.token) invite \#(Self.invite) rejected","details":[{"parameter":"\#(Self.token)","message":"\#(Self.token)"}]}"#
        let transport = RecordingTransport { request throws(ConnectAPIError) in
            if request.url.path.hasSuffix("/fail") { throw .transport(code: -1, description: "reset") }
            let status = request.url.path == "/v1/me" ? 401 : 403
            return HTTPResponse(statusCode: status, body: Data(echo.utf8))
        }
        let manager = LegacyFixtures.manager(transport, token: Self.token, invite: Self.invite, log: log)
        var texts: [String] = [String(describing: manager), String(reflecting: manager), "\(manager)"]
        let calls: [@Sendable () async throws -> Void] = [
            { _ = try await manager.fetchApplets() },
            { _ = try await manager.fetchApplet(id: "a") },
            { _ = try await manager.setStatus(true, forAppletId: "a") },
            { _ = try await manager.setStatus(false, forAppletId: "fail") },
            { _ = try await manager.fetchCurrentUser() },
        ]
        for call in calls {
            do {
                try await call()
                Issue.record("expected an error")
            } catch {
                texts.append(String(describing: error))
                texts.append(String(reflecting: error))
                texts.append(error.localizedDescription)
            }
        }
        #expect(log.count == 5)
        texts.append(log.text)
        // The echoed secrets reached the errors, and were redacted there.
        #expect(texts.contains { $0.contains("<redacted>") })
        // The tokens really were sent.
        #expect(transport.requests.allSatisfy { $0.headers["Authorization"] == "Bearer \(Self.token)" })
        for text in texts {
            #expect(!text.contains(Self.token), "token leaked: \(text)")
            #expect(!text.contains(Self.invite), "invite code leaked: \(text)")
        }
        #expect(log.text.contains("GET /v1/services/ifttt_api_example/applets -> 403"))
    }

    @Test func embeddedURLErrorsShowNoEmail() throws {
        let applet = try EmbeddedURLTests.applet()
        do {
            _ = try applet.embeddedURL(
                callbackURL: URL(string: "nope")!, email: "secret@example.com", userId: "u",
                anonymousId: "a", inviteCode: nil)
        } catch {
            #expect(!String(describing: error).contains("secret@example.com"))
        }
    }
}
