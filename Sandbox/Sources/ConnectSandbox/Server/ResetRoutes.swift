import Foundation
import Hummingbird

/// `POST /sandbox/reset` with a service key (`IFTTT-Service-Key`): puts the whole state back to the seed the sandbox
/// started with (the demo seed, then the seed file), in one transaction, and answers
/// `{"type":"sandbox_reset","elapsed_ms":N}`. A test suite calls it between tests instead of restarting the sandbox.
/// Without a valid service key: 401, and nothing changes. A sandbox-only route: IFTTT has nothing like it.
struct ResetRoutes: SandboxRoutes {
    let env: RouteEnvironment
    /// What the sandbox loaded at start, in order.
    let seeds: [(seed: SeedData, source: String)]

    func register(on router: SandboxRouter) {
        let env = self.env
        let seeds = self.seeds
        router.post("/sandbox/reset") { request, _ in
            let principal = try await env.authenticator.authenticate(request, policy: .serviceOnly)
            let start = ContinuousClock.now
            try await env.store.reset(to: seeds)
            let elapsed = ContinuousClock.now - start
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            env.logger.info(
                "Reset the state to the seed for service \(principal.service?.id ?? "?") in \(Int(milliseconds)) ms")
            return JSONResponse.make([
                "type": "sandbox_reset", "elapsed_ms": .number((milliseconds * 10).rounded() / 10),
            ])
        }
    }
}
