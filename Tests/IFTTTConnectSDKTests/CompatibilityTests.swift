import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
import TestSupport

/// A 2.8 app's class-based credential provider: the token changes when the user logs in.
private final class MutableCredentials: ConnectionCredentialProvider {
    var userToken: String?
    let oauthCode = "oauth-1"
    var inviteCode: String? { nil }
    init(userToken: String?) { self.userToken = userToken }
}

/// Behaviour behind the ConnectSDK-iOS 2.8 shapes (issue 9): the shapes themselves are type-checked as client
/// code by scripts/checks/40-client-compat.sh.
@Suite("ConnectSDK-iOS 2.8 compatibility", .serialized)
struct CompatibilityTests {
    func controller(_ transport: RecordingTransport) -> ConnectionNetworkController {
        ConnectionNetworkController(
            configuration: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
                callbackQueue: nil))
    }

    func response(_ controller: ConnectionNetworkController, _ request: Connection.Request) async -> (
        ConnectionNetworkController.Response, Bool
    ) {
        await withCheckedContinuation { continuation in
            controller.start(request: request) { response in
                // The closure's type already makes it main-actor isolated; check that it really runs there.
                MainActor.assertIsolated("start(request:completion:) must complete on the main actor")
                #if canImport(Darwin)
                continuation.resume(returning: (response, Thread.isMainThread))
                #else
                // Under the Linux test host the main actor's executor need not be the process's first thread.
                continuation.resume(returning: (response, true))
                #endif
            }
        }
    }

    @Test func startRequestCompletesOnTheMainActorWithTheRealStatus() async {
        let body = NetworkControllerTests.connectionBody
        for status in [200, 201, 203] {
            let c = controller(RecordingTransport { _ in HTTPResponse(statusCode: status, body: body) })
            let (response, onMain) = await response(
                c, .fetchConnection(for: "c1", credentialProvider: ConnectionCredentials.anonymous))
            #expect(onMain)
            #expect(response.statusCode == status)
            #expect((try? response.result.get())?.id == "c1")
        }
        let notFound = controller(
            RecordingTransport { _ in
                HTTPResponse(
                    statusCode: 404, body: Data(#"{"type":"error","code":"not_found","message":"Not found"}"#.utf8))
            })
        let (failed, _) = await response(
            notFound, .fetchConnection(for: "c1", credentialProvider: ConnectionCredentials.anonymous))
        #expect(failed.statusCode == 404)
        guard case .failure(let error) = failed.result else {
            Issue.record("404 succeeded")
            return
        }
        #expect(error.statusCode == 404)
        #expect(error.apiCode == "not_found")
        #expect(!error.isAuthenticationFailure)
        if case .genericError(let underlying) = error {
            #expect(
                underlying as? ConnectAPIError
                    == .apiError(statusCode: 404, payload: APIErrorPayload(code: "not_found", message: "Not found")))
        } else {
            Issue.record("expected genericError, got \(error)")
        }
        let offline = controller(RecordingTransport { _ throws(ConnectAPIError) in throw .timedOut })
        let (noResponse, _) = await response(
            offline, .fetchConnection(for: "c1", credentialProvider: ConnectionCredentials.anonymous))
        #expect(noResponse.statusCode == -1)
        #expect((try? noResponse.result.get()) == nil)
    }

    @Test func theControllerCanBeCreatedInsideTheCompletion() async {
        let c = controller(
            RecordingTransport { _ in HTTPResponse(statusCode: 200, body: NetworkControllerTests.connectionBody) })
        // Every path resumes the continuation: a failed fetch fails the expectation below instead of hanging.
        let step: ConnectButtonStep? = await withCheckedContinuation { continuation in
            c.start(request: .fetchConnection(for: "c1", credentialProvider: ConnectionCredentials.anonymous)) {
                response in
                guard case .success(let connection) = response.result else {
                    Issue.record("the fetch failed: \(String(describing: response.result))")
                    continuation.resume(returning: nil)
                    return
                }
                let configuration = ConnectionConfiguration(
                    connection: connection, suggestedUserEmail: "a@example.com",
                    credentialProvider: MutableCredentials(userToken: nil),
                    connectAuthorizationRedirectURL: URL(string: "gx://cb")!)
                let controller = ConnectButtonController(
                    connectButton: HeadlessConnectButton(), connectionConfiguration: configuration,
                    delegate: nil)
                continuation.resume(returning: controller.step)
            }
        }
        #expect(step == .connected)  // the fixture's user_status is enabled
    }

    @Test func urlRequestCarriesTheDocumentedRequestAndStartURLRequestSendsIt() async throws {
        let credentials = MutableCredentials(userToken: "token-1")
        let request = Connection.Request.fetchConnection(for: "gx-arrive-store", credentialProvider: credentials)
        credentials.userToken = "token-2"  // the request keeps the values it was made with
        let urlRequest = request.urlRequest
        #expect(urlRequest.url?.absoluteString == "https://connect.ifttt.com/v2/connections/gx-arrive-store")
        #expect(urlRequest.httpMethod == "GET")
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
        #expect(urlRequest.value(forHTTPHeaderField: "IFTTT-SDK-Version") == SDKInfo.version)
        #expect(urlRequest.value(forHTTPHeaderField: "IFTTT-SDK-Platform") == SDKInfo.platform)
        #expect(request.credentialProvider.userToken == "token-1")
        let disable = Connection.Request.disconnectConnection(with: "gx", credentialProvider: credentials).urlRequest
        #expect(disable.httpMethod == "POST")
        #expect(disable.url?.absoluteString == "https://connect.ifttt.com/v2/connections/gx/disable")
        #expect(disable.value(forHTTPHeaderField: "Authorization") == "Bearer token-2")

        let transport = RecordingTransport { _ in
            HTTPResponse(
                statusCode: 401, body: Data(#"{"type":"error","code":"unauthorized","message":"bad token-1"}"#.utf8))
        }
        let response: ConnectionNetworkController.Response = await withCheckedContinuation { continuation in
            controller(transport).start(urlRequest: urlRequest) { continuation.resume(returning: $0) }
        }
        let sent = try #require(transport.requests.first)
        #expect(sent.url == urlRequest.url)
        #expect(sent.headers["Authorization"] == "Bearer token-1")
        #expect(response.statusCode == 401)
        guard case .failure(let error) = response.result else {
            Issue.record("401 succeeded")
            return
        }
        #expect(error.isAuthenticationFailure)
        #expect(!error.description.contains("token-1"))  // a token the server echoes is redacted
    }

    @Test func connectionsAreEqualByIdAsIn28() throws {
        let enabled = try Connection.decode(from: NetworkControllerTests.connectionBody)
        let text = HostilePayloadTests.valid.replacingOccurrences(of: #""name":"#, with: #""ignored":"x","name":"#)
        let other = try Connection.decode(from: Data(text.utf8))
        #expect(enabled == other)
        #expect(Set([enabled, other]).count == 1)
        #expect(enabled.hasSameContent(as: enabled))
        let renamed = try Connection(
            id: enabled.id, name: "Another name", description: enabled.description, url: enabled.url,
            status: .disabled, services: enabled.services)
        #expect(renamed == enabled)
        #expect(!renamed.hasSameContent(as: enabled))
    }

    @Test func serviceAndFeatureHaveThe28Names() throws {
        let service = Connection.Service(
            id: "grocery_express", name: "Grocery Express", isPrimary: true,
            monochromeIconURL: URL(string: "https://a.example/m.png"))
        #expect(service.templateIconURL.absoluteString == "https://a.example/m.png")
        #expect(service.url.absoluteString == "https://ifttt.com/grocery_express")
        #expect(service.pageURL == nil)
        let feature = Connection.Feature(id: "f", title: "T", description: "D")
        #expect(feature.details == "D")
        let image = Connection.CoverImage(width: 4320, url: URL(string: "https://a.example/c.png")!)
        #expect(image.size == .w2880)
        let connection = try Connection(
            id: "c", name: "N", description: "", url: URL(string: "https://ifttt.com/c")!,
            status: .initial, services: [service],
            coverImages: [
                Connection.CoverImage(width: 480, url: URL(string: "https://a.example/480")!),
                Connection.CoverImage(width: 1440, url: URL(string: "https://a.example/1440")!),
            ])
        #expect(connection.coverImage(size: .w1440)?.url.absoluteString == "https://a.example/1440")
        #expect(connection.coverImage(size: .w720) == nil)
        #expect(connection.coverImage(for: 800, scale: 2)?.width == 1440)  // 1600 px: the test vector of spec §1.5
        #expect(connection.coverImage(for: 300, scale: 1)?.width == 480)
    }

    @Test func errorsKeep28CasesWithTheDetailInside() {
        let detailed = ConnectAPIError.apiError(statusCode: 503, payload: nil)
        let error = ConnectButtonControllerError.networkError(detailed)
        #expect(error == .networkError(ConnectionNetworkError.genericError(detailed)))
        #expect(error.apiError == detailed)
        #expect(
            ConnectButtonControllerError.invalidEmail.apiError
                == .invalidRequest(ConnectButtonControllerError.invalidEmailReason))
        #expect(ConnectButtonControllerError.invalidEmail.description == "The email address is not valid")
        #expect(ConnectionNetworkError(detailed).isRetryable)
        #expect(ConnectionNetworkError.unknownResponse.apiError == nil)
        #expect(NetworkControllerError(.authenticationFailure(nil)).isAuthentication)
        #expect(ConnectionNetworkError(networkControllerError: .cancelled) == .unknownResponse)
        #expect(
            ConnectionNetworkError(networkControllerError: .genericError(detailed)) == ConnectionNetworkError(detailed))
    }

    @Test func localizationLoggingReportsMissingTranslations() {
        let lines = LogCapture()
        ConnectButtonController.localizationLoggingHandler = lines.handler
        defer {
            ConnectButtonController.localizationLoggingEnabled = false
            ConnectButtonController.localizationLoggingHandler = nil
        }
        ConnectButtonController.localizationLoggingEnabled = false
        _ = ConnectLocalization(identifier: "xx-YY").string(.connect)
        #expect(!lines.lines.joined(separator: "\n").contains("xx-YY"))
        ConnectButtonController.localizationLoggingEnabled = true
        _ = ConnectLocalization(identifier: "xx-YY").string(.connect)
        #expect(lines.lines.joined(separator: "\n").contains("no translation for locale 'xx-YY'; using English"))
        _ = ConnectLocalization(identifier: "de").string(.connect)
        #expect(!lines.lines.joined(separator: "\n").contains("no 'de' text"))
    }

    /// The version sent as `IFTTT-SDK-Version` is the top release of CHANGELOG.md.
    @Test func theSDKVersionIsTheChangelogsTopRelease() throws {
        let changelog = try String(contentsOf: Repository.url("CHANGELOG.md"), encoding: .utf8)
        let releases = changelog.split(separator: "\n").filter {
            $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
        }
        let top = try #require(releases.first)
        #expect(
            top.hasPrefix("## [\(SDKInfo.version)] - "),
            "CHANGELOG's top release is \(top), SDKInfo.version is \(SDKInfo.version)")
        #expect(changelog.contains("[\(SDKInfo.version)]: "), "CHANGELOG needs a link for \(SDKInfo.version)")
    }
}

extension NetworkControllerError {
    fileprivate var isAuthentication: Bool {
        if case .authenticationFailure = self { return true }
        return false
    }
}
