import Foundation

/// The activation attempts that wait for a redirect, shared by every ``ConnectionRedirectHandler`` and
/// ``ConnectButtonController`` of the process.
///
/// A redirect that carries a `state` goes to the attempt with exactly that `state`, at once. A redirect
/// without one goes, only when the attempt allows it (``RedirectStatePolicy/verifyWhenMissing``), through that
/// attempt's ``RedirectVerifier`` first; it finishes the attempt only if the verification passes and the attempt
/// still waits. Each entry is removed by the first redirect it accepts, so a redirect is accepted at most once.
/// An entry registered with an owner disappears when the owner is released.
package final class RedirectRegistry: Sendable {
    /// The registry used unless a test injects its own.
    ///
    /// Process-wide on purpose: ConnectSDK-iOS 2.8's `ConnectionRedirectHandler(redirectURL:)`, created in the
    /// app delegate or scene delegate, has no reference to the ``ConnectButtonController`` waiting for the
    /// redirect, so both must meet in one place the process shares. Controllers take it from
    /// ``ConnectButtonController/Configuration`` (where tests inject their own) and handlers from
    /// `ConnectionRedirectHandler(redirectURL:registry:)`.
    package static let shared = RedirectRegistry()

    /// The most verifications one waiting attempt runs at the same time; further state-less redirects are
    /// refused until one ends (a flood of forged redirects cannot queue unbounded requests).
    static let maximumConcurrentVerifications = 4

    private struct Pending: Sendable {
        let matcher: RedirectURLMatcher
        let nonce: RedirectNonce
        /// `false`: registered without an owner, lives until accepted or cancelled.
        let hasOwner: Bool
        /// The owner, held weakly: the entry is dropped once it is released.
        weak var owner: (AnyObject & Sendable)?
        /// `nil`: a redirect without `state` is refused.
        let verifier: RedirectVerifier?
        let deliver: @Sendable (RedirectOutcome) -> Void
        var verifying = 0

        var isAlive: Bool { !hasOwner || owner != nil }
    }

    private let state = Locked([Pending]())

    /// Starts waiting for a redirect to `matcher`'s URL with `nonce` as its `state`.
    ///
    /// - Parameters:
    ///   - matcher: The redirect URL.
    ///   - nonce: The `state` the attempt sent.
    ///   - owner: When given, the entry is dropped once `owner` is released (held weakly).
    ///   - verifier: When given, a redirect without `state` may finish the attempt after passing it.
    ///   - deliver: Receives the accepted outcome, once.
    func register(
        _ matcher: RedirectURLMatcher, nonce: RedirectNonce, owner: (AnyObject & Sendable)? = nil,
        verifier: RedirectVerifier? = nil,
        deliver: @escaping @Sendable (RedirectOutcome) -> Void
    ) {
        state.withLock { pending in
            Self.prune(&pending)
            pending.removeAll { $0.nonce == nonce }
            pending.append(
                Pending(
                    matcher: matcher, nonce: nonce, hasOwner: owner != nil, owner: owner, verifier: verifier,
                    deliver: deliver))
        }
    }

    /// Stops waiting for `nonce`.
    func cancel(_ nonce: RedirectNonce) {
        state.withLock { $0.removeAll { $0.nonce == nonce } }
    }

    /// Whether an attempt waits for `nonce`.
    func isWaiting(for nonce: RedirectNonce) -> Bool {
        state.withLock { pending in
            Self.prune(&pending)
            return pending.contains { $0.nonce == nonce }
        }
    }

    /// How many attempts wait.
    var count: Int {
        state.withLock { pending in
            Self.prune(&pending)
            return pending.count
        }
    }

    /// Accepts `url` when it is a redirect to `matcher`'s URL whose `state` belongs to a waiting attempt for
    /// that same URL; see ``submit(_:for:verdict:)`` for redirects without `state`.
    func accept(_ url: URL, for matcher: RedirectURLMatcher) -> Bool {
        submit(url, for: matcher) { _ in }
    }

    /// Hands `url` to the attempt waiting for it.
    ///
    /// - Returns: `true` when the redirect was taken: delivered at once (its `state` matched), or handed to
    ///   verification (no `state`, and an attempt for this URL allows that); `false` with nothing changed
    ///   otherwise.
    /// - Parameter verdict: Called exactly once with whether the redirect finished an attempt: before this
    ///   method returns, except for a redirect under verification, where it is called when verification ends.
    @discardableResult
    func submit(_ url: URL, for matcher: RedirectURLMatcher, verdict: @escaping @Sendable (Bool) -> Void) -> Bool {
        guard let candidate = matcher.candidate(for: url) else {
            verdict(false)
            return false
        }
        guard let state = candidate.state else {
            return submitWithoutState(candidate.outcome, for: matcher, verdict: verdict)
        }
        let deliver: (@Sendable (RedirectOutcome) -> Void)? = self.state.withLock { pending in
            Self.prune(&pending)
            var found: Int?
            for (index, entry) in pending.enumerated() where entry.matcher == matcher {
                // Compare with every entry so the time taken does not depend on which one matches.
                if entry.nonce.matches(state) { found = index }
            }
            guard let found else { return nil }
            return pending.remove(at: found).deliver
        }
        guard let deliver else {
            verdict(false)
            return false
        }
        deliver(candidate.outcome)
        verdict(true)
        return true
    }

    // MARK: - Without state

    private func submitWithoutState(
        _ outcome: RedirectOutcome, for matcher: RedirectURLMatcher,
        verdict: @escaping @Sendable (Bool) -> Void
    ) -> Bool {
        /// What the locked part decided: refuse, deliver at once, or verify.
        enum Decision {
            case refuse
            case deliver(@Sendable (RedirectOutcome) -> Void)
            case verify([(RedirectNonce, RedirectVerifier)], busy: [RedirectVerifier])
        }
        let decision: Decision = state.withLock { pending in
            Self.prune(&pending)
            let eligible = pending.indices.filter { pending[$0].matcher == matcher && pending[$0].verifier != nil }
            guard !eligible.isEmpty else { return .refuse }
            guard case .complete = outcome else {
                // `error` and `user_cancelled_configuration` carry nothing to verify. They can only end a flow
                // (never hand over a token), so a lone waiting attempt takes them; with several, it is ambiguous.
                return eligible.count == 1 ? .deliver(pending.remove(at: eligible[0]).deliver) : .refuse
            }
            var jobs: [(RedirectNonce, RedirectVerifier)] = []
            for index in eligible where pending[index].verifying < Self.maximumConcurrentVerifications {
                pending[index].verifying += 1
                if let verifier = pending[index].verifier { jobs.append((pending[index].nonce, verifier)) }
            }
            return .verify(jobs, busy: jobs.isEmpty ? eligible.compactMap { pending[$0].verifier } : [])
        }
        let jobs: [(RedirectNonce, RedirectVerifier)]
        let busy: [RedirectVerifier]
        switch decision {
        case .refuse:
            verdict(false)
            return false
        case .deliver(let deliver):
            deliver(outcome)
            verdict(true)
            return true
        case .verify(let verifying, let waiting):
            jobs = verifying
            busy = waiting
        }
        guard !jobs.isEmpty else {
            for handler in busy {
                handler.log("a redirect without state was refused: too many verifications in progress")
            }
            verdict(false)
            return false
        }
        Task { [self] in
            var accepted = false
            for (nonce, verifier) in jobs {
                let refusal = accepted ? nil : await verifier.verify(outcome)
                let deliver: (@Sendable (RedirectOutcome) -> Void)? = state.withLock { pending in
                    guard let index = pending.firstIndex(where: { $0.nonce == nonce }) else { return nil }
                    pending[index].verifying -= 1
                    guard !accepted, refusal == nil, pending[index].isAlive else { return nil }
                    return pending.remove(at: index).deliver
                }
                if let refusal, !accepted { verifier.log("a redirect without state was refused: \(refusal.rawValue)") }
                if refusal == nil, !accepted, deliver == nil {
                    verifier.log("a verified redirect without state came after the flow stopped waiting")
                }
                if let deliver {
                    accepted = true
                    deliver(outcome)
                }
            }
            verdict(accepted)
        }
        return true
    }

    /// Drops the entries whose owner was released, from the locked state.
    private static func prune(_ pending: inout [Pending]) {
        pending.removeAll { !$0.isAlive }
    }
}
