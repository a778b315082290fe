import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTSDK
import Testing
import TestSupport

@Suite("Legacy Applet decoding")
struct AppletDecodingTests {
    static func fixture() throws -> Data {
        try Data(contentsOf: Repository.url("Tests/Fixtures/android_legacy_applet_2018.json"))
    }

    @Test func legacyFixtureDecodes() throws {
        let applet = try IFTTTApplet.decode(from: Self.fixture())
        #expect(applet.id == "aVxGRrtD")
        #expect(applet.status == .unknown)  // user_status: null
        #expect(applet.lastRunAt == nil)
        #expect(applet.enabledCount == 644_429)
        #expect(applet.primaryService.id == "instagram")
        #expect(applet.secondaryServices.map(\.id) == ["twitter"])
        #expect(applet.brandingService.id == "twitter")
        #expect(applet.embeddedURL.absoluteString.hasPrefix("https://ifttt.com/"))
        // 2017-02-16T11:10:43-08:00
        #expect(applet.publishedAt == Date(timeIntervalSince1970: 1_487_272_243))
        #expect(applet.primaryService.brandColor != nil)
    }

    /// Dates parse with ISO8601DateFormatter (iOS 10), not `Date(_:strategy: .iso8601)` (iOS 15): the same instants.
    @Test(arguments: [
        ("2017-02-16T11:10:43-08:00", 1_487_272_243.0), ("2017-02-16T19:10:43Z", 1_487_272_243),
        ("2017-12-31T23:59:59+14:00", 1_514_714_399), ("2016-02-29T00:00:00Z", 1_456_704_000),
    ])
    func internetDateTimesKeepTheirInstant(text: String, seconds: TimeInterval) throws {
        var object = try #require(try JSONParser().parse(Self.fixture()).objectValue)
        object["last_run_at"] = .string(text)
        let applet = try IFTTTApplet.decode(json: .object(object))
        #expect(applet.lastRunAt == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        (#"{"user_status":"paused"}"#, "$.user_status"),
        (#"{"published_at":"16/02/2017"}"#, "$.published_at"),
        (#"{"last_run_at":"yesterday"}"#, "$.last_run_at"),
        (#"{"services":[]}"#, "$.services"),
        (#"{"type":"connection"}"#, "$.type"),
        (#"{"id":null}"#, "$"),
    ])
    func hostileAppletsAreTypedErrors(patch: String, path: String) throws {
        var object = try #require(try JSONParser().parse(Self.fixture()).objectValue)
        let changes = try #require(try JSONParser().parse(patch).objectValue)
        for member in changes.members { object[member.key] = member.value }
        if changes["id"] != nil { object["id"] = nil }
        do {
            _ = try IFTTTApplet.decode(json: .object(object))
            Issue.record("decoded \(patch)")
        } catch {
            #expect(error.path == path)
        }
    }

    @Test func listDecodes() throws {
        let applet = String(decoding: try Self.fixture(), as: UTF8.self)
        let list = try IFTTTApplet.decodeList(from: Data(#"{"type":"list","data":[\#(applet),\#(applet)]}"#.utf8))
        #expect(list.count == 2)
    }
}
