import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTSDK
import Testing

enum LegacyFixtures {
    static func appletJSON() throws -> String {
        String(decoding: try AppletDecodingTests.fixture(), as: UTF8.self)
    }

    static func listJSON(count: Int = 2) throws -> String {
        let applet = try appletJSON()
        return #"{"type":"list","data":["# + Array(repeating: applet, count: count).joined(separator: ",") + "]}"
    }

    /// The fixture with one top-level member replaced by raw JSON.
    static func appletJSON(replacing key: String, with json: String) throws -> String {
        var object = try #require(try JSONParser().parse(AppletDecodingTests.fixture()).objectValue)
        object[key] = try JSONParser().parse(Data(json.utf8))
        return JSONValue.object(object).serialized()
    }

    static let base = URL(string: "http://127.0.0.1:8080")!

    static func manager(
        _ transport: RecordingTransport, slug: String? = "ifttt_api_example", token: String? = nil,
        invite: String? = nil, log: LogCapture? = nil
    ) -> IFTTTAPIManager {
        let manager = IFTTTAPIManager(
            baseURL: base, transport: transport, anonymousId: "anon-1",
            callbackQueue: nil, logHandler: log?.handler)
        manager.serviceSlug = slug
        manager.userToken = token
        manager.inviteCode = invite
        return manager
    }
}
