import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting

@Suite("ConnectionNetworkController requests and errors")
struct NetworkControllerTests {
    static let connectionBody = Data(HostilePayloadTests.valid.utf8)

    func controller(_ transport: RecordingTransport) -> ConnectionNetworkController {
        ConnectionNetworkController(
            configuration: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!,
                anonymousId: "anon-1", callbackQueue: nil))
    }

    func response(_ controller: ConnectionNetworkController, _ urlRequest: URLRequest) async
        -> ConnectionNetworkController.Response
    {
        await withCheckedContinuation { continuation in
            controller.start(urlRequest: urlRequest) { continuation.resume(returning: $0) }
        }
    }

    @Test func aURLRequestsResponseCarriesTheRealStatusOnSuccessAndOnADecodingFailure() async throws {
        let request = URLRequest(url: URL(string: "https://api.test/v2/connections/c1")!)
        for status in [200, 201, 202, 299] {
            let answer = await response(
                controller(RecordingTransport { _ in HTTPResponse(statusCode: status, body: Self.connectionBody) }),
                request)
            #expect(answer.statusCode == status)
            #expect((try? answer.result.get())?.id == "c1")
        }
        let garbled = await response(
            controller(RecordingTransport { _ in HTTPResponse(statusCode: 206, body: Data("not json".utf8)) }), request)
        #expect(garbled.statusCode == 206)
        #expect((try? garbled.result.get()) == nil)
        let teapot = await response(
            controller(RecordingTransport { _ in HTTPResponse(statusCode: 418, body: Data()) }), request)
        #expect(teapot.statusCode == 418)
        var noURL = URLRequest(url: URL(string: "https://api.test")!)
        noURL.url = nil
        let invalid = await response(controller(RecordingTransport { _ in HTTPResponse(statusCode: 200) }), noURL)
        #expect(invalid.statusCode == -1)
    }

    @Test func fetchSendsTheDocumentedHeaders() async throws {
        let transport = RecordingTransport { _ in HTTPResponse(statusCode: 200, body: Self.connectionBody) }
        let credentials = ConnectionCredentials(oauthCode: "code", userToken: "secret-token", inviteCode: "invite-1")
        let connection = try await controller(transport).fetchConnection(for: "c1", credentialProvider: credentials)
        #expect(connection.id == "c1")
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://api.test/v2/connections/c1")
        #expect(request.headers["Authorization"] == "Bearer secret-token")
        #expect(request.headers["IFTTT-Invite-Code"] == "invite-1")
        #expect(request.headers["IFTTT-SDK-Version"] == SDKInfo.version)
        #expect(request.headers["IFTTT-SDK-Platform"] == SDKInfo.platform)
        #expect(request.headers["IFTTT-SDK-Anonymous-Id"] == "anon-1")
        #expect(request.body == nil)
    }

    @Test func anonymousFetchSendsNoCredentials() async throws {
        let transport = RecordingTransport { _ in HTTPResponse(statusCode: 200, body: Self.connectionBody) }
        _ = try await controller(transport).fetchConnection(
            for: "c1", credentialProvider: ConnectionCredentials(userToken: "", inviteCode: ""))
        let request = try #require(transport.requests.first)
        #expect(request.headers["Authorization"] == nil)
        #expect(request.headers["IFTTT-Invite-Code"] == nil)
    }

    @Test func pathsAndMethods() async throws {
        let transport = RecordingTransport { _ in HTTPResponse(statusCode: 200, body: Self.connectionBody) }
        let c = controller(transport)
        let credentials = ConnectionCredentials(userToken: "t")
        _ = try await c.disconnectConnection(with: "a/b?c", credentialProvider: credentials)
        _ = try await c.enableConnection(with: "c1", credentialProvider: credentials)
        let update = UserConnectionUpdate(features: [
            .init(
                featureId: "f",
                triggers: [
                    .init(
                        stepId: "t1",
                        userFields: ["location": .location(LocationValue(latitude: 1, longitude: 2, radius: 3))])
                ])
        ])
        _ = try await c.start(
            request: Connection.Request(
                connectionId: "c1", action: .updateUserConnection(update), credentialProvider: credentials))
        let requests = transport.requests
        #expect(requests.map(\.method) == ["POST", "POST", "PUT"])
        #expect(requests[0].url.absoluteString == "https://api.test/v2/connections/a%2Fb%3Fc/disable")
        #expect(requests[1].url.absoluteString == "https://api.test/v2/connections/c1/enable")
        #expect(requests[2].url.absoluteString == "https://api.test/v2/connections/c1/user_connection")
        #expect(requests[2].headers["Content-Type"] == "application/json")
        let body = try JSONParser().parse(try #require(requests[2].body))
        let trigger = body["user_features"].flatMap {
            if case .array(let a) = $0 { return a.first } else { return nil }
        }?["user_feature_triggers"]
        guard case .array(let triggers)? = trigger, let first = triggers.first else {
            Issue.record("no triggers")
            return
        }
        #expect(first["feature_trigger_id"] == .string("t1"))
    }

    @Test func emptyOrRelativeIdsAreInvalidRequests() async {
        let transport = RecordingTransport { _ in HTTPResponse(statusCode: 200, body: Self.connectionBody) }
        for id in ["", ".", ".."] {
            await #expect(throws: ConnectAPIError.invalidRequest("empty or relative path segment")) {
                try await controller(transport).fetchConnection(
                    for: id, credentialProvider: ConnectionCredentials.anonymous)
            }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func accountLookupEncodesEmailStrictly() async throws {
        let transport = RecordingTransport { request in
            HTTPResponse(statusCode: request.url.query?.contains("new") == true ? 404 : 204)
        }
        let c = controller(transport)
        #expect(try await c.lookUpAccount(email: " a+b&c=d@example.com ") == .existingUser)
        #expect(try await c.lookUpAccount(email: "new@example.com") == .newUser)
        #expect(
            transport.requests[0].url.absoluteString
                == "https://api.test/v2/account/find?email=a%2Bb%26c%3Dd%40example.com")
        #expect(transport.requests[0].headers["Authorization"] == nil)
    }

    @Test(arguments: [500, 503, 429, 400, 403, 200, 302])
    func accountLookupNeverTurnsAFailureIntoANewUser(status: Int) async {
        let transport = RecordingTransport { _ in HTTPResponse(statusCode: status) }
        do {
            let result = try await controller(transport).lookUpAccount(email: "x@example.com")
            Issue.record("status \(status) gave \(result) instead of an error")
        } catch {
            #expect(error.statusCode == status)
        }
    }

    @Test func transportFailuresStayTyped() async {
        for failure in [ConnectAPIError.timedOut, .cancelled, .transport(code: -1004, description: "refused")] {
            let transport = RecordingTransport { _ throws(ConnectAPIError) in throw failure }
            await #expect(throws: failure) {
                try await controller(transport).lookUpAccount(email: "x@example.com")
            }
        }
    }

    @Test func statusCodesBecomeTypedErrors() async {
        let envelope = Data(#"{"type":"error","code":"not_found","message":"No such Connection","details":[]}"#.utf8)
        let cases: [(Int, Data, ConnectAPIError)] = [
            (
                401, Data(#"{"type":"error","code":"unauthorized","message":"Token secret-token is invalid"}"#.utf8),
                .authenticationFailure(APIErrorPayload(code: "unauthorized", message: "Token <redacted> is invalid"))
            ),
            (
                404, envelope,
                .apiError(statusCode: 404, payload: APIErrorPayload(code: "not_found", message: "No such Connection"))
            ),
            (503, Data("<html>busy</html>".utf8), .apiError(statusCode: 503, payload: nil)),
            (
                200, Data("{".utf8),
                .invalidResponse(
                    statusCode: 200,
                    ConnectDecodingError(path: "$", reason: .malformedJSON(offset: 1, detail: "expected a key string")))
            ),
        ]
        for (status, body, expected) in cases {
            let transport = RecordingTransport { _ in HTTPResponse(statusCode: status, body: body) }
            do {
                _ = try await controller(transport).fetchConnection(
                    for: "c1", credentialProvider: ConnectionCredentials(userToken: "secret-token"))
                Issue.record("no error for \(status)")
            } catch {
                #expect(error == expected)
                #expect(!error.description.contains("secret-token"))
            }
        }
    }

    @Test func completionHandlerAPIDeliversOnce() async {
        let transport = RecordingTransport { _ in HTTPResponse(statusCode: 200, body: Self.connectionBody) }
        let c = controller(transport)
        let response = await withCheckedContinuation {
            (continuation: CheckedContinuation<ConnectionNetworkController.Response, Never>) in
            c.start(request: .fetchConnection(for: "c1", credentialProvider: ConnectionCredentials.anonymous)) {
                response in
                continuation.resume(returning: response)
            }
        }
        #expect((try? response.result.get())?.id == "c1")
        let failure = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<User, ConnectAPIError>, Never>) in
            ConnectionNetworkController(
                configuration: .init(
                    transport: RecordingTransport { _ in HTTPResponse(statusCode: 401) }, callbackQueue: nil)
            )
            .fetchUser(credentialProvider: ConnectionCredentials(userToken: "bad")) {
                continuation.resume(returning: $0)
            }
        }
        #expect(throws: ConnectAPIError.authenticationFailure(nil)) { try failure.get() }
    }

    @Test func credentialsDescriptionHidesSecrets() {
        let text = String(
            describing: ConnectionCredentials(
                oauthCode: "oauth-secret", userToken: "token-secret", inviteCode: "invite-secret"))
        #expect(!text.contains("secret"))
    }

    @Test func anonymousIdIsPersistedPerInstall() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anon-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = AnonymousIdentifierStore(fileURL: directory.appendingPathComponent("sub/anonymous_id"))
        let first = store.identifier()
        #expect(UUID(uuidString: first) != nil)
        #expect(store.identifier() == first)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
