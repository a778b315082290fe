import Foundation
import NIOConcurrencyHelpers

/// Refuses sign-in attempts after too many wrong passwords, per account and overall. In memory, per sandbox process.
///
/// * **Per account**: after ``maximumFailures`` wrong passwords for one account within ``window``, every attempt
///   for that account is refused (even with the right password) until the window of the first failure has passed.
///   The account is the one the identifier names: its e-mail address and its login share one count.
/// * **Overall** (password spraying: one guess for each of many accounts): after ``maximumSprayFailures`` wrong
///   passwords within ``sprayWindow``, for any accounts or for identifiers that name none, every attempt is refused
///   until the oldest of them leaves the window.
///
/// Memory is bounded without ever forgetting a live count: counts are kept only for accounts that exist (junk
/// identifiers count overall only), old failures expire, and the overall count keeps at most
/// ``maximumSprayFailures`` timestamps.
final class SignInThrottle: Sendable {
    /// Failures allowed per account within ``window``.
    static let maximumFailures = 5
    /// The per-account window, in seconds.
    static let window: TimeInterval = 15 * 60
    /// Failures allowed within ``sprayWindow``, over every account and identifier.
    static let maximumSprayFailures = 100
    /// The overall window, in seconds.
    static let sprayWindow: TimeInterval = 60

    private struct State {
        var accounts: [String: [Date]] = [:]
        /// The times of the most recent failures, oldest first; at most ``maximumSprayFailures``.
        var recent: [Date] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Whether an attempt may go ahead now for `account` (the account's id; `nil` when the identifier names none).
    func allows(account: String?, now: Date) -> Bool {
        state.withLockedValue { state in
            Self.prune(&state, now: now)
            guard state.recent.count < Self.maximumSprayFailures else { return false }
            guard let account else { return true }
            return (state.accounts[account]?.count ?? 0) < Self.maximumFailures
        }
    }

    /// Records a wrong password for `account` (`nil`: the identifier names no account).
    func recordFailure(account: String?, now: Date) {
        state.withLockedValue { state in
            Self.prune(&state, now: now)
            state.recent.append(now)
            if state.recent.count > Self.maximumSprayFailures { state.recent.removeFirst() }
            if let account { state.accounts[account, default: []].append(now) }
        }
    }

    /// Forgets the failures of `account` (after a successful sign-in); the overall count keeps them.
    func reset(account: String) {
        _ = state.withLockedValue { $0.accounts.removeValue(forKey: account) }
    }

    /// How many accounts have failures on record (tests of the memory bound).
    var trackedAccounts: Int { state.withLockedValue { $0.accounts.count } }

    private static func prune(_ state: inout State, now: Date) {
        if let index = state.recent.firstIndex(where: { now.timeIntervalSince($0) < sprayWindow }) {
            if index > 0 { state.recent.removeFirst(index) }
        } else {
            state.recent.removeAll()
        }
        for (account, times) in state.accounts {
            let live = times.filter { now.timeIntervalSince($0) < window }
            if live.count != times.count { state.accounts[account] = live.isEmpty ? nil : live }
        }
    }
}
