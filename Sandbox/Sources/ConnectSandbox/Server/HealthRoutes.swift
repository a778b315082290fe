import Foundation
import Hummingbird

/// `GET /health` → `{"status":"ok"}`. Never delayed or failed by fault injection.
struct HealthRoutes: SandboxRoutes {
    func register(on router: SandboxRouter) {
        router.get("/health") { _, _ in
            JSONResponse.make(["status": "ok"])
        }
    }
}
