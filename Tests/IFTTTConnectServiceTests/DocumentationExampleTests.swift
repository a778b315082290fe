import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTConnectService
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
            if path.hasSuffix("/refresh") || path.hasSuffix("/run") || path.hasSuffix("/test") {
                return HTTPResponse(statusCode: 204)
            }
            if path.hasSuffix("/provisional_access_code") {
                return HTTPResponse(statusCode: 201, body: Data(#"{"provisional_access_code":"PAC"}"#.utf8))
            }
            if path.hasSuffix("/perform") {
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                let answer =
                    body.contains("cursor")
                    ? #"{"type":"list","data":[{"id":"deal-2"}]}"#
                    : #"{"type":"list","data":[{"id":"deal-1"}],"next":{"fields":{"store":"s1"},"cursor":"c1"}}"#
                return HTTPResponse(statusCode: 200, body: Data(answer.utf8))
            }
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

        // Run actions, perform queries, test triggers
        try await client.runAction(
            connectionId: "gx-weekly-deals", actionId: "email.send_me_email",
            userId: "gx-user-1001", fields: ["subject": "Deals at your store"])
        var page = try await client.performQuery(
            connectionId: "gx-weekly-deals", queryId: "grocery_express.list_deals",
            userId: "gx-user-1001", limit: 10)
        var deals = page.items
        while let cursor = page.nextCursor {
            page = try await client.performQuery(
                connectionId: "gx-weekly-deals", queryId: "grocery_express.list_deals",
                userId: "gx-user-1001", fields: page.nextFields ?? [:],
                limit: 10, cursor: cursor)
            deals += page.items
        }
        #expect(deals == [["id": "deal-1"], ["id": "deal-2"]])
        try await client.testTrigger(
            connectionId: "gx-weekly-deals", triggerId: "grocery_express.new_weekly_deals",
            userId: "gx-user-1001")

        // Pre-authenticate a Connect URL
        let oauthCodeForThisUser = "oauth-code"
        let code = try await client.createProvisionalAccessCode(oauthCode: oauthCodeForThisUser)
        let connectURL = "https://ifttt.com/connect/gx-weekly-deals?email=alice%40example.com&code=\(code)"
        #expect(connectURL.hasSuffix("code=PAC"))

        #expect(
            transport.requests.map(\.method) == [
                "POST", "GET", "GET", "PUT", "POST", "POST", "POST", "POST", "POST", "POST",
            ])
        #expect(lines.text.contains("GET /connections/gx-arrive-store -> 200"))
        #expect(!lines.text.contains("service-key-123"))
    }
}
