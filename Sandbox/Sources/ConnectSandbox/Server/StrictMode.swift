import Foundation
import Hummingbird

/// The sandbox's strict mode (``SandboxConfiguration/strict``, `ifttt-connect sandbox --strict`): where IFTTT's
/// behaviour is undocumented or known only from one real answer, the lenient default lets more through and strict
/// mode refuses, so partners can test against both (docs/sandbox-differences.md, "Strict mode"):
///
/// * a `null` optional member of a JSON body is 422 (default: treated as absent);
/// * a `skip_config` other than `true` or `false` on the activation pages is a 400 page (default: not skipping);
/// * the token exchange for a partner user linked to no IFTTT user is 401 "Cannot uniquely identify user", the one
///   real answer on record (IFTTT/ConnectSDK-Android issue 233) (default: 404).
enum StrictMode {
    /// Whether the request being answered is in strict mode.
    @TaskLocal static var isOn = false
}

/// Runs every request of a strict sandbox with ``StrictMode/isOn`` set.
struct StrictModeMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        try await StrictMode.$isOn.withValue(true) { try await next(request, context) }
    }
}
