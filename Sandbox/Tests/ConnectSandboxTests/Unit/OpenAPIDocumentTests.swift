@testable import ConnectSandbox
import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

/// The sandbox is checked against its OpenAPI document (`Sandbox/openapi.json`): the route table here, the answers by
/// schemathesis (`scripts/checks/68-schemathesis.sh`).
@Suite("The OpenAPI document and the sandbox's routes")
struct OpenAPIDocumentTests {
    /// Routes the sandbox serves that IFTTT's API does not have, each with its reason.
    static let sandboxOnly: [String: String] = [
        "GET /openapi.json": "this document",
        "GET /sandbox/sdk_events": "lists the SDK's analytics events",
        "GET /sandbox/dispatches": "lists what IFTTT would have sent services (runs, trigger tests)",
        "POST /sandbox/reset": "puts the state back to the seed between test runs",
        "GET /connect/{}/complete": "where a Connect URL without redirect_uri ends (IFTTT ends on its own site)",
    ]
    /// Route prefixes outside the API: the activation pages' form steps, the partner's pages, assets, the playground.
    static let otherPrefixes = ["/access/api/{}/", "/partner/", "/assets/", "/playground"]

    static func normalized(_ path: String) -> String {
        path.replacingOccurrences(of: #"\{[^}]*\}"#, with: "{}", options: .regularExpression)
    }

    static func document() throws -> JSONValue {
        let data = try #require(OpenAPIRoutes.document)
        return try JSONValue.decodeSorted(from: data)
    }

    /// "METHOD /path" of every operation of the document.
    static func operations(_ document: JSONValue) throws -> Set<String> {
        let paths = try #require(document["paths"]?.objectValue)
        var out = Set<String>()
        for (path, item) in paths.members {
            for method in ["get", "put", "post", "delete", "patch"] where item[method] != nil {
                out.insert("\(method.uppercased()) \(normalized(path))")
            }
        }
        return out
    }

    static func routes() throws -> Set<String> {
        let store = try SandboxStore(path: SandboxConfiguration.inMemoryDatabasePath)
        let router = SandboxServer.makeRouter(
            environment: RouteEnvironment(store: store, urls: SandboxURLs(), logger: SandboxTest.logger),
            injector: FaultInjector(latency: 0, failRate: 0, seed: 1))
        return Set(router.routes.map { "\($0.method) \(normalized($0.path.description))" })
    }

    @Test func everyDocumentedOperationIsServedAndEveryAPIRouteIsDocumented() throws {
        let documented = try Self.operations(try Self.document())
        let served = try Self.routes()
        #expect(documented.subtracting(served).sorted() == [], "documented but not served")
        let undocumented = served.subtracting(documented).filter { route in
            let path = String(route.drop { $0 != " " }.dropFirst())
            return Self.sandboxOnly[route] == nil && !Self.otherPrefixes.contains { path.hasPrefix($0) }
        }
        #expect(undocumented.sorted() == [], "served but neither documented nor listed as sandbox-only")
        #expect(documented.count >= 27)
    }

    @Test func everyOperationCitesItsSource() throws {
        let document = try Self.document()
        #expect(document["openapi"] == "3.1.0")
        let paths = try #require(document["paths"]?.objectValue)
        for (path, item) in paths.members {
            for method in ["get", "put", "post"] {
                guard let operation = item[method] else { continue }
                let description = operation["description"]?.stringValue ?? ""
                #expect(description.contains("Source: "), "\(method) \(path)")
                #expect(operation["x-source"]?.objectValue?.count ?? 0 > 0, "\(method) \(path)")
                #expect(operation["responses"]?.objectValue?.count ?? 0 > 0, "\(method) \(path)")
            }
        }
    }

    @Test func theSandboxServesTheDocument() async throws {
        try await SandboxTest.withDemo { client in
            let response = try await client.get("/openapi.json")
            #expect(response.status == 200)
            #expect(response.contentType == "application/json; charset=utf-8")
            #expect(response.data == OpenAPIRoutes.document)
        }
        // The committed Sandbox/openapi.json is the bundled document.
        let committed = SandboxTest.repository("Sandbox/openapi.json")
        #expect(try Data(contentsOf: committed) == OpenAPIRoutes.document)
    }
}
