import Foundation

/// The activation attempts that wait for a redirect, shared by every ``ConnectionRedirectHandler`` and
/// ``ConnectButtonController`` of the process. Each entry is removed by the first redirect that carries its
/// `state`, so a redirect is accepted at most once.
final class RedirectRegistry: @unchecked Sendable {
    /// The registry used unless a test injects its own.
    static let shared = RedirectRegistry()

    private struct Pending {
        let matcher: RedirectURLMatcher
        let nonce: RedirectNonce
        let deliver: @Sendable (RedirectOutcome) -> Void
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var pending: [Pending] = []

    /// Starts waiting for a redirect to `matcher`'s URL with `nonce` as its `state`.
    func register(_ matcher: RedirectURLMatcher, nonce: RedirectNonce, deliver: @escaping @Sendable (RedirectOutcome) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        pending.removeAll { $0.nonce == nonce }
        pending.append(Pending(matcher: matcher, nonce: nonce, deliver: deliver))
    }

    /// Stops waiting for `nonce`.
    func cancel(_ nonce: RedirectNonce) {
        lock.lock()
        defer { lock.unlock() }
        pending.removeAll { $0.nonce == nonce }
    }

    /// Whether an attempt waits for `nonce`.
    func isWaiting(for nonce: RedirectNonce) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return pending.contains { $0.nonce == nonce }
    }

    /// How many attempts wait.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return pending.count
    }

    /// Accepts `url` when it is a redirect to `matcher`'s URL whose `state` belongs to a waiting attempt for
    /// that same URL. The attempt stops waiting and receives the outcome; anything else returns `false` and
    /// changes nothing.
    func accept(_ url: URL, for matcher: RedirectURLMatcher) -> Bool {
        guard let candidate = matcher.candidate(for: url) else { return false }
        let deliver: (@Sendable (RedirectOutcome) -> Void)?
        lock.lock()
        var found: Int?
        for (index, entry) in pending.enumerated() where entry.matcher == matcher {
            // Compare with every entry so the time taken does not depend on which one matches.
            if entry.nonce.matches(candidate.state) { found = index }
        }
        if let found {
            deliver = pending.remove(at: found).deliver
        } else {
            deliver = nil
        }
        lock.unlock()
        guard let deliver else { return false }
        deliver(candidate.outcome)
        return true
    }
}
