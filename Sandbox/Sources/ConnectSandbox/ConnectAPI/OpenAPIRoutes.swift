import Foundation
import Hummingbird

/// `GET /openapi.json`: the OpenAPI 3.1 document of the Connect API as IFTTT documents it
/// (`Sandbox/openapi.json`, bundled as `Resources/openapi.json`), which the sandbox conforms to: the route table is
/// checked against it in the tests and its responses by schemathesis (`scripts/checks/68-schemathesis.sh`).
struct OpenAPIRoutes: SandboxRoutes {
    /// The document's bytes, read once from the bundle.
    static let document: Data? = Bundle.module.url(
        forResource: "openapi", withExtension: "json", subdirectory: "Resources"
    ).flatMap { try? Data(contentsOf: $0) }

    func register(on router: SandboxRouter) {
        router.get("/openapi.json") { _, _ in
            guard let document = Self.document else {
                throw APIError.internalError("The OpenAPI document is missing from the sandbox's resources.")
            }
            return JSONResponse.make(serialized: document)
        }
    }
}
