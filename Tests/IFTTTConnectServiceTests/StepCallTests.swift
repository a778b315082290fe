import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectService
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing

/// Run an action, perform a query, test a trigger and the provisional access code: the requests IFTTT's docs show
/// (service key, `user_id` in the JSON body), and their answers.
@Suite("ConnectServiceClient: run, perform, test, provisional access code")
struct StepCallTests {
    static func body(_ request: HTTPRequest) throws -> JSONValue {
        try JSONParser().parse(try #require(request.body))
    }

    @Test func runActionPostsTheUserAndTheOverridesInTheBody() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        try await ServiceCallTests.client(transport).runAction(
            connectionId: "C8p3q9T6", actionId: "acme.send_message", userId: "123", userFeatureId: "uf-1",
            fields: ["channel": "oFro6MQAAA1UEwzVVNNVnJ1UtZ2hvc3RidJz", "message": "Woof!"])
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(
            request.url.absoluteString == "http://127.0.0.1:8080/v2/connections/C8p3q9T6/actions/acme.send_message/run")
        ServiceCallTests.expectServiceHeaders(request)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(
            try Self.body(request)
                == [
                    "user_id": "123", "user_feature_id": "uf-1",
                    "fields": ["channel": "oFro6MQAAA1UEwzVVNNVnJ1UtZ2hvc3RidJz", "message": "Woof!"],
                ])
    }

    @Test func performQueryReadsTheListAndTheNextPage() async throws {
        let answer = #"""
            {"type":"list","data":[{"id":"kj39jskl","name":"posts.zip"}],
             "next":{"fields":{"folder_name":"aBw"},"cursor":"1515177"}}
            """#
        let transport = RecordingTransport(body: answer)
        let page = try await ServiceCallTests.client(transport).performQuery(
            connectionId: "C8p3q9T6", queryId: "acme_cloud_storage.list_files", userId: "123",
            fields: ["folder_name": "aBw"], includes: ["versions"], limit: 1)
        #expect(page.type == "list")
        #expect(page.items == [["id": "kj39jskl", "name": "posts.zip"]])
        #expect(page.nextCursor == "1515177")
        #expect(page.nextFields == ["folder_name": "aBw"])
        let request = try #require(transport.requests.first)
        #expect(
            request.url.path == "/v2/connections/C8p3q9T6/queries/acme_cloud_storage.list_files/perform")
        #expect(
            try Self.body(request)
                == ["user_id": "123", "fields": ["folder_name": "aBw"], "includes": ["versions"], "limit": 1])

        let last = try await ServiceCallTests.client(RecordingTransport(body: #"{"type":"list","data":[]}"#))
            .performQuery(connectionId: "c", queryId: "q.q", userId: "u", cursor: "1515177")
        #expect(last.nextCursor == nil && last.items.isEmpty)
    }

    @Test func testTriggerAndProvisionalCode() async throws {
        let transport = RecordingTransport { request throws(ConnectAPIError) in
            request.url.path.hasSuffix("/provisional_access_code")
                ? HTTPResponse(statusCode: 201, body: Data(#"{"provisional_access_code":"sf9o8usfl-2f3l-f23kj"}"#.utf8))
                : HTTPResponse(statusCode: 204)
        }
        let client = try ServiceCallTests.client(transport)
        try await client.testTrigger(connectionId: "C8p3q9T6", triggerId: "acme.new_file", userId: "123")
        #expect(try await client.createProvisionalAccessCode(oauthCode: "foo") == "sf9o8usfl-2f3l-f23kj")
        #expect(
            transport.requests.map(\.url.path) == [
                "/v2/connections/C8p3q9T6/triggers/acme.new_file/test", "/v2/provisional_access_code",
            ])
        #expect(try Self.body(transport.requests[0]) == ["user_id": "123"])
        #expect(try Self.body(transport.requests[1]) == ["oauth_code": "foo"])
    }

    @Test func badInputAndFailuresAreTyped() async throws {
        let none = RecordingTransport(body: "{}")
        let client = try ServiceCallTests.client(none)
        let emptyUser = ConnectServiceClient.Error.network(.invalidRequest("empty user id"))
        await #expect(throws: emptyUser) { try await client.runAction(connectionId: "c", actionId: "a.b", userId: "") }
        await #expect(throws: emptyUser) {
            try await client.testTrigger(connectionId: "c", triggerId: "a.b", userId: "")
        }
        await #expect(throws: ConnectServiceClient.Error.self) {
            _ = try await client.performQuery(connectionId: "c", queryId: "a.b", userId: "u", limit: 0)
        }
        await #expect(throws: ConnectServiceClient.Error.self) {
            _ = try await client.createProvisionalAccessCode(oauthCode: "")
        }
        #expect(none.requests.isEmpty)

        let invalid = #"""
            {"type":"error","code":"invalid_parameters","message":"The parameters of your request were invalid",
             "details":[{"parameter":"/fields/channel","message":"Not a valid option for this field."}]}
            """#
        let refusing = try ServiceCallTests.client(RecordingTransport(status: 422, body: invalid))
        do {
            try await refusing.runAction(connectionId: "c", actionId: "a.b", userId: "u", fields: ["channel": "Cats"])
            Issue.record("a 422 was not thrown")
        } catch {
            guard case .network(let network) = error else { throw error }
            #expect(network.statusCode == 422)
            #expect(network.payload?.details.first?.parameter == "/fields/channel")
        }
        let garbage = try ServiceCallTests.client(RecordingTransport(body: "[]"))
        await #expect(throws: ConnectServiceClient.Error.self) {
            _ = try await garbage.performQuery(connectionId: "c", queryId: "a.b", userId: "u")
        }
    }
}
