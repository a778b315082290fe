import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

@Suite("Sandbox: /v2/account/find, /v2/me, /v2/user_token")
struct SandboxAccountTests {
    @Test func accountFind() async throws {
        try await SandboxTest.withDemo { client in
            let found = try await client.get("/v2/account/find", query: ["email": "alice@example.com"])
            #expect(found.status == 204)
            #expect(found.data.isEmpty)
            let caseInsensitive = try await client.get("/v2/account/find", query: ["email": "ALICE@Example.COM"])
            #expect(caseInsensitive.status == 204)

            let missing = try await client.get("/v2/account/find", query: ["email": "zed@example.com"])
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")

            let noEmail = try await client.get("/v2/account/find")
            #expect(noEmail.status == 400)
            #expect(noEmail.errorCode == "invalid_parameters")
            #expect(try noEmail.json["details"]?[0]?["parameter"] == "email")

            let notAnEmail = try await client.get("/v2/account/find", query: ["email": "alice"])
            #expect(notAnEmail.status == 400)
            #expect(notAnEmail.errorCode == "invalid_parameters")
        }
    }

    @Test func me() async throws {
        try await SandboxTest.withDemo { client in
            let anonymous = try await client.get("/v2/me").json
            #expect(anonymous["type"] == "me")
            #expect(anonymous["authentication_level"] == "none")
            #expect(anonymous["service_id"] == .null)
            #expect(anonymous["user_login"] == .null)

            let alice = try await client.get("/v2/me", token: SandboxTest.aliceToken)
            #expect(alice.status == 200)
            #expect(
                try alice.json == [
                    "authentication_level": "user", "service_id": .null, "type": "me",
                    "user_login": "alice",
                ])

            let channel = try await client.get(
                "/v2/me", query: ["user_id": "gx-user-1002"],
                serviceKey: SandboxTest.serviceKey
            ).json
            #expect(channel["authentication_level"] == "channel")
            #expect(channel["service_id"] == "grocery_express")
            #expect(channel["user_login"] == "bob")

            let unlinked = try await client.get(
                "/v2/me", query: ["user_id": "gx-user-1003"],
                serviceKey: SandboxTest.serviceKey
            ).json
            #expect(unlinked["authentication_level"] == "channel")
            #expect(unlinked["user_login"] == .null)

            #expect(try await client.get("/v2/me", token: "wrong").status == 401)
            #expect(try await client.get("/v2/me", serviceKey: "wrong").status == 401)
        }
    }

    @Test func userTokenExchange() async throws {
        try await SandboxTest.withDemo { client in
            let minted = try await client.post(
                "/v2/user_token", query: ["user_id": "gx-user-1001", "access_token": "gx-access-token-alice"],
                serviceKey: SandboxTest.serviceKey)
            #expect(minted.status == 200)
            let json = try minted.json
            #expect(json["type"] == "user_token")
            let token = try #require(json["user_token"]?.stringValue)
            #expect(token != SandboxTest.aliceToken)
            // The new token works, and the old one still does.
            #expect(try await client.get("/v2/me", token: token).json["user_login"] == "alice")
            #expect(try await client.get("/v2/me", token: SandboxTest.aliceToken).json["user_login"] == "alice")

            let second = try await client.post(
                "/v2/user_token", query: ["user_id": "gx-user-1001", "access_token": "gx-access-token-alice"],
                serviceKey: SandboxTest.serviceKey)
            #expect(try second.json["user_token"]?.stringValue != token)
        }
    }

    @Test func userTokenErrors() async throws {
        try await SandboxTest.withDemo { client in
            let query = ["user_id": "gx-user-1001", "access_token": "gx-access-token-alice"]
            let noKey = try await client.post("/v2/user_token", query: query)
            #expect(noKey.status == 401)
            #expect(noKey.errorCode == "unauthorized")

            let wrongKey = try await client.post("/v2/user_token", query: query, serviceKey: "wrong-key")
            #expect(wrongKey.status == 401)
            #expect(!String(decoding: wrongKey.data, as: UTF8.self).contains("wrong-key"))

            let bearer = try await client.post("/v2/user_token", query: query, token: SandboxTest.aliceToken)
            #expect(bearer.status == 401)
            let bearerAndKey = try await client.post(
                "/v2/user_token", query: query, token: SandboxTest.aliceToken, serviceKey: SandboxTest.serviceKey)
            #expect(bearerAndKey.status == 401)

            let wrongAccessToken = try await client.post(
                "/v2/user_token", query: ["user_id": "gx-user-1001", "access_token": "gx-access-token-bob"],
                serviceKey: SandboxTest.serviceKey)
            #expect(wrongAccessToken.status == 401)
            #expect(!String(decoding: wrongAccessToken.data, as: UTF8.self).contains("gx-access-token"))

            let unlinked = try await client.post(
                "/v2/user_token", query: ["user_id": "gx-user-1003", "access_token": "gx-access-token-dave"],
                serviceKey: SandboxTest.serviceKey)
            #expect(unlinked.status == 404)
            #expect(unlinked.errorCode == "not_found")

            let missingParameter = try await client.post(
                "/v2/user_token", query: ["user_id": "gx-user-1001"], serviceKey: SandboxTest.serviceKey)
            #expect(missingParameter.status == 400)
            #expect(missingParameter.errorCode == "invalid_parameters")
        }
    }
}
