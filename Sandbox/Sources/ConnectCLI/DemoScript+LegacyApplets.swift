import Foundation
import IFTTTConnectSDK
import IFTTTSDK
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

    /// What an app does to sign in to IFTTT: its own session in, an IFTTT user token out (or `nil`).
    func partnerUserToken(session: String) async throws -> String {
        var request = URLRequest(url: root.appendingPathComponent("partner/grocery_express/api/user_token"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(session)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = try? JSONDecoder().decode(JSONValue.self, from: data)
        guard status == 200, let token = json?["user_token"]?.stringValue else {
            throw DemoFailure("the partner backend answered \(status) without a user token")
        }
        return token
    }
}
