import Foundation
import IFTTTConnectCore
import IFTTTConnectTesting
import IFTTTConnectService
import Testing

/// Runs the examples of ServerSideCalls.md against a fake transport.
@Suite("Service documentation examples")
struct ServiceDocumentationExampleTests {
    @Test func theArticleExamplesWork() async throws {
        let connectionJSON = try ServiceCallTests.connectionJSON()
        let transport = RecordingTransport { request throws(ConnectAPIError) in
            let path = request.url.path
            if path.hasSuffix("/user_token") {
                return HTTPResponse(statusCode: 200, body: Data(#"{"type":"user_token","user_token":"UT"}"#.utf8))
            }
            if path.hasSuffix("/field_options") {
                return HTTPResponse(
                    statusCode: 200,
                    body: Data(#"{"type":"field_options","options":{"folder":[{"label":"A","value":"a"}]}}"#.utf8))
            }
            if path.hasSuffix("/refresh") { return HTTPResponse(statusCode: 204) }
            return HTTPResponse(statusCode: 200, body: Data(connectionJSON.utf8))
        }
        let lines = LogCapture()
        let oauthAccessToken = "oauth-access-token"

        // Create a client (the sandbox form, with the fake transport)
        let client = try ConnectServiceClient(
            serviceKey: "service-key-123", baseURL: URL(string: "http://127.0.0.1:8080/v2")!,
            transport: transport, logHandler: lines.handler)

        // Give the app a user token
        let userToken = try await client.exchangeUserToken(userId: "gx-user-1001", accessToken: oauthAccessToken)
        #expect(userToken == "UT")

        // Read and change a user's Connection
        let connection = try await client.fetchConnection(id: "gx-arrive-store", userId: "gx-user-1001")
        if let step = connection.features.first?.triggers.first {
            let options = try await client.fetchFieldOptions(
                connectionId: connection.id,
                for: .init(step), userId: "gx-user-1001")
            #expect(options.options.keys.sorted() == ["folder"])
        }
        try await client.updateUserConnection(
            connectionId: connection.id, userId: "gx-user-1001",
            update: .defaults(for: connection))
        try await client.refreshUserConnection(connectionId: connection.id, userId: "gx-user-1001")

        #expect(transport.requests.map(\.method) == ["POST", "GET", "GET", "PUT", "POST"])
        #expect(lines.text.contains("GET /connections/gx-arrive-store -> 200"))
        #expect(!lines.text.contains("service-key-123"))
    }
}
