import Foundation
import NIOConcurrencyHelpers

/// Refuses sign-in attempts after too many wrong passwords, counted so that nobody can lock out an account that is
/// not under attack (issue 30, hole 3). In memory, per sandbox process.
///
/// The source of an attempt is who sends it (``RequestSource``: the local user owning the socket, or the client's
/// address). Three counts, each over its own window:
///
/// * **Per account and source**: after ``maximumFailures`` wrong passwords for one account from one source within
///   ``window``, that source's attempts for that account are refused, even with the right password. The account's
///   owner signing in from another source is not affected. The account is the one the identifier names: its
///   e-mail address and its login share one count.
/// * **Per account** (a distributed guess at one account): after ``maximumAccountFailures`` wrong passwords from
///   every source within ``window``, the account refuses attempts until the window of the oldest has passed. Only
///   an account someone guesses at is ever refused.
/// * **Per source** (password spraying: one guess for each of many accounts): after ``maximumSourceFailures`` wrong
///   passwords from one source within ``sprayWindow``, that source's attempts are refused; every other source signs
///   in as before. (The former overall count refused every user's right password once anyone had sent 100 wrong
///   ones.)
///
/// An identifier that names no account counts exactly like an account (``key(account:identifier:)``): after
/// ``maximumFailures`` wrong passwords it is refused too, so the answers (401, then 429) do not tell whether an
/// account exists, at any count.
///
/// Memory is bounded without forgetting a live count of an account: each list keeps at most the failures its limit
/// needs, old failures expire, at most ``maximumUnknownIdentifiers`` identifiers that name no account are tracked
/// (the ones whose last failure is oldest go first; accounts are never evicted), and at most ``maximumSources``
/// sources are tracked (the ones whose last failure is oldest go first).
final class SignInThrottle: Sendable {
    /// Failures allowed per account and source within ``window``.
    static let maximumFailures = 5
    /// Failures allowed per account from all sources within ``window``.
    static let maximumAccountFailures = 100
    /// The per-account window, in seconds.
    static let window: TimeInterval = 15 * 60
    /// Failures allowed per source within ``sprayWindow``, over every account and identifier.
    static let maximumSourceFailures = 100
    /// The per-source window, in seconds.
    static let sprayWindow: TimeInterval = 60
    /// How many sources are tracked at most.
    static let maximumSources = 10_000
    /// How many identifiers that name no account are tracked at most.
    static let maximumUnknownIdentifiers = 10_000
    /// The prefix of the key of an identifier that names no account.
    private static let unknownPrefix = "?"

    /// What an attempt counts against: the account's id, or, when the identifier names none, the identifier itself
    /// (trimmed, case-insensitive), so a guesser sees the same answers for both.
    static func key(account: String?, identifier: String) -> String {
        account ?? unknownPrefix + identifier.trimmingCharacters(in: .whitespaces).lowercased()
    }

    private struct State {
        /// Per account: the failures' times and sources, oldest first; at most ``maximumAccountFailures``.
        var accounts: [String: [(Date, String)]] = [:]
        /// Per source: the failures' times, oldest first; at most ``maximumSourceFailures``.
        var sources: [String: [Date]] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Whether an attempt from `source` may go ahead now for `account` (the account's id; `nil` when the identifier
    /// names none).
    func allows(account: String?, source: String, now: Date) -> Bool {
        state.withLockedValue { state in
            Self.prune(&state, now: now)
            guard (state.sources[source]?.count ?? 0) < Self.maximumSourceFailures else { return false }
            guard let account, let failures = state.accounts[account] else { return true }
            guard failures.count < Self.maximumAccountFailures else { return false }
            return failures.filter { $0.1 == source }.count < Self.maximumFailures
        }
    }

    /// Records a wrong password from `source` for `account` (`nil`: the identifier names no account).
    func recordFailure(account: String?, source: String, now: Date) {
        state.withLockedValue { state in
            Self.prune(&state, now: now)
            if state.sources[source] == nil, state.sources.count >= Self.maximumSources,
                let oldest = state.sources.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })
            {
                state.sources.removeValue(forKey: oldest.key)
            }
            state.sources[source, default: []].append(now)
            if state.sources[source]!.count > Self.maximumSourceFailures { state.sources[source]!.removeFirst() }
            if let account {
                if account.hasPrefix(Self.unknownPrefix), state.accounts[account] == nil {
                    let unknown = state.accounts.filter { $0.key.hasPrefix(Self.unknownPrefix) }
                    if unknown.count >= Self.maximumUnknownIdentifiers,
                        let oldest = unknown.min(by: { ($0.value.last?.0 ?? now) < ($1.value.last?.0 ?? now) })
                    {
                        state.accounts.removeValue(forKey: oldest.key)
                    }
                }
                state.accounts[account, default: []].append((now, source))
                if state.accounts[account]!.count > Self.maximumAccountFailures {
                    state.accounts[account]!.removeFirst()
                }
            }
        }
    }

    /// Forgets the failures of `account` from `source` (after that source signed in with the right password); the
    /// other sources' failures and the per-source counts keep them.
    func reset(account: String, source: String) {
        state.withLockedValue { state in
            guard let failures = state.accounts[account] else { return }
            let kept = failures.filter { $0.1 != source }
            state.accounts[account] = kept.isEmpty ? nil : kept
        }
    }

    /// How many accounts have failures on record (tests of the memory bound).
    var trackedAccounts: Int { state.withLockedValue { $0.accounts.count } }

    private static func prune(_ state: inout State, now: Date) {
        for (source, times) in state.sources {
            let live = times.drop { now.timeIntervalSince($0) >= sprayWindow }
            if live.count != times.count { state.sources[source] = live.isEmpty ? nil : Array(live) }
        }
        for (account, failures) in state.accounts {
            let live = failures.drop { now.timeIntervalSince($0.0) >= window }
            if live.count != failures.count { state.accounts[account] = live.isEmpty ? nil : Array(live) }
        }
    }
}
