import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTSDK
import Testing

/// `IFTTTAPIManager` against the sandbox's legacy v1 endpoints over loopback HTTP.
@Suite("Legacy Applets API (IFTTTAPIManager) against the sandbox")
struct LegacyAppletEndToEndTests {
    static let iosDefault = ["gx-store-visits", "gx-arrive-store", "gx-weekly-deals", "gx-siri-list"]

    @Test(arguments: [
        (IFTTTAppletOrder.default, LegacyAppletEndToEndTests.iosDefault),
        (.publishedAtDescending, LegacyAppletEndToEndTests.iosDefault),
        (.publishedAtAscending, ["gx-siri-list", "gx-weekly-deals", "gx-arrive-store", "gx-store-visits"]),
        (.enabledCountAscending, ["gx-store-visits", "gx-weekly-deals", "gx-arrive-store", "gx-siri-list"]),
        (.enabledCountDescending, ["gx-siri-list", "gx-arrive-store", "gx-weekly-deals", "gx-store-visits"]),
    ])
    func fetchAppletsInEachOrder(order: IFTTTAppletOrder, expected: [String]) async throws {
        try await LegacyFixture.withSandbox { url in
            let applets = try await LegacyFixture.manager(url, token: SandboxTest.aliceToken)
                .fetchApplets(order: order, platform: .ios)
            #expect(applets.map(\.id) == expected)
            let counts = Dictionary(uniqueKeysWithValues: applets.map { ($0.id, $0.enabledCount) })
            #expect(counts == ["gx-siri-list": 3, "gx-arrive-store": 2, "gx-weekly-deals": 1, "gx-store-visits": 0])
        }
    }

    @Test(arguments: [
        (IFTTTPlatform.ios, LegacyAppletEndToEndTests.iosDefault),
        (.android, ["gx-store-visits", "gx-arrive-store", "gx-weekly-deals", "gx-android-sms"]),
        (.noMobileServices, ["gx-weekly-deals"]),
    ])
    func fetchAppletsForEachPlatform(platform: IFTTTPlatform, expected: [String]) async throws {
        try await LegacyFixture.withSandbox { url in
            let applets = try await LegacyFixture.manager(url).fetchApplets(order: .default, platform: platform)
            #expect(applets.map(\.id) == expected)
            #expect(applets.allSatisfy { $0.status == .unknown })  // anonymous
        }
    }

    /// What the legacy article shows an app: the public `sandbox(_:)` manager with the default transport.
    @Test func thePublicSandboxManagerReachesTheSandbox() async throws {
        try await LegacyFixture.withSandbox { url in
            let manager = IFTTTAPIManager.sandbox(url)
            manager.serviceSlug = "grocery_express"
            manager.userToken = SandboxTest.aliceToken
            manager.timeout = 60  // as the fixture's: the whole suite at once on 2 cores
            let applets = try await manager.fetchApplets(order: .default, platform: .ios)
            #expect(applets.map(\.id) == Self.iosDefault)
            #expect(applets.first { $0.id == "gx-arrive-store" }?.status == .enabled)
            #expect(try await manager.fetchCurrentUser()?.username == "alice")
        }
    }

