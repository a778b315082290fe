import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTSDK
import Testing

@Suite("IFTTTAPIManager requests")
struct APIManagerRequestTests {
    @Test func fetchAppletsSendsTheLegacyRequest() async throws {
        let transport = RecordingTransport(body: try LegacyFixtures.listJSON())
        let manager = LegacyFixtures.manager(transport, token: "user-token-123", invite: "21790-abc")
        let applets = try await manager.fetchApplets(order: .publishedAtDescending, platform: .ios)
        #expect(applets.map(\.id) == ["aVxGRrtD", "aVxGRrtD"])
        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(request.method == "GET")
        #expect(
            request.url.absoluteString
                == "http://127.0.0.1:8080/v1/services/ifttt_api_example/applets?order=published_at_desc&platform=ios")
        #expect(request.headers["Authorization"] == "Bearer user-token-123")
        #expect(request.headers["IFTTT-Invite-Code"] == "21790-abc")
        #expect(request.headers["IFTTT-SDK-Version"] == SDKInfo.version)
        #expect(request.headers["IFTTT-SDK-Platform"] == SDKInfo.platform)
        #expect(request.headers["IFTTT-SDK-Anonymous-Id"] == "anon-1")
        #expect(request.headers["IFTTT-Service-Key"] == nil)
        #expect(request.headers["Content-Type"] == nil)
        #expect(request.body == nil)
    }

    @Test func anonymousCallsSendNoCredentials() async throws {
        let transport = RecordingTransport(body: try LegacyFixtures.appletJSON())
        let manager = LegacyFixtures.manager(transport, token: "", invite: "")
        _ = try await manager.fetchApplet(id: "aVxGRrtD")
        let request = try #require(transport.requests.first)
        #expect(request.headers["Authorization"] == nil)
        #expect(request.headers["IFTTT-Invite-Code"] == nil)
    }

    @Test func fetchAppletPath() async throws {
        let transport = RecordingTransport(body: try LegacyFixtures.appletJSON())
        let applet = try await LegacyFixtures.manager(transport, token: "t-1").fetchApplet(id: "aVxGRrtD")
        #expect(applet.primaryService.id == "instagram")
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/v1/services/ifttt_api_example/applets/aVxGRrtD")
    }

    @Test(arguments: [(true, "enable"), (false, "disable")])
    func setStatusPostsEnableOrDisable(isEnabled: Bool, verb: String) async throws {
        let body = try LegacyFixtures.appletJSON(
            replacing: "user_status", with: isEnabled ? #""enabled""# : #""disabled""#)
        let transport = RecordingTransport(body: body)
        let applet = try await LegacyFixtures.manager(transport, token: "t-1").setStatus(
            isEnabled, forAppletId: "aVxGRrtD")
        #expect(applet.status == (isEnabled ? .enabled : .disabled))
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(
            request.url.absoluteString == "http://127.0.0.1:8080/v1/services/ifttt_api_example/applets/aVxGRrtD/\(verb)"
        )
        #expect(request.body == nil)
        #expect(request.headers["Authorization"] == "Bearer t-1")
    }

    @Test func fetchCurrentUserReadsUserLogin() async throws {
        let transport = RecordingTransport(
            body: #"{"type":"me","authentication_level":"user","user_login":"alice","service_id":"ifttt_api_example"}"#)
        let user = try await LegacyFixtures.manager(transport, token: "t-1").fetchCurrentUser()
        #expect(user == IFTTTUser(username: "alice", serviceId: "ifttt_api_example"))
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/v1/me")
        #expect(request.headers["Authorization"] == "Bearer t-1")
    }

    @Test(arguments: [nil, ""] as [String?])
    func fetchCurrentUserWithoutTokenSendsNothing(token: String?) async throws {
        let transport = RecordingTransport(body: "{}")
        let manager = LegacyFixtures.manager(transport, token: token)
        #expect(try await manager.fetchCurrentUser() == nil)
        let result = await withCheckedContinuation { continuation in
            manager.fetchCurrentUser { continuation.resume(returning: $0) }
        }
        #expect(try result.get() == nil)
        #expect(transport.requests.isEmpty)
    }

    @Test func fetchCurrentUserWithoutUserLoginIsATypedError() async throws {
        let transport = RecordingTransport(body: #"{"type":"me","authentication_level":"none"}"#)
        await #expect(
            throws: ConnectAPIError.invalidResponse(
                statusCode: 200, ConnectDecodingError(path: "$", reason: .missingKey("user_login")))
        ) {
            _ = try await LegacyFixtures.manager(transport, token: "t-1").fetchCurrentUser()
        }
    }

    @Test func missingServiceSlugSendsNothing() async throws {
        for slug in [nil, ""] as [String?] {
            let transport = RecordingTransport(body: "{}")
            let manager = LegacyFixtures.manager(transport, slug: slug, token: "t-1")
            await #expect(throws: ConnectAPIError.invalidRequest("serviceSlug is not set")) {
                _ = try await manager.fetchApplets()
            }
            await #expect(throws: ConnectAPIError.self) { _ = try await manager.fetchApplet(id: "a") }
            await #expect(throws: ConnectAPIError.self) { _ = try await manager.setStatus(true, forAppletId: "a") }
            #expect(transport.requests.isEmpty)
        }
    }

    @Test func appletIdsAreOnePathSegment() async throws {
        let transport = RecordingTransport(body: try LegacyFixtures.appletJSON())
        let manager = LegacyFixtures.manager(transport)
        _ = try await manager.fetchApplet(id: "a/b?c=d&e f")
        #expect(
            transport.requests.first?.url.absoluteString
                == "http://127.0.0.1:8080/v1/services/ifttt_api_example/applets/a%2Fb%3Fc%3Dd%26e%20f")
        for id in ["", ".", ".."] {
            await #expect(throws: ConnectAPIError.self) { _ = try await manager.fetchApplet(id: id) }
        }
        #expect(transport.requests.count == 1)
    }
}

