import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
@_spi(Sandbox) @testable import IFTTTSDK
import Testing

/// Runs the examples of UsingTheAppletsAPI.md against a fake transport (a fresh manager stands in for
/// `IFTTTAPIManager.shared`, so parallel tests are unaffected).
@Suite("Applets API documentation examples")
struct DocumentationExampleTests {
    @Test func theArticleExamplesWork() async throws {
        let enabled = try LegacyFixtures.appletJSON(replacing: "user_status", with: #""enabled""#)
        let transport = RecordingTransport { request throws(ConnectAPIError) in
            if request.url.path.hasSuffix("/applets") {
                return HTTPResponse(statusCode: 200, body: Data(#"{"type":"list","data":[\#(enabled)]}"#.utf8))
            }
            return HTTPResponse(
                statusCode: 200,
                body: Data(
                    enabled.replacingOccurrences(
                        of: #""user_status":"enabled""#, with: #""user_status":"disabled""#
                    ).utf8))
        }
        let tokenFromYourBackend = "user-token"
        let manager = IFTTTAPIManager(
            baseURL: URL(string: "http://127.0.0.1:8080")!, transport: transport,
            anonymousId: "anon", callbackQueue: nil)

        // Configure
        manager.serviceSlug = "ifttt_api_example"
        manager.inviteCode = "21790-7d53f29b1eaca0bdc5bd6ad24b8f4e1c"
        manager.userToken = tokenFromYourBackend

        // List and show Applets
        let applets = try await manager.fetchApplets(order: .enabledCountDescending, platform: .ios)
        for applet in applets {
            let brand = applet.secondaryServices.first ?? applet.primaryService
            print(applet.name, applet.status, brand.name, brand.brandColor?.hex ?? "")
        }
        let fetched = await withCheckedContinuation { continuation in
            manager.fetchApplet(id: "aVxGRrtD") { result in
                switch result {
                case .success(let applet): print(applet.status)
                case .failure(let error): print(error)
                }
                continuation.resume(returning: result)
            }
        }
        #expect(try fetched.get().id == "aVxGRrtD")

        // Activate on the web
        let applet = try #require(applets.first)
        let url = try manager.embeddedURL(
            for: applet,
            callbackURL: URL(string: "ifttt-api-example://sdk-callback")!,
            email: "alice+ifttt@example.com",
            userId: "alice")
        #expect(
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.last?.value
                == "alice+ifttt@example.com")

        // Turn an activated Applet on or off
        if applet.status == .enabled || applet.status == .disabled {
            let updated = try await manager.setStatus(applet.status != .enabled, forAppletId: applet.id)
            #expect(updated.status == .disabled)
        }
        #expect(transport.requests.map(\.method) == ["GET", "GET", "POST"])
        #expect(transport.requests.last?.url.path == "/v1/services/ifttt_api_example/applets/aVxGRrtD/disable")
    }
}
