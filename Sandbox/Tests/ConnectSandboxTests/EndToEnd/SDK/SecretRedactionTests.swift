import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectService
@_spi(Sandbox) import IFTTTSDK
import Logging
import Testing

/// Runs every legacy and service call with the SDK log handlers and the sandbox logger capturing at trace level,
/// then checks that no service key and no user token appears in a log line or a description.
@Suite("No secrets in logs or descriptions")
struct SecretRedactionTests {
    @Test func logsAndDescriptionsHoldNoServiceKeyOrUserToken() async throws {
        let sandboxLines = LineCollector()
        let sdkLines = LineCollector()
        var logger = Logger(label: "sandbox-secrets") { _ in CollectingLogHandler(collector: sandboxLines) }
        logger.logLevel = .trace
        let minted = LineCollector()  // user tokens obtained during the run
        var descriptions: [String] = []

        let collected = try await LegacyFixture.withSandbox(logger: logger) { url -> [String] in
            var texts: [String] = []
            let log: @Sendable (String) -> Void = { sdkLines.append($0) }
            let client = try ConnectServiceClient(
                serviceKey: SandboxTest.serviceKey,
                baseURL: url.appendingPathComponent("v2"), logHandler: log)
            texts.append(client.description)
            let exchanged = try await client.exchangeUserToken(
                userId: "gx-user-1001", accessToken: "gx-access-token-alice")
            minted.append(exchanged)
            _ = try await client.fetchUser(userId: "gx-user-1001")
            let deals = try await client.fetchConnection(id: "gx-weekly-deals", userId: "gx-user-1001")
            if let trigger = deals.features.first?.triggers.first {
                _ = try await client.fetchFieldOptions(
                    connectionId: deals.id, for: .init(trigger), userId: "gx-user-1001")
            }
            try await client.refreshUserConnection(connectionId: deals.id, userId: "gx-user-1001")
            do throws(ConnectServiceClient.Error) {
                _ = try await client.exchangeUserToken(userId: "gx-user-1001", accessToken: "wrong")
            } catch {
                texts.append(error.description)
                texts.append(String(describing: error))
            }

            // The partner backend (which itself uses ConnectServiceClient against the sandbox).
            let partner = try await Client(base: url).request(
                "POST", "partner/grocery_express/api/user_token",
                headers: ["Authorization": "Bearer gx-access-token-bob"])
            let bobToken = try #require(try partner.json["user_token"]?.stringValue)
            minted.append(bobToken)

            for token in [SandboxTest.aliceToken, bobToken, exchanged] {
                let manager = LegacyFixture.manager(url, token: token, logHandler: log)
                manager.inviteCode = "gx-invite-2026"
                texts.append(manager.description)
                for order in IFTTTAppletOrder.allCases {
                    for platform in IFTTTPlatform.allCases {
                        let applets = try await manager.fetchApplets(order: order, platform: platform)
                        texts.append(contentsOf: applets.map { String(describing: $0) })
                    }
                }
                _ = try await manager.fetchApplet(id: "gx-arrive-store")
                _ = try await manager.setStatus(true, forAppletId: "gx-weekly-deals")
                _ = try await manager.fetchCurrentUser()
                do throws(ConnectAPIError) {
                    _ = try await manager.setStatus(true, forAppletId: "gx-store-visits")  // never enabled: 404
                } catch {
                    texts.append(error.description)
                }
            }
            let bad = LegacyFixture.manager(url, token: "sandbox-user-token-carol", logHandler: log)
            bad.serviceSlug = "no_such_service"
            do throws(ConnectAPIError) {
                _ = try await bad.fetchApplets()
            } catch {
                texts.append(error.description)
            }
            texts.append(bad.description)
            return texts
        }
        descriptions.append(contentsOf: collected)

        let secrets =
            [SandboxTest.serviceKey, SandboxTest.aliceToken, SandboxTest.bobToken, SandboxTest.carolToken]
            + minted.lines
        #expect(minted.lines.count == 2)
        #expect(!sandboxLines.lines.isEmpty, "the sandbox logged nothing: the capture is broken")
        #expect(!sdkLines.lines.isEmpty, "the SDK logged nothing: the capture is broken")
        let everything = sandboxLines.lines + sdkLines.lines + descriptions
        for secret in secrets {
            let leaks = everything.filter { $0.contains(secret) }
            #expect(
                leaks.isEmpty,
                "a secret appears in \(leaks.count) line(s), e.g. \(leaks.first.map { $0.replacingOccurrences(of: secret, with: "<SECRET>") } ?? "")"
            )
        }
        // The partner access tokens (user sessions) stay out of the logs too.
        #expect(!everything.contains { $0.contains("gx-access-token-") })
    }
}
