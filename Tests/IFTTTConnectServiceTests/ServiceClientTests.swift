import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectService
import Testing

@Suite("ConnectServiceClient guards the service key")
struct ServiceClientTests {
    @Test(arguments: ["http://example.com/v2", "http://10.0.0.1/v2", "http://127.evil.com/v2", "ftp://127.0.0.1/v2"])
    func refusesInsecureHosts(url: String) {
        #expect(throws: ConnectServiceClient.Error.self) {
            try ConnectServiceClient(serviceKey: "key-123456", baseURL: URL(string: url)!)
        }
    }

    @Test(arguments: [
        "https://connect.ifttt.com/v2", "http://127.0.0.1:8080/v2", "http://localhost:1/v2", "http://[::1]:9/v2",
    ])
    func acceptsHTTPSAndLoopback(url: String) throws {
        let client = try ConnectServiceClient(serviceKey: "key-123456", baseURL: URL(string: url)!)
        #expect(!String(describing: client).contains("key-123456"))
    }

    @Test func emptyKeyIsRefused() {
        #expect(throws: ConnectServiceClient.Error.missingServiceKey) { try ConnectServiceClient(serviceKey: "") }
    }
}
