import Foundation
import Hummingbird
import NIOConcurrencyHelpers

/// The sandbox's fault injection: a fixed latency and a failure rate for API requests.
///
/// Each API request first waits ``latency`` milliseconds, then draws one number from a shared ``SeededRandom`` (only
/// when the fail rate is above 0); if it is below ``failRate`` the request is answered with 503
/// `service_unavailable`. With the same seed, the n-th API request always gets the same outcome.
final class FaultInjector: Sendable {
    let latency: Int
    let failRate: Double
    let seed: UInt64
    /// The probability that `POST /v1/location_events` refuses an event (see ``rejectsLocationEvent(recordId:)``).
    let rejectLocationEvents: Double
    private let generator: NIOLockedValueBox<SeededRandom>

    init(latency: Int, failRate: Double, seed: UInt64?, rejectLocationEvents: Double = 0) {
        self.latency = latency
        self.failRate = failRate
        self.rejectLocationEvents = rejectLocationEvents
        let seed = seed ?? UInt64.random(in: .min ... .max)
        self.seed = seed
        self.generator = NIOLockedValueBox(SeededRandom(seed: seed))
    }

    /// Whether the next API request should fail. Draws from the generator only when the fail rate is above 0.
    func shouldFail() -> Bool {
        guard failRate > 0 else { return false }
        let draw = generator.withLockedValue { $0.nextUnitDouble() }
        return draw < failRate
    }

    /// Whether a path is part of the API (`/v1/...`, `/v2/...`) and subject to latency and failures.
    static func isAPIPath(_ path: String) -> Bool {
        path.hasPrefix("/v2/") || path.hasPrefix("/v1/")
    }
}

/// Applies a ``FaultInjector`` to API requests: latency first, then the failure draw.
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext
    let injector: FaultInjector

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard FaultInjector.isAPIPath(request.uri.path) else { return try await next(request, context) }
        if injector.latency > 0 {
            try await Task.sleep(for: .milliseconds(injector.latency))
        }
        if injector.shouldFail() {
            throw APIError.serviceUnavailable()
        }
        return try await next(request, context)
    }
}

extension FaultInjector {
    /// Whether `POST /v1/location_events` refuses the event with this record id. A pure function of the seed and
    /// the (upper-cased) record id: the same event is refused on every attempt, and the same seed refuses the same
    /// events in every run.
    func rejectsLocationEvent(recordId: String) -> Bool {
        guard rejectLocationEvents > 0 else { return false }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        for byte in recordId.uppercased().utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var generator = SeededRandom(seed: hash)
        return generator.nextUnitDouble() < rejectLocationEvents
    }
}