@Suite("Order and platform parameters")
struct OrderAndPlatformTests {
    @Test func legacyNumberingAndValues() {
        #expect(IFTTTAppletOrder.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(
            IFTTTAppletOrder.allCases.map(\.queryValue)
                == [nil, "published_at_asc", "published_at_desc", "enabled_count_asc", "enabled_count_desc"])
        #expect(IFTTTPlatform.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(IFTTTPlatform.allCases.map(\.queryValue) == [nil, "ios", "android"])
    }

    @Test(arguments: IFTTTAppletOrder.allCases, IFTTTPlatform.allCases)
    func queryHasOrderThenPlatformAndOmitsDefaults(order: IFTTTAppletOrder, platform: IFTTTPlatform) async throws {
        let transport = RecordingTransport(body: #"{"type":"list","data":[]}"#)
        let applets = try await LegacyFixtures.manager(transport).fetchApplets(order: order, platform: platform)
        #expect(applets.isEmpty)
        let url = try #require(transport.requests.first?.url)
        let expected = [order.queryValue.map { "order=\($0)" }, platform.queryValue.map { "platform=\($0)" }].compactMap
        { $0 }
        #expect(url.query == (expected.isEmpty ? nil : expected.joined(separator: "&")))
        #expect(url.path == "/v1/services/ifttt_api_example/applets")
    }

    @Test func defaultsAreTheLegacyOnes() async throws {
        let transport = RecordingTransport(body: #"{"type":"list","data":[]}"#)
        _ = try await LegacyFixtures.manager(transport).fetchApplets()
        #expect(transport.requests.first?.url.query == "platform=ios")
    }

    @Test func missingDataIsAnEmptyList() async throws {
        let transport = RecordingTransport(body: #"{"type":"list"}"#)
        #expect(try await LegacyFixtures.manager(transport).fetchApplets().isEmpty)
    }
}

@Suite("Status codes and hostile responses")
struct APIManagerErrorTests {
    static let notFound = #"{"type":"error","code":"not_found","message":"No such applet"}"#

    @Test func statusesMapToTypedErrors() async throws {
        let cases: [(Int, String, ConnectAPIError)] = [
            (
                401, #"{"type":"error","code":"unauthorized","message":"bad token"}"#,
                .authenticationFailure(APIErrorPayload(code: "unauthorized", message: "bad token"))
            ),
            (
                404, Self.notFound,
                .apiError(statusCode: 404, payload: APIErrorPayload(code: "not_found", message: "No such applet"))
            ),
            (422, "not json", .apiError(statusCode: 422, payload: nil)),
            (500, "", .apiError(statusCode: 500, payload: nil)),
            (302, "", .apiError(statusCode: 302, payload: nil)),
        ]
        for (status, body, expected) in cases {
            let manager = LegacyFixtures.manager(RecordingTransport(status: status, body: body), token: "t-1")
            await #expect(throws: expected) { _ = try await manager.fetchApplets() }
            await #expect(throws: expected) { _ = try await manager.fetchApplet(id: "a") }
            await #expect(throws: expected) { _ = try await manager.setStatus(false, forAppletId: "a") }
            await #expect(throws: expected) { _ = try await manager.fetchCurrentUser() }
        }
    }

    @Test func transportErrorsPassThrough() async throws {
        for error in [ConnectAPIError.timedOut, .cancelled, .transport(code: -1004, description: "refused")] {
            let manager = LegacyFixtures.manager(
                RecordingTransport { _ throws(ConnectAPIError) in throw error }, token: "t")
            await #expect(throws: error) { _ = try await manager.fetchApplets() }
            await #expect(throws: error) { _ = try await manager.fetchApplet(id: "a") }
            await #expect(throws: error) { _ = try await manager.setStatus(true, forAppletId: "a") }
            await #expect(throws: error) { _ = try await manager.fetchCurrentUser() }
        }
    }

    @Test(arguments: [
        ("user_status", #""paused""#, "$.user_status"),
        ("user_status", #""unknown""#, "$.user_status"),
        ("user_status", "3", "$.user_status"),
        ("published_at", #""16/02/2017""#, "$.published_at"),
        ("published_at", #""2017-02-30T11:10:43-08:00""#, "$.published_at"),
        ("last_run_at", #""yesterday""#, "$.last_run_at"),
        ("services", "[]", "$.services"),
        ("services", #"[{"service_id":"a","service_name":"A","is_primary":false}]"#, "$.services"),
        ("type", #""connection""#, "$.type"),
        ("url", #""not a url""#, "$.url"),
        ("embedded_url", "null", "$"),
    ])
    func hostileAppletsAreInvalidResponses(key: String, json: String, path: String) async throws {
        let body = try LegacyFixtures.appletJSON(replacing: key, with: json)
        let manager = LegacyFixtures.manager(RecordingTransport(body: body), token: "t")
        do {
            _ = try await manager.fetchApplet(id: "a")
            Issue.record("decoded \(key)=\(json)")
        } catch {
            guard case .invalidResponse(200, let decoding) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(decoding.path == path)
        }
        // The same element inside a list names its index.
        let list = RecordingTransport(body: #"{"type":"list","data":[\#(try LegacyFixtures.appletJSON()),\#(body)]}"#)
        do {
            _ = try await LegacyFixtures.manager(list).fetchApplets()
            Issue.record("decoded a list with \(key)=\(json)")
        } catch {
            guard case .invalidResponse(_, let decoding) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(decoding.path.hasPrefix("$.data[1]"))
        }
    }

    @Test func realCalendarDaysStillDecode() throws {
        for text in ["2016-02-29T00:00:00Z", "2017-12-31T23:59:59+14:00", "2000-02-29T12:00:00-08:00"] {
            let body = try LegacyFixtures.appletJSON(replacing: "published_at", with: "\"\(text)\"")
            #expect(try IFTTTApplet.decode(from: Data(body.utf8)).publishedAt != nil, "\(text)")
        }
        for text in ["2017-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2017-04-31T00:00:00Z", "2017-13-01T00:00:00Z"] {
            let body = try LegacyFixtures.appletJSON(replacing: "published_at", with: "\"\(text)\"")
            #expect(throws: ConnectDecodingError.self, "\(text)") { try IFTTTApplet.decode(from: Data(body.utf8)) }
        }
    }

    @Test(arguments: ["", "[]", "null", "{", #"{"type":"list","data":{}}"#, #"{"type":"list","data":[1]}"#])
    func malformedListsAreInvalidResponses(body: String) async throws {
        let manager = LegacyFixtures.manager(RecordingTransport(body: body))
        do {
            _ = try await manager.fetchApplets()
            Issue.record("decoded \(body)")
        } catch {
            guard case .invalidResponse = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test(arguments: [#"{"user_login":42}"#, #"{"user_login":null}"#, "[]", "garbage"])
    func malformedMeIsAnInvalidResponse(body: String) async throws {
        let manager = LegacyFixtures.manager(RecordingTransport(body: body), token: "t")
        do {
            _ = try await manager.fetchCurrentUser()
            Issue.record("decoded \(body)")
        } catch {
            guard case .invalidResponse = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }
}

@Suite("Completion handlers")
struct APIManagerCompletionTests {
    @Test func everyCompletionRunsOnceWithTheResult() async throws {
        let transport = RecordingTransport { request throws(ConnectAPIError) in
            if request.url.path.hasSuffix("/applets") {
                return HTTPResponse(statusCode: 200, body: Data(((try? LegacyFixtures.listJSON(count: 1)) ?? "").utf8))
            }
            if request.url.path == "/v1/me" {
                return HTTPResponse(statusCode: 200, body: Data(#"{"user_login":"bob"}"#.utf8))
            }
            return HTTPResponse(statusCode: 200, body: Data(((try? LegacyFixtures.appletJSON()) ?? "").utf8))
        }
        let manager = LegacyFixtures.manager(transport, token: "t")
        let list = await withCheckedContinuation { c in
            manager.fetchApplets(order: .enabledCountAscending, platform: .android) { c.resume(returning: $0) }
        }
        #expect(try list.get().count == 1)
        let one = await withCheckedContinuation { c in manager.fetchApplet(id: "aVxGRrtD") { c.resume(returning: $0) } }
        #expect(try one.get().id == "aVxGRrtD")
        let toggled = await withCheckedContinuation { c in
            manager.setStatus(true, forAppletId: "aVxGRrtD") { c.resume(returning: $0) }
        }
        #expect(try toggled.get().id == "aVxGRrtD")
        let user = await withCheckedContinuation { c in manager.fetchCurrentUser { c.resume(returning: $0) } }
        #expect(try user.get()?.username == "bob")
        #expect(transport.requests.map(\.url.query) == ["order=enabled_count_asc&platform=android", nil, nil, nil])
    }

    @Test func failuresReachTheCompletion() async throws {
        let manager = LegacyFixtures.manager(
            RecordingTransport(status: 404, body: APIManagerErrorTests.notFound), slug: nil)
        let noSlug = await withCheckedContinuation { c in manager.fetchApplets { c.resume(returning: $0) } }
        #expect(throws: ConnectAPIError.invalidRequest("serviceSlug is not set")) { try noSlug.get() }
        manager.serviceSlug = "s"
        let missing = await withCheckedContinuation { c in manager.fetchApplet(id: "x") { c.resume(returning: $0) } }
        guard case .failure(let error) = missing else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.statusCode == 404)
        #expect(error.apiCode == "not_found")
    }

    @Test func callbacksRunOnTheConfiguredQueue() async throws {
        let queue = DispatchQueue(label: "legacy.callbacks")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let manager = LegacyFixtures.manager(RecordingTransport(body: "{}"))
        manager.callbackQueue = queue
        let onQueue = await withCheckedContinuation { c in
            manager.fetchCurrentUser { _ in c.resume(returning: DispatchQueue.getSpecific(key: key)) }
        }
        #expect(onQueue == 7)
    }
}
