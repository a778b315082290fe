import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectService
import Testing

/// The SDK against the sandbox over real loopback HTTP, state in SQLite.
@Suite("SDK against the sandbox, end to end")
struct SDKEndToEndTests {
    @Test func fetchAnonymousSignedInAndWithInviteCode() async throws {
        try await withSandbox { _, controller in
            let anonymous = try await controller.fetchConnection(
                for: "gx-arrive-store", credentialProvider: ConnectionCredentials.anonymous)
            #expect(anonymous.status == .unknown)
            #expect(anonymous.userConnection == nil)
            #expect(anonymous.primaryService.id == "grocery_express")
            #expect(anonymous.connectingService.id == "location")
            #expect(anonymous.primaryService.brandColor == ConnectColor(hex: "#1BAF5D"))
            #expect(anonymous.primaryService.monochromeIconURL != nil)

            let signedIn = try await controller.fetchConnection(for: "gx-arrive-store", credentialProvider: Demo.alice)
            #expect(signedIn.status == .enabled)
            #expect(signedIn.locationRegions.map(\.identifier) == ["ifttt_alice-arrive-trigger-1"])
            #expect(signedIn.locationRegions.first?.transitions == .enter)

            let carolView = try await controller.fetchConnection(for: "gx-arrive-store", credentialProvider: Demo.carol)
            #expect(carolView.status == .initial)
            #expect(carolView.userConnection == nil)

            let visits = try await controller.fetchConnection(
                for: "gx-store-visits", credentialProvider: ConnectionCredentials.anonymous)
            let location = try #require(visits.features.first?.triggers.first?.fields.first)
            #expect(location.type == .locationEnterAndExit)
            #expect(location.defaultValue?.location?.radius == 200)  // string-shaped default value

            await #expect(throws: ConnectAPIError.self) {
                try await controller.fetchConnection(
                    for: "gx-early-access", credentialProvider: ConnectionCredentials.anonymous)
            }
            do {
                _ = try await controller.fetchConnection(
                    for: "gx-early-access", credentialProvider: ConnectionCredentials(inviteCode: "wrong"))
                Issue.record("a wrong invite code was accepted")
            } catch let error as ConnectAPIError {
                #expect(error.statusCode == 403)
                #expect(error.apiCode == "forbidden")
            }
            let early = try await controller.fetchConnection(
                for: "gx-early-access", credentialProvider: ConnectionCredentials(inviteCode: "gx-invite-2026"))
            #expect(early.id == "gx-early-access")

            do {
                _ = try await controller.fetchConnection(
                    for: "no-such-connection", credentialProvider: ConnectionCredentials.anonymous)
                Issue.record("unknown id fetched")
            } catch let error as ConnectAPIError {
                #expect(error == .apiError(statusCode: 404, payload: error.payload))
                #expect(error.apiCode == "not_found")
            }
        }
    }

    @Test func disableAndEnable() async throws {
        try await withSandbox { _, controller in
            let disabled = try await controller.disconnectConnection(
                with: "gx-weekly-deals", credentialProvider: Demo.alice)
            #expect(disabled.status == .disabled)
            #expect(
                try await controller.fetchConnection(for: "gx-weekly-deals", credentialProvider: Demo.alice).status
                    == .disabled)
            let enabled = try await controller.enableConnection(with: "gx-weekly-deals", credentialProvider: Demo.alice)
            #expect(enabled.status == .enabled)
            // Bob's status is his own.
            #expect(
                try await controller.fetchConnection(for: "gx-weekly-deals", credentialProvider: Demo.bob).status
                    == .disabled)

            // Completion-handler form, against the same server.
            let result = await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<Connection, ConnectAPIError>, Never>) in
                controller.disconnectConnection(with: "gx-weekly-deals", credentialProvider: Demo.alice) {
                    continuation.resume(returning: $0)
                }
            }
            #expect((try? result.get())?.status == .disabled)
        }
    }

    @Test func authorizationFailuresAreTyped() async throws {
        try await withSandbox { url, controller in
            let badToken = ConnectionCredentials(userToken: "sandbox-user-token-mallory")
            for operation in ["fetch", "disable", "me"] {
                do {
                    switch operation {
                    case "fetch":
                        _ = try await controller.fetchConnection(for: "gx-arrive-store", credentialProvider: badToken)
                    case "disable":
                        _ = try await controller.disconnectConnection(
                            with: "gx-arrive-store", credentialProvider: badToken)
                    default: _ = try await controller.fetchUser(credentialProvider: badToken)
                    }
                    Issue.record("\(operation) accepted a bad token")
                } catch let error as ConnectAPIError {
                    guard case .authenticationFailure(let payload) = error else {
                        Issue.record("\(operation): \(error)")
                        continue
                    }
                    #expect(payload?.code == "unauthorized")
                    #expect(!error.description.contains("mallory"))
                }
            }
            // No token at all on a user endpoint.
            await #expect(throws: ConnectAPIError.authenticationFailure(nil).self) {
                do {
                    _ = try await controller.disconnectConnection(
                        with: "gx-weekly-deals", credentialProvider: ConnectionCredentials.anonymous)
                } catch let error as ConnectAPIError {
                    if case .authenticationFailure = error { throw ConnectAPIError.authenticationFailure(nil) }
                    throw error
                }
            }
            // A user without the Connection cannot disable it.
            do {
                _ = try await controller.disconnectConnection(with: "gx-arrive-store", credentialProvider: Demo.carol)
                Issue.record("carol disabled a Connection she does not have")
            } catch let error as ConnectAPIError {
                #expect(error.statusCode == 404)
            }
            // The service key works only on service endpoints.
            let (disableStatus, _) = try await rawRequest(
                url.appendingPathComponent("v2/connections/gx-weekly-deals/disable").appendingQuery(
                    "user_id", "gx-user-1001"),
                method: "POST", headers: ["IFTTT-Service-Key": Demo.serviceKey])
            #expect(disableStatus == 403)
            let (wrongKeyStatus, _) = try await rawRequest(
                url.appendingPathComponent("v2/connections/gx-arrive-store").appendingQuery("user_id", "gx-user-1001"),
                headers: ["IFTTT-Service-Key": "not-the-key"])
            #expect(wrongKeyStatus == 401)
            let (tokenOnServiceEndpoint, _) = try await rawRequest(
                url.appendingPathComponent("v2/user_token").appendingQuery("user_id", "gx-user-1001").appendingQuery(
                    "access_token", "gx-access-token-alice"),
                method: "POST", headers: ["Authorization": "Bearer sandbox-user-token-alice"])
            #expect(tokenOnServiceEndpoint == 401)
        }
    }

    @Test func accountLookupExistingNewAndServerError() async throws {
        try await withSandbox { _, controller in
            #expect(try await controller.lookUpAccount(email: "alice@example.com") == .existingUser)
            #expect(try await controller.lookUpAccount(email: "ALICE@example.com") == .existingUser)
            #expect(try await controller.lookUpAccount(email: "nobody+tag@example.com") == .newUser)
            do {
                _ = try await controller.lookUpAccount(email: "not-an-email")
                Issue.record("an invalid email was looked up")
            } catch let error as ConnectAPIError {
                #expect(error.statusCode == 400)
            }
        }
        try await withSandbox(failRate: 1, seed: 7) { _, controller in
            do {
                let result = try await controller.lookUpAccount(email: "alice@example.com")
                Issue.record("a failing server gave \(result)")
            } catch let error as ConnectAPIError {
                #expect(error.statusCode == 503)
                #expect(error.apiCode == "service_unavailable")
                #expect(error.isRetryable)
            }
        }
    }

    @Test func meAnswersAUserAndAnonymousCredentials() async throws {
        try await withSandbox { _, controller in
            let me = try await controller.fetchUser(credentialProvider: Demo.alice)
            #expect(me.login == "alice")
            #expect(me.authenticationLevel == .user)
            let nobody = try await controller.fetchUser(credentialProvider: ConnectionCredentials.anonymous)
            #expect(nobody.authenticationLevel == .none)
            #expect(nobody.login == nil)
        }
    }

    @Test func tokenExchangeWithTheServiceKey() async throws {
        try await withSandbox { url, controller in
            let client = try ConnectServiceClient(
                serviceKey: Demo.serviceKey, baseURL: url.appendingPathComponent("v2"))
            let token = try await client.exchangeUserToken(userId: "gx-user-1001", accessToken: "gx-access-token-alice")
            #expect(
                try await controller.fetchUser(credentialProvider: ConnectionCredentials(userToken: token)).login
                    == "alice")

            do {
                _ = try await client.exchangeUserToken(userId: "gx-user-1001", accessToken: "wrong-access-token")
                Issue.record("a wrong access token was exchanged")
            } catch let error as ConnectServiceClient.Error {
                guard case .network(.authenticationFailure) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(!error.description.contains(Demo.serviceKey))
            }
            do {
                _ = try await client.exchangeUserToken(userId: "gx-user-1003", accessToken: "gx-access-token-dave")
                Issue.record("an unlinked partner user got a token")
            } catch let error as ConnectServiceClient.Error {
                guard case .network(let network) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(network.statusCode == 404)
            }
            let wrongKey = try ConnectServiceClient(
                serviceKey: "wrong-service-key", baseURL: url.appendingPathComponent("v2"))
            await #expect(throws: ConnectServiceClient.Error.self) {
                try await wrongKey.exchangeUserToken(userId: "gx-user-1001", accessToken: "gx-access-token-alice")
            }
        }
    }

    @Test func stateSurvivesARestartWithTheSameDatabase() async throws {
        let path = temporaryDatabasePath()
        try await withSandbox(databasePath: path) { _, controller in
            _ = try await controller.disconnectConnection(with: "gx-arrive-store", credentialProvider: Demo.alice)
        }
        try await withSandbox(databasePath: path) { _, controller in
            let c = try await controller.fetchConnection(for: "gx-arrive-store", credentialProvider: Demo.alice)
            #expect(c.status == .disabled)
        }
    }

    @Test func retriesGetThroughAFlakySandbox() async throws {
        // 30% of requests fail with 503; a caller that retries retryable errors always gets through.
        try await withSandbox(failRate: 0.3, latency: 5, seed: 42) { _, controller in
            var failures = 0
            for _ in 0..<20 {
                var attempt = 0
                while true {
                    attempt += 1
                    do {
                        _ = try await controller.fetchConnection(for: "gx-weekly-deals", credentialProvider: Demo.alice)
                        break
                    } catch let error as ConnectAPIError {
                        #expect(error.isRetryable)
                        failures += 1
                        if attempt > 20 {
                            Issue.record("never got through")
                            break
                        }
                    }
                }
            }
            #expect(failures > 0)
        }
    }
}

extension ConnectAPIError {
    var payload: APIErrorPayload? {
        switch self {
        case .apiError(_, let payload): return payload
        case .authenticationFailure(let payload): return payload
        default: return nil
        }
    }
}

extension FieldValue {
    var choiceValue: String? {
        if case .choice(let choice) = self { return choice.value }
        return nil
    }
}

extension URL {
    func appendingQuery(_ name: String, _ value: String) -> URL {
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)!
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: name, value: value)]
        return components.url!
    }
}
