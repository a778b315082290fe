import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTSDK
import Testing

@Suite("Embedded activation URL")
struct EmbeddedURLTests {
    static let callback = URL(string: "ifttt-api-example://sdk-callback")!

    static func applet(embeddedURL: String = "https://ifttt.com/embed/instagram/applets/aVxGRrtD") throws -> IFTTTApplet
    {
        let body = try LegacyFixtures.appletJSON(replacing: "embedded_url", with: "\"\(embeddedURL)\"")
        return try IFTTTApplet.decode(from: Data(body.utf8))
    }

    /// The query items of `url` as URLComponents decodes them, in order.
    static func items(_ url: URL) throws -> [(String, String?)] {
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        return (components.queryItems ?? []).map { ($0.name, $0.value) }
    }

    @Test func itemsAreTheLegacyOnesInOrder() throws {
        let url = try Self.applet().embeddedURL(
            callbackURL: Self.callback, email: "alice@example.com", userId: "alice",
            anonymousId: "anon-1", inviteCode: "21790-7d53")
        let items = try Self.items(url)
        #expect(
            items.map(\.0) == [
                "ifttt_sdk_version", "ifttt_sdk_platform", "ifttt_sdk_anonymous_id",
                "user_id", "redirect_uri", "invite_code", "email",
            ])
        #expect(
            items.map(\.1) == [
                SDKInfo.version, SDKInfo.platform, "anon-1", "alice",
                "ifttt-api-example://sdk-callback", "21790-7d53", "alice@example.com",
            ])
        #expect(url.scheme == "https")
        #expect(url.host == "ifttt.com")
        #expect(url.path == "/embed/instagram/applets/aVxGRrtD")
    }

    @Test(arguments: [nil, ""] as [String?])
    func emptyEmailAndInviteCodeAreOmitted(value: String?) throws {
        let url = try Self.applet().embeddedURL(
            callbackURL: Self.callback, email: value, userId: "alice",
            anonymousId: "anon-1", inviteCode: value)
        #expect(
            try Self.items(url).map(\.0) == [
                "ifttt_sdk_version", "ifttt_sdk_platform", "ifttt_sdk_anonymous_id",
                "user_id", "redirect_uri",
            ])
    }

    @Test(arguments: [
        "alice+test@example.com",
        "a&b=c@example.com",
        "zoë.ünïcödé@exämple.de",
        "名前@例え.jp",
        "first last@example.com",
        " padded @example.com ",
        "percent%2B@example.com",
        "semi;colon#hash?q@example.com",
        "plus+and space+@example.com",
        "emoji😀@example.com",
    ])
    func emailsRoundTripExactly(email: String) throws {
        let url = try Self.applet().embeddedURL(
            callbackURL: Self.callback, email: email, userId: "user & id+1 ü",
            anonymousId: "anon-1", inviteCode: "in+vite&=")
        let items = try Self.items(url)
        #expect(items.first { $0.0 == "email" }?.1 == email)
        #expect(items.first { $0.0 == "user_id" }?.1 == "user & id+1 ü")
        #expect(items.first { $0.0 == "invite_code" }?.1 == "in+vite&=")
        #expect(items.count == 7)
        // No `+` survives unencoded, so no form decoder can turn one into a space.
        #expect(!(url.query ?? "").contains("+"))
        #expect(!(url.query ?? "").contains(" "))
    }

    @Test func callbackWithQueryRoundTrips() throws {
        let callback = URL(string: "myapp://ifttt/done?step=1&x=a%2Bb#frag")!
        let url = try Self.applet().embeddedURL(
            callbackURL: callback, email: nil, userId: "u", anonymousId: "a", inviteCode: nil)
        #expect(try Self.items(url).first { $0.0 == "redirect_uri" }?.1 == callback.absoluteString)
    }

    @Test func existingQueryIsReplacedAndFragmentKept() throws {
        let applet = try Self.applet(embeddedURL: "https://ifttt.com/embed/x/applets/y?user_id=mallory&email=evil#top")
        let url = try applet.embeddedURL(
            callbackURL: Self.callback, email: "a@b.c", userId: "alice", anonymousId: "a", inviteCode: nil)
        let items = try Self.items(url)
        #expect(items.filter { $0.0 == "user_id" }.map(\.1) == ["alice"])
        #expect(items.filter { $0.0 == "email" }.map(\.1) == ["a@b.c"])
        #expect(url.fragment == "top")
    }

    @Test func invalidInputsAreTypedErrors() throws {
        let applet = try Self.applet()
        #expect(throws: ConnectAPIError.invalidRequest("userId is empty")) {
            try applet.embeddedURL(
                callbackURL: Self.callback, email: nil, userId: "", anonymousId: "a", inviteCode: nil)
        }
        #expect(throws: ConnectAPIError.invalidRequest("callbackURL has no scheme")) {
            try applet.embeddedURL(
                callbackURL: URL(string: "relative/path")!, email: nil, userId: "u", anonymousId: "a", inviteCode: nil)
        }
    }

    @Test func managerSuppliesAnonymousIdAndInviteCode() throws {
        let manager = LegacyFixtures.manager(RecordingTransport(body: "{}"), invite: "inv-9")
        let url = try manager.embeddedURL(for: Self.applet(), callbackURL: Self.callback, email: "e@x.y", userId: "u")
        let items = try Self.items(url)
        #expect(items.first { $0.0 == "ifttt_sdk_anonymous_id" }?.1 == "anon-1")
        #expect(items.first { $0.0 == "invite_code" }?.1 == "inv-9")
    }

    @Test func sharedManagerFormUsesTheSharedConfiguration() throws {
        // Reads the shared manager without changing it, so parallel tests are unaffected.
        let url = try Self.applet().embeddedURL(callbackURL: Self.callback, userId: "u")
        let items = try Self.items(url)
        #expect(items.first { $0.0 == "ifttt_sdk_anonymous_id" }?.1 == IFTTTAPIManager.shared.anonymousId)
        #expect(items.first { $0.0 == "email" } == nil)
    }
}
