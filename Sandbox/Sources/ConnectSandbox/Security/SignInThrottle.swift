import Foundation
import NIOConcurrencyHelpers

/// Refuses sign-in attempts for an identifier after too many failures: after ``maximumFailures`` wrong passwords
/// within ``window``, every attempt for that identifier (even with the right password) is refused until the window
/// of the first failure has passed. In memory, per sandbox process.
final class SignInThrottle: Sendable {
    /// Failures allowed within ``window``.
    static let maximumFailures = 5
    /// The window, in seconds.
    static let window: TimeInterval = 15 * 60

    private let failures = NIOLockedValueBox<[String: [Date]]>([:])

    /// Whether an attempt for `identifier` may go ahead now.
    func allows(_ identifier: String, now: Date = Date()) -> Bool {
        let key = identifier.lowercased()
        return failures.withLockedValue { table in
            let recent = (table[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
            table[key] = recent.isEmpty ? nil : recent
            return recent.count < Self.maximumFailures
        }
    }

    /// Records a wrong password for `identifier`.
    func recordFailure(_ identifier: String, now: Date = Date()) {
        let key = identifier.lowercased()
        failures.withLockedValue { table in
            if table.count > 10_000 { table.removeAll() }  // bounded memory; a reset only helps a guesser briefly
            table[key, default: []].append(now)
        }
    }

    /// Forgets the failures of `identifier` (after a successful sign-in).
    func reset(_ identifier: String) {
        _ = failures.withLockedValue { $0.removeValue(forKey: identifier.lowercased()) }
    }
}
