import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTConnectService
import Testing
import TestSupport

@Suite("ConnectServiceClient service-key calls")
struct ServiceCallTests {
    static let key = "SERVICEKEY-6e7c8978c07a3b59"
    static let base = URL(string: "http://127.0.0.1:8080/v2")!

    static func connectionJSON() throws -> String {
        try String(contentsOf: Repository.url("Tests/Fixtures/android_connection.json"), encoding: .utf8)
    }

    static func client(_ transport: RecordingTransport, log: LogCapture? = nil) throws -> ConnectServiceClient {
        try ConnectServiceClient(serviceKey: key, baseURL: base, transport: transport, logHandler: log?.handler)
    }

    static func expectServiceHeaders(_ request: HTTPRequest) {
        #expect(request.headers["IFTTT-Service-Key"] == key)
        #expect(request.headers["Authorization"] == nil)
        #expect(request.headers["Accept"] == "application/json")
    }

    @Test func exchangeUserToken() async throws {
        let transport = RecordingTransport(body: #"{"type":"user_token","user_token":"UT-1"}"#)
        let token = try await Self.client(transport).exchangeUserToken(userId: "u 1+&", accessToken: "oauth/abc=")
        #expect(token == "UT-1")
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(
            request.url.absoluteString
                == "http://127.0.0.1:8080/v2/user_token?user_id=u%201%2B%26&access_token=oauth%2Fabc%3D")
        Self.expectServiceHeaders(request)
    }

    /// The backend of a program that holds the service key: the exchange's token; 404 (not linked) is no token;
    /// other failures are thrown.
    @Test func thePartnerBackendVouchesWithTheTokenExchange() async throws {
        let statuses = Locked([200, 404, 500])
        let transport = RecordingTransport { _ in
            let status = statuses.withLock { $0.removeFirst() }
            return HTTPResponse(
                statusCode: status, body: Data((status == 200 ? #"{"user_token":"UT-1"}"# : "{}").utf8))
        }
        let backend = try Self.client(transport).partnerBackend(userId: "gx-user-1003", accessToken: "oauth-1")
        #expect(backend.name == "IFTTT token exchange")
        #expect(try await backend.userToken() == "UT-1")
        #expect(try await backend.userToken() == nil)
        await #expect(throws: ConnectServiceClient.Error.self) { _ = try await backend.userToken() }
        #expect(transport.requests.allSatisfy { $0.url.path == "/v2/user_token" && $0.method == "POST" })
        Self.expectServiceHeaders(try #require(transport.requests.first))
    }

    @Test func fetchConnectionForAUser() async throws {
        let transport = RecordingTransport(body: try Self.connectionJSON())
        let connection = try await Self.client(transport).fetchConnection(id: "aVxGRrtD", userId: "gx-user-1001")
        #expect(connection.id == "aVxGRrtD")
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/v2/connections/aVxGRrtD?user_id=gx-user-1001")
        #expect(request.body == nil)
        Self.expectServiceHeaders(request)
    }

    @Test(arguments: [
        (ConnectServiceClient.FieldOptionsOwner.trigger("google_drive.new_file"), "triggers/google_drive.new_file"),
        (.query("weather.forecast"), "queries/weather.forecast"),
        (.action("google_drive.upload_file_from_url"), "actions/google_drive.upload_file_from_url"),
        (.feature("pmtch6832j"), "features/pmtch6832j"),
        (.trigger("a/b"), "triggers/a%2Fb"),
    ])
    func fieldOptions(owner: ConnectServiceClient.FieldOptionsOwner, segment: String) async throws {
        let transport = RecordingTransport(
            body:
                #"{"type":"field_options","options":{"folder":[{"label":"Photos","value":"p1"},{"label":"Docs","value":"d1","group":"Mine"}]}}"#
        )
        let options = try await Self.client(transport).fetchFieldOptions(connectionId: "c1", for: owner, userId: "u1")
        #expect(options.options["folder"]?.count == 2)
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(
            request.url.absoluteString == "http://127.0.0.1:8080/v2/connections/c1/\(segment)/field_options?user_id=u1")
        Self.expectServiceHeaders(request)
    }

    @Test func fieldOptionsOwnersFromDecodedModels() throws {
        let connection = try Connection.decode(from: Data(try Self.connectionJSON().utf8))
        let feature = try #require(connection.features.first)
        #expect(ConnectServiceClient.FieldOptionsOwner(feature) == .feature(feature.id))
        let step = try #require(feature.steps.first)
        let owner = ConnectServiceClient.FieldOptionsOwner(step)
        switch step.kind {
        case .trigger: #expect(owner == .trigger(step.qualifiedTypeId))
        case .query: #expect(owner == .query(step.qualifiedTypeId))
        case .action: #expect(owner == .action(step.qualifiedTypeId))
        }
    }

    @Test func updateUserConnectionPutsTheWholeConfiguration() async throws {
        let transport = RecordingTransport(body: try Self.connectionJSON())
        let update = UserConnectionUpdate(features: [
            .init(
                featureId: "pmtch6832j", isEnabled: true,
                userFields: ["title": .string("Hi & bye")])
        ])
        let connection = try await Self.client(transport).updateUserConnection(
            connectionId: "c1", userId: "u1", update: update)
        #expect(connection?.id == "aVxGRrtD")
        let request = try #require(transport.requests.first)
        #expect(request.method == "PUT")
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/v2/connections/c1/user_connection?user_id=u1")
        #expect(request.headers["Content-Type"] == "application/json")
        Self.expectServiceHeaders(request)
        let body = try JSONParser().parse(try #require(request.body))
        #expect(body == update.jsonValue)
        guard case .array(let features)? = body["user_features"] else {
            Issue.record("no user_features")
            return
        }
        #expect(features.first?["feature_id"]?.stringValue == "pmtch6832j")
    }

    @Test func updateUserConnectionWithoutBodyGivesNil() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let result = try await Self.client(transport).updateUserConnection(
            connectionId: "c1", userId: "u1",
            update: UserConnectionUpdate(features: []))
        #expect(result == nil)
    }

    @Test func refreshPostsAndAccepts204() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        try await Self.client(transport).refreshUserConnection(connectionId: "c1", userId: "u1")
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(
            request.url.absoluteString == "http://127.0.0.1:8080/v2/connections/c1/user_connection/refresh?user_id=u1")
        #expect(request.body == nil)
        Self.expectServiceHeaders(request)
    }

    @Test func fetchUserWithTheServiceKey() async throws {
        let transport = RecordingTransport(
            body: #"{"type":"me","authentication_level":"channel","service_id":"gx","user_login":"alice"}"#)
        let client = try Self.client(transport)
        let user = try await client.fetchUser(userId: "u1")
        #expect(user.authenticationLevel == .channel)
        #expect(user.serviceId == "gx")
        _ = try await client.fetchUser()
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "http://127.0.0.1:8080/v2/me?user_id=u1", "http://127.0.0.1:8080/v2/me",
            ])
    }

    @Test func emptyUserIdsSendNothing() async throws {
        let transport = RecordingTransport(body: "{}")
        let client = try Self.client(transport)
        let expected = ConnectServiceClient.Error.network(.invalidRequest("empty user id"))
        await #expect(throws: expected) { _ = try await client.fetchConnection(id: "c1", userId: "") }
        await #expect(throws: expected) {
            _ = try await client.fetchFieldOptions(connectionId: "c1", for: .feature("f"), userId: "")
        }
        await #expect(throws: expected) {
            try await client.updateUserConnection(connectionId: "c1", userId: "", update: .init(features: []))
        }
        await #expect(throws: expected) { try await client.refreshUserConnection(connectionId: "c1", userId: "") }
        await #expect(throws: expected) { _ = try await client.fetchUser(userId: "") }
        await #expect(throws: ConnectServiceClient.Error.self) {
            _ = try await client.fetchConnection(id: "..", userId: "u")
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func statusesMapToTypedErrors() async throws {
        let cases: [(Int, String, ConnectAPIError)] = [
            (
                401, #"{"type":"error","code":"unauthorized","message":"bad key"}"#,
                .authenticationFailure(APIErrorPayload(code: "unauthorized", message: "bad key"))
            ),
            (403, "", .apiError(statusCode: 403, payload: nil)),
            (
                404, #"{"type":"error","code":"not_found","message":"Connection not found"}"#,
                .apiError(statusCode: 404, payload: APIErrorPayload(code: "not_found", message: "Connection not found"))
            ),
            (
                422,
                #"{"type":"error","code":"invalid_parameters","message":"bad","details":[{"parameter":"user_features","message":"is invalid"}]}"#,
                .apiError(
                    statusCode: 422,
                    payload: APIErrorPayload(
                        code: "invalid_parameters", message: "bad",
                        details: [.init(parameter: "user_features", message: "is invalid")]))
            ),
            (500, "oops", .apiError(statusCode: 500, payload: nil)),
            (502, "", .apiError(statusCode: 502, payload: nil)),
        ]
        for (status, body, expected) in cases {
            let client = try Self.client(RecordingTransport(status: status, body: body))
            let error = ConnectServiceClient.Error.network(expected)
            await #expect(throws: error) { _ = try await client.exchangeUserToken(userId: "u", accessToken: "a") }
            await #expect(throws: error) { _ = try await client.fetchConnection(id: "c", userId: "u") }
            await #expect(throws: error) {
                _ = try await client.fetchFieldOptions(connectionId: "c", for: .action("x.y"), userId: "u")
            }
            await #expect(throws: error) {
                try await client.updateUserConnection(connectionId: "c", userId: "u", update: .init(features: []))
            }
            await #expect(throws: error) { try await client.refreshUserConnection(connectionId: "c", userId: "u") }
            await #expect(throws: error) { _ = try await client.fetchUser() }
        }
    }

