import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTSDK

extension DemoScript {
    /// Step 8: the app asks the partner backend for alice's IFTTT user token with its own session, then uses the
    /// legacy Applets API (`IFTTTAPIManager`).
    func legacyAppletSteps(_ steps: DemoSteps) async {
        steps.section("8. Legacy Applets API with a token from the partner backend")
        let manager = IFTTTAPIManager(baseURL: root, anonymousId: "ifttt-connect-demo", callbackQueue: nil)
        manager.serviceSlug = "grocery_express"
        await steps.check("anonymous list, no mobile services") {
            let applets = try await manager.fetchApplets(order: .default, platform: .noMobileServices)
            try expect(applets.map(\.id) == ["gx-weekly-deals"], "only gx-weekly-deals uses no mobile service")
            return applets.map { "\($0.id) (\($0.status))" }.joined(separator: ", ")
        }
        await steps.check("the app gets alice's user token from POST /partner/grocery_express/api/user_token") {
            let token = try await partnerUserToken(session: "gx-access-token-alice")
            manager.userToken = token
            return "got a user token (not printed)"
        }
        await steps.check("/v1/me with that token") {
            let user = try await manager.fetchCurrentUser()
            try expect(user?.username == "alice", "the token should be alice's")
            return "username \(user?.username ?? "-")"
        }
        await steps.check("list for iOS, newest first") {
            let applets = try await manager.fetchApplets(order: .publishedAtDescending, platform: .ios)
            try expect(applets.first?.id == "gx-store-visits", "gx-store-visits is the newest published Applet")
            return applets.map { "\($0.id) (\($0.status))" }.joined(separator: ", ")
        }
        await steps.check("alice disables and enables gx-arrive-store") {
            let off = try await manager.setStatus(false, forAppletId: "gx-arrive-store")
            let on = try await manager.setStatus(true, forAppletId: "gx-arrive-store")
            try expect(off.status == .disabled && on.status == .enabled, "statuses")
            return "\(off.status) → \(on.status)"
        }
    }

    /// What an app does to sign in to IFTTT: its own session in, an IFTTT user token out, asked through the SDK's
    /// ``PartnerBackend/userTokenEndpoint(_:session:transport:)`` as `ifttt-connect connect` asks it (the SDK's one
    /// network path: its status mapping, typed errors and redaction).
    func partnerUserToken(session: String) async throws -> String {
        let backend = try PartnerBackend.userTokenEndpoint(
            ConnectCommand.Voucher.sandboxPartnerBackend(root), session: session)
        guard let token = try await backend.userToken() else {
            throw DemoFailure("the partner backend vouches for no user token")
        }
        return token
    }
}