    @Test func orderTiesAreBrokenByIdAndEnabledCountsFollowTheStore() async throws {
        try await LegacyFixture.withSandbox { url in
            let manager = LegacyFixture.manager(url, token: SandboxTest.aliceToken)
            // gx-android-sms and gx-store-visits both have 0 users: id order.
            let android = try await manager.fetchApplets(order: .enabledCountAscending, platform: .android)
            #expect(android.map(\.id) == ["gx-android-sms", "gx-store-visits", "gx-weekly-deals", "gx-arrive-store"])
            _ = try await manager.setStatus(false, forAppletId: "gx-arrive-store")
            let after = try await manager.fetchApplets(order: .enabledCountDescending, platform: .android)
            #expect(
                after.map(\.id) == ["gx-arrive-store", "gx-weekly-deals", "gx-android-sms", "gx-store-visits"]
                    || after.map(\.id) == ["gx-weekly-deals", "gx-arrive-store", "gx-android-sms", "gx-store-visits"])
            #expect(after.first { $0.id == "gx-arrive-store" }?.enabledCount == 1)
        }
    }

    @Test func unpublishedAppletsNeedTheInviteCode() async throws {
        try await LegacyFixture.withSandbox { url in
            let manager = LegacyFixture.manager(url)
            manager.inviteCode = "gx-invite-2026"
            let listed = try await manager.fetchApplets(order: .publishedAtDescending, platform: .ios)
            #expect(listed.first?.id == "gx-early-access")
            #expect(try await manager.fetchApplet(id: "gx-early-access").name.isEmpty == false)
            manager.inviteCode = "wrong"
            #expect(try await manager.fetchApplets().contains { $0.id == "gx-early-access" } == false)
            do throws(ConnectAPIError) {
                _ = try await manager.fetchApplet(id: "gx-early-access")
                Issue.record("unpublished Applet shown with a wrong invite code")
            } catch {
                #expect(error.statusCode == 403)
            }
        }
    }

    @Test func fetchAppletAnonymousSignedInAndErrors() async throws {
        try await LegacyFixture.withSandbox { url in
            let anonymous = try await LegacyFixture.manager(url).fetchApplet(id: "gx-arrive-store")
            #expect(anonymous.status == .unknown)
            #expect(anonymous.primaryService.id == "grocery_express")
            #expect(anonymous.secondaryServices.map(\.id) == ["location"])
            #expect(anonymous.brandingService.id == "location")
            #expect(
                anonymous.embeddedURL.absoluteString == url.absoluteString
                    + "/embed/grocery_express/applets/gx-arrive-store")
            #expect(anonymous.url.absoluteString == "https://ifttt.com/applets/gx-arrive-store")
            let published = try Date("2025-01-15T10:30:00-08:00", strategy: .iso8601)
            #expect(anonymous.publishedAt == published)
            #expect(anonymous.lastRunAt == nil)

            let alice = try await LegacyFixture.manager(url, token: SandboxTest.aliceToken).fetchApplet(
                id: "gx-arrive-store")
            #expect(alice.status == .enabled)
            let bob = try await LegacyFixture.manager(url, token: SandboxTest.bobToken).fetchApplet(
                id: "gx-weekly-deals")
            #expect(bob.status == .disabled)
            let carol = try await LegacyFixture.manager(url, token: SandboxTest.carolToken).fetchApplet(
                id: "gx-weekly-deals")
            #expect(carol.status == .neverEnabled)

            // The activation URL the SDK builds from the sandbox's embedded_url.
            let embed = try LegacyFixture.manager(url).embeddedURL(
                for: carol, callbackURL: URL(string: "gx-app://ifttt-callback")!, userId: "gx-user-1003")
            #expect(
                embed.absoluteString.hasPrefix(url.absoluteString + "/embed/grocery_express/applets/gx-weekly-deals?"))

            do throws(ConnectAPIError) {
                _ = try await LegacyFixture.manager(url).fetchApplet(id: "no-such-applet")
                Issue.record("unknown Applet fetched")
            } catch {
                #expect(error.statusCode == 404)
            }
            do throws(ConnectAPIError) {
                _ = try await LegacyFixture.manager(url, token: "not-a-token").fetchApplet(id: "gx-arrive-store")
                Issue.record("bad token accepted")
            } catch {
                #expect(error.statusCode == 401)
            }
            let unknownService = LegacyFixture.manager(url)
            unknownService.serviceSlug = "no_such_service"
            do throws(ConnectAPIError) {
                _ = try await unknownService.fetchApplets()
                Issue.record("unknown service listed")
            } catch {
                #expect(error.statusCode == 404)
            }
        }
    }

    @Test func setStatusFalseAndTrue() async throws {
        try await LegacyFixture.withSandbox { url in
            let alice = LegacyFixture.manager(url, token: SandboxTest.aliceToken)
            let off = try await alice.setStatus(false, forAppletId: "gx-weekly-deals")
            #expect(off.status == .disabled)
            #expect(try await alice.fetchApplet(id: "gx-weekly-deals").status == .disabled)
            let on = try await alice.setStatus(true, forAppletId: "gx-weekly-deals")
            #expect(on.status == .enabled)
            #expect(on.enabledCount == 1)

            // Completion-handler forms.
            let viaCompletion = await withCheckedContinuation { continuation in
                alice.setStatus(false, forAppletId: "gx-arrive-store") { continuation.resume(returning: $0) }
            }
            #expect((try? viaCompletion.get())?.status == .disabled)

            // A never-enabled Applet must be activated on the web.
            do throws(ConnectAPIError) {
                _ = try await LegacyFixture.manager(url, token: SandboxTest.carolToken).setStatus(
                    true, forAppletId: "gx-weekly-deals")
                Issue.record("never-enabled Applet enabled")
            } catch {
                #expect(error.statusCode == 404)
            }
            // No token: 401.
            do throws(ConnectAPIError) {
                _ = try await LegacyFixture.manager(url).setStatus(true, forAppletId: "gx-weekly-deals")
                Issue.record("anonymous enable accepted")
            } catch {
                #expect(error.statusCode == 401)
            }
        }
    }

    @Test func fetchCurrentUserWithAndWithoutAToken() async throws {
        try await LegacyFixture.withSandbox { url in
            let lines = LineCollector()
            let signedOut = LegacyFixture.manager(url, logHandler: { lines.append($0) })
            #expect(try await signedOut.fetchCurrentUser() == nil)
            #expect(lines.lines.isEmpty, "nothing is sent without a token")
            let viaCompletion = await withCheckedContinuation { continuation in
                signedOut.fetchCurrentUser { continuation.resume(returning: $0) }
            }
            #expect((try? viaCompletion.get()) == .some(nil))

            let alice = try await LegacyFixture.manager(url, token: SandboxTest.aliceToken).fetchCurrentUser()
            #expect(alice?.username == "alice")
            do throws(ConnectAPIError) {
                _ = try await LegacyFixture.manager(url, token: "not-a-token").fetchCurrentUser()
                Issue.record("bad token accepted")
            } catch {
                #expect(error.statusCode == 401)
            }
        }
    }

    @Test func completionHandlerListAndShow() async throws {
        try await LegacyFixture.withSandbox { url in
            let manager = LegacyFixture.manager(url, token: SandboxTest.aliceToken)
            let list = await withCheckedContinuation { continuation in
                manager.fetchApplets(order: .publishedAtAscending, platform: .android) {
                    continuation.resume(returning: $0)
                }
            }
            #expect((try? list.get())?.first?.id == "gx-android-sms")
            let one = await withCheckedContinuation { continuation in
                manager.fetchApplet(id: "gx-siri-list") { continuation.resume(returning: $0) }
            }
            #expect((try? one.get())?.status == .enabled)
            #expect((try? one.get())?.secondaryServices.map(\.id) == ["ios_reminders"])
        }
    }

    @Test func rawPayloadShapeAndBadParameters() async throws {
        try await LegacyFixture.withSandbox { url in
            let client = Client(base: url)
            let list = try await client.get("v1/services/grocery_express/applets", query: ["platform": "ios"])
            #expect(list.status == 200)
            #expect(try list.json["type"]?.stringValue == "list")
            let first = try #require(try list.json["data"]?[0])
            #expect(
                Set(first.keys) == [
                    "type", "id", "name", "description", "published_at", "enabled_count", "user_status",
                    "last_run_at", "services", "url", "embedded_url",
                ])
            #expect(first["user_status"] == .null)
            #expect(try await client.get("v1/services/grocery_express/applets", query: ["order": "name"]).status == 400)
            #expect(
                try await client.get("v1/services/grocery_express/applets", query: ["platform": "windows"]).status
                    == 400)
            // A service key works only for its own service, and with user_id in the JSON body for enable.
            let own = try await client.get(
                "v1/services/grocery_express/applets/gx-weekly-deals",
                query: ["user_id": "gx-user-1001"], serviceKey: SandboxTest.serviceKey)
            #expect(try own.json["user_status"]?.stringValue == "enabled")
            let disable = try await client.post(
                "v1/services/grocery_express/applets/gx-weekly-deals/disable",
                serviceKey: SandboxTest.serviceKey,
                body: Data(#"{"user_id":"gx-user-1001"}"#.utf8))
            #expect(disable.status == 200)
            #expect(try disable.json["user_status"]?.stringValue == "disabled")
            let me = try await client.get("v1/me", token: SandboxTest.aliceToken)
            #expect(try me.json["user_login"]?.stringValue == "alice")
        }
    }
}