    @Test func transportFailuresAreNetworkErrors() async throws {
        let client = try Self.client(RecordingTransport { _ throws(ConnectAPIError) in throw .timedOut })
        await #expect(throws: ConnectServiceClient.Error.network(.timedOut)) {
            _ = try await client.fetchConnection(id: "c", userId: "u")
        }
    }

    @Test(arguments: ["", "{}", #"{"type":"connection"}"#, "[1]", "<html>"])
    func undecodableBodiesAreUnexpectedResponses(body: String) async throws {
        let client = try Self.client(RecordingTransport(body: body))
        let calls: [@Sendable () async throws -> Void] = [
            { _ = try await client.fetchConnection(id: "c", userId: "u") },
            { _ = try await client.fetchFieldOptions(connectionId: "c", for: .feature("f"), userId: "u") },
            { _ = try await client.exchangeUserToken(userId: "u", accessToken: "a") },
        ]
        for call in calls {
            do {
                try await call()
                Issue.record("decoded \(body)")
            } catch {
                guard case .unexpectedResponse? = error as? ConnectServiceClient.Error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
            }
        }
    }
}

@Suite("The service key never shows")
struct ServiceKeySecrecyTests {
    static let key = ServiceCallTests.key
    static let userToken = "USERTOKEN-e1hMBWw44mJM902c"
    static let accessToken = "OAUTH-ACCESS-abcdef123456"

    @Test func logsDescriptionsAndErrorsHoldNoKeyOrToken() async throws {
        let log = LogCapture()
        // A hostile server echoes every secret it received into its error payload.
        let transport = RecordingTransport { request throws(ConnectAPIError) in
            let echoed = [request.headers["IFTTT-Service-Key"] ?? "", request.url.query ?? "", Self.userToken].joined(
                separator: " ")
            if request.url.path.hasSuffix("/boom") { throw .transport(code: -1, description: "reset") }
            let body =
                #"{"type":"error","code":"\#(echoed)","message":"key \#(echoed)","details":[{"parameter":"\#(echoed)","message":"\#(echoed)"}]}"#
            return HTTPResponse(statusCode: request.url.path.hasSuffix("user_token") ? 401 : 422, body: Data(body.utf8))
        }
        let client = try ServiceCallTests.client(transport, log: log)
        var texts = [String(describing: client), String(reflecting: client), "\(client)"]
        let calls: [@Sendable () async throws -> Void] = [
            { _ = try await client.exchangeUserToken(userId: "u1", accessToken: Self.accessToken) },
            { _ = try await client.fetchConnection(id: "c1", userId: "u1") },
            { _ = try await client.fetchFieldOptions(connectionId: "c1", for: .trigger("a.b"), userId: "u1") },
            { try await client.updateUserConnection(connectionId: "c1", userId: "u1", update: .init(features: [])) },
            { try await client.refreshUserConnection(connectionId: "c1", userId: "u1") },
            { try await client.refreshUserConnection(connectionId: "boom", userId: "u1") },
            { _ = try await client.fetchUser(userId: "u1") },
        ]
        for call in calls {
            do {
                try await call()
                Issue.record("expected an error")
            } catch {
                texts += [String(describing: error), String(reflecting: error), error.localizedDescription]
            }
        }
        texts.append(log.text)
        // The echoed secrets reached the errors, and were redacted there.
        #expect(texts.contains { $0.contains("<redacted>") })
        #expect(transport.requests.count == calls.count)
        #expect(transport.requests.allSatisfy { $0.headers["IFTTT-Service-Key"] == Self.key })
        #expect(log.text.contains("GET /connections/c1 -> 422"))
        for text in texts {
            #expect(!text.contains(Self.key), "service key leaked: \(text)")
            #expect(!text.contains(Self.accessToken), "access token leaked: \(text)")
        }
    }

    @Test func insecureErrorsNameOnlyTheHost() {
        do {
            _ = try ConnectServiceClient(serviceKey: Self.key, baseURL: URL(string: "http://example.com/v2")!)
            Issue.record("accepted plain HTTP")
        } catch {
            #expect(error == .insecureBaseURL(host: "example.com"))
            #expect(!String(describing: error).contains(Self.key))
        }
    }
}
