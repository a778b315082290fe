import Foundation

/// The activation attempts that wait for a redirect, shared by every ``ConnectionRedirectHandler`` and
/// ``ConnectButtonController`` of the process.
///
/// A redirect that carries a `state` goes to the attempt with exactly that `state`; one without goes to the
/// attempts whose policy allows it (``RedirectStatePolicy/verifyWhenMissing``). `error` and
/// `user_cancelled_configuration` carry no token and end the attempt at once (without `state`, only when a single
/// attempt waits). A `complete` redirect, with or without `state`, finishes the attempt only once the attempt's
/// ``RedirectVerifier`` accepted it, and then with the token the verifier chose:
///
/// - **Signal checks** (a voucher decides, whatever the redirect carried): while one runs, every redirect that
///   arrives waits for the next, which starts as soon as the running one ends. At most one runs per attempt and
///   each redirect is answered by a check that started after it arrived, so a flood of junk only makes the next
///   check happen: the genuine redirect's check cannot be crowded out.
/// - **Redirect-token checks** (no voucher): one per distinct token, at most ``maximumConcurrentVerifications``
///   at a time per attempt; the others wait in arrival order, redirects with the attempt's `state` first, up to
///   ``maximumWaitingRedirects`` (the loopback receiver serves far fewer connections at a time). A redirect that
///   must wait is kept, not refused.
///
/// Each entry is removed by the first redirect it accepts, so at most one redirect finishes an attempt. An entry
/// registered with an owner disappears when the owner is released. Every verdict is given exactly once.
package final class RedirectRegistry: Sendable {
    /// The registry used unless a test injects its own.
    ///
    /// Process-wide on purpose: ConnectSDK-iOS 2.8's `ConnectionRedirectHandler(redirectURL:)`, created in the
    /// app delegate or scene delegate, has no reference to the ``ConnectButtonController`` waiting for the
    /// redirect, so both must meet in one place the process shares. Controllers take it from
    /// ``ConnectButtonController/Configuration`` (where tests inject their own) and handlers from
    /// `ConnectionRedirectHandler(redirectURL:registry:)`.
    package static let shared = RedirectRegistry()

    /// The most redirect-token checks one waiting attempt runs at the same time.
    static let maximumConcurrentVerifications = 4
    /// The most redirects one attempt keeps for redirect-token checks (running or waiting); beyond, a redirect
    /// with a new token is refused.
    static let maximumWaitingRedirects = 64

    /// Receives whether a redirect finished an attempt (a signal that arrived while the successful check ran
    /// counts as finishing it: its own check would have given the same answer).
    typealias Verdict = @Sendable (Bool) -> Void

    /// A redirect kept for a redirect-token check, with the verdicts of every redirect that carried its token.
    private struct Candidate: Sendable {
        let token: String
        let outcome: RedirectOutcome
        let carriesState: Bool
        var verdicts: [Verdict]
        var started = false
    }

    private struct Pending: Sendable {
        let matcher: RedirectURLMatcher
        let nonce: RedirectNonce
        /// `false`: registered without an owner, lives until accepted or cancelled.
        let hasOwner: Bool
        /// The owner, held weakly: the entry is dropped once it is released.
        weak var owner: (AnyObject & Sendable)?
        let verifier: RedirectVerifier
        /// Whether a redirect without `state` is considered.
        let acceptsWithoutState: Bool
        let deliver: @Sendable (RedirectOutcome) -> Void
        /// Signal checks: whether one runs, and the redirects waiting for the next one.
        var checking = false
        var signals: [Verdict] = []
        /// The distinct tokens of the redirects waiting for the next signal check (those with the attempt's `state`
        /// first), at most ``RedirectVerifier/maximumLinkTokens``: the check presents them to complete the partner
        /// link the attempt's URL code claimed.
        var signalTokens: [String] = []
        /// Redirect-token checks: the kept redirects in order, and how many checks run.
        var candidates: [Candidate] = []
        var running = 0

        var isAlive: Bool { !hasOwner || owner != nil }
        /// The verdicts still waiting on this entry (not those of a signal check already running).
        var waitingVerdicts: [Verdict] { signals + candidates.flatMap(\.verdicts) }
    }

    /// What a locked section decided, done once the lock is released.
    private struct Actions {
        var verdicts: [(Verdict, Bool)] = []
        var deliveries: [(@Sendable (RedirectOutcome) -> Void, RedirectOutcome)] = []
        var signalChecks: [(RedirectNonce, RedirectVerifier)] = []
        var tokenChecks: [(RedirectNonce, RedirectVerifier)] = []
        var logs: [(RedirectVerifier, String)] = []

        mutating func refuse(_ verdicts: [Verdict]) {
            self.verdicts += verdicts.map { ($0, false) }
        }
    }

    private let state = Locked([Pending]())

    /// Starts waiting for a redirect to `matcher`'s URL with `nonce` as its `state`.
    ///
    /// - Parameters:
    ///   - matcher: The redirect URL.
    ///   - nonce: The `state` the attempt sent.
    ///   - owner: When given, the entry is dropped once `owner` is released (held weakly).
    ///   - verifier: Decides whether a `complete` redirect finishes the attempt, and with which token.
    ///   - acceptsWithoutState: Whether a redirect without `state` is considered.
    ///   - deliver: Receives the accepted outcome, once.
    func register(
        _ matcher: RedirectURLMatcher, nonce: RedirectNonce, owner: (AnyObject & Sendable)? = nil,
        verifier: RedirectVerifier, acceptsWithoutState: Bool = true,
        deliver: @escaping @Sendable (RedirectOutcome) -> Void
    ) {
        let actions = state.withLock { pending in
            var actions = Actions()
            Self.prune(&pending, &actions)
            if let index = pending.firstIndex(where: { $0.nonce == nonce }) {
                actions.refuse(pending.remove(at: index).waitingVerdicts)
            }
            pending.append(
                Pending(
                    matcher: matcher, nonce: nonce, hasOwner: owner != nil, owner: owner, verifier: verifier,
                    acceptsWithoutState: acceptsWithoutState, deliver: deliver))
            return actions
        }
        perform(actions)
    }

    /// Stops waiting for `nonce`; redirects still waiting for a check are refused.
    func cancel(_ nonce: RedirectNonce) {
        let actions = state.withLock { pending in
            var actions = Actions()
            if let index = pending.firstIndex(where: { $0.nonce == nonce }) {
                actions.refuse(pending.remove(at: index).waitingVerdicts)
            }
            return actions
        }
        perform(actions)
    }

    /// Whether an attempt waits for `nonce`.
    func isWaiting(for nonce: RedirectNonce) -> Bool {
        let (waiting, actions) = state.withLock { pending in
            var actions = Actions()
            Self.prune(&pending, &actions)
            return (pending.contains { $0.nonce == nonce }, actions)
        }
        perform(actions)
        return waiting
    }

    /// How many attempts wait.
    var count: Int {
        let (count, actions) = state.withLock { pending in
            var actions = Actions()
            Self.prune(&pending, &actions)
            return (pending.count, actions)
        }
        perform(actions)
        return count
    }

    /// Accepts `url` when it is a redirect to `matcher`'s URL that an attempt waiting for that URL takes; see
    /// ``submit(_:for:verdict:)``.
    func accept(_ url: URL, for matcher: RedirectURLMatcher) -> Bool {
        submit(url, for: matcher) { _ in }
    }

    /// Hands `url` to the attempt waiting for it.
    ///
    /// - Returns: `true` when the redirect was taken: delivered at once (`error` or `user_cancelled_configuration`),
    ///   or kept for a check (`complete`); `false` with nothing changed otherwise.
    /// - Parameter verdict: Called exactly once with whether the redirect finished an attempt: before this method
    ///   returns when it is not taken or delivered at once, else when its check ends.
    @discardableResult
    func submit(_ url: URL, for matcher: RedirectURLMatcher, verdict: @escaping Verdict) -> Bool {
        submit(matcher.candidate(for: url), for: matcher, verdict: verdict)
    }

    /// Hands a redirect held as text to the attempt waiting for it; the text is checked as written
    /// (``RedirectURLMatcher/candidate(forText:)``). Otherwise the same as ``submit(_:for:verdict:)``.
    @discardableResult
    func submit(text: String, for matcher: RedirectURLMatcher, verdict: @escaping Verdict) -> Bool {
        submit(matcher.candidate(forText: text), for: matcher, verdict: verdict)
    }

    private func submit(
        _ candidate: RedirectURLMatcher.Candidate?, for matcher: RedirectURLMatcher, verdict: @escaping Verdict
    ) -> Bool {
        guard let candidate else {
            verdict(false)
            return false
        }
        let (taken, actions) = state.withLock { pending in
            var actions = Actions()
            Self.prune(&pending, &actions)
            let taken = Self.route(candidate, for: matcher, verdict: verdict, in: &pending, &actions)
            return (taken, actions)
        }
        if !taken { verdict(false) }
        perform(actions)
        return taken
    }

    // MARK: - Routing (under the lock)

    /// Finds the attempts `candidate` is for and hands it to them; `false` when none takes it.
    private static func route(
        _ candidate: RedirectURLMatcher.Candidate, for matcher: RedirectURLMatcher, verdict: @escaping Verdict,
        in pending: inout [Pending], _ actions: inout Actions
    ) -> Bool {
        let targets: [Int]
        if let state = candidate.state {
            var found: Int?
            for (index, entry) in pending.enumerated() where entry.matcher == matcher {
                // Compare with every entry so the time taken does not depend on which one matches.
                if entry.nonce.matches(state) { found = index }
            }
            targets = found.map { [$0] } ?? []
        } else {
            targets = pending.indices.filter { pending[$0].matcher == matcher && pending[$0].acceptsWithoutState }
        }
        guard !targets.isEmpty else { return false }
        guard case .complete = candidate.outcome else {
            // `error` and `user_cancelled_configuration` carry nothing to check. They can only end a flow (never
            // hand over a token), so the attempt they name, or a lone waiting attempt, takes them.
            guard targets.count == 1 else { return false }
            let entry = pending.remove(at: targets[0])
            actions.refuse(entry.waitingVerdicts)
            actions.deliveries.append((entry.deliver, candidate.outcome))
            actions.verdicts.append((verdict, true))
            return true
        }
        let answer: Verdict
        if targets.count == 1 {
            answer = verdict
        } else {
            let join = VerdictJoin(count: targets.count, verdict)
            answer = { join.report($0) }
        }
        var refused = 0
        for index in targets {
            let held = hold(
                candidate, withState: candidate.state != nil, verdict: answer, in: &pending[index], &actions)
            if !held { refused += 1 }
        }
        guard refused < targets.count else { return false }  // not taken: the caller gives the one verdict
        actions.verdicts += Array(repeating: (answer, false), count: refused)
        return true
    }

    /// Keeps a `complete` redirect for the entry's next check; `false` when it is refused at once.
    private static func hold(
        _ candidate: RedirectURLMatcher.Candidate, withState: Bool, verdict: @escaping Verdict,
        in entry: inout Pending, _ actions: inout Actions
    ) -> Bool {
        if entry.verifier.isSignal {
            entry.signals.append(verdict)
            if entry.verifier.partnerLink != nil, case .complete(let redirected) = candidate.outcome,
                let token = redirected?.value, !token.isEmpty, !entry.signalTokens.contains(token)
            {
                if withState {
                    entry.signalTokens.insert(token, at: 0)
                } else {
                    entry.signalTokens.append(token)
                }
                if entry.signalTokens.count > RedirectVerifier.maximumLinkTokens { entry.signalTokens.removeLast() }
            }
            if !entry.checking {
                entry.checking = true
                actions.signalChecks.append((entry.nonce, entry.verifier))
            }
            return true
        }
        guard case .complete(let redirected) = candidate.outcome, let token = redirected?.value else {
            actions.logs.append((entry.verifier, RedirectVerifier.Refusal.noToken.rawValue))
            return false
        }
        if let index = entry.candidates.firstIndex(where: { $0.token == token }) {
            entry.candidates[index].verdicts.append(verdict)
        } else {
            guard entry.candidates.count < maximumWaitingRedirects else {
                actions.logs.append((entry.verifier, RedirectVerifier.Refusal.tooManyWaiting.rawValue))
                return false
            }
            let kept = Candidate(token: token, outcome: candidate.outcome, carriesState: withState, verdicts: [verdict])
            // Redirects with the attempt's `state` are checked first, each group in arrival order.
            let firstWithout = entry.candidates.firstIndex { !$0.carriesState } ?? entry.candidates.count
            entry.candidates.insert(kept, at: withState ? firstWithout : entry.candidates.count)
        }
        if entry.running < maximumConcurrentVerifications, entry.candidates.contains(where: { !$0.started }) {
            entry.running += 1
            actions.tokenChecks.append((entry.nonce, entry.verifier))
        }
        return true
    }

    /// Drops the entries whose owner was released; their waiting redirects are refused.
    private static func prune(_ pending: inout [Pending], _ actions: inout Actions) {
        for entry in pending where !entry.isAlive { actions.refuse(entry.waitingVerdicts) }
        pending.removeAll { !$0.isAlive }
    }

    // MARK: - Checks (outside the lock)

    private func perform(_ actions: Actions) {
        for (verifier, reason) in actions.logs { verifier.log("a redirect was refused: \(reason)") }
        // Verdicts first: the receiver has its answer for the browser before the waiting flow can finish and stop it.
        for (verdict, accepted) in actions.verdicts { verdict(accepted) }
        for (deliver, outcome) in actions.deliveries { deliver(outcome) }
        for (nonce, verifier) in actions.signalChecks { Task { await runSignalChecks(nonce, verifier) } }
        for (nonce, verifier) in actions.tokenChecks { Task { await runTokenChecks(nonce, verifier) } }
    }

    /// Runs the entry's signal checks one after another while redirects wait for one.
    private func runSignalChecks(_ nonce: RedirectNonce, _ verifier: RedirectVerifier) async {
        while true {
            let job: ([Verdict], [String])? = state.withLock { pending in
                guard let index = pending.firstIndex(where: { $0.nonce == nonce }) else { return nil }
                guard !pending[index].signals.isEmpty else {
                    pending[index].checking = false
                    return nil
                }
                defer {
                    pending[index].signals = []
                    pending[index].signalTokens = []
                }
                return (pending[index].signals, pending[index].signalTokens)
            }
            guard let (batch, tokens) = job else { return }
            let result = await verifier.check(.complete(userToken: nil), linkTokens: tokens)
            var actions = Actions()
            switch result {
            case .failure(let refusal):
                actions.logs.append((verifier, refusal.rawValue))
                actions.refuse(batch)
            case .success(let outcome):
                if finish(nonce, with: outcome, &actions) {
                    actions.verdicts += batch.map { ($0, true) }
                } else {
                    actions.refuse(batch)
                }
            }
            perform(actions)
            if case .success = result { return }
        }
    }

    /// Runs redirect-token checks for the entry's kept redirects, one at a time, until none is left.
    private func runTokenChecks(_ nonce: RedirectNonce, _ verifier: RedirectVerifier) async {
        while true {
            let job: Candidate? = state.withLock { pending in
                guard let index = pending.firstIndex(where: { $0.nonce == nonce }) else { return nil }
                guard let next = pending[index].candidates.firstIndex(where: { !$0.started }) else {
                    pending[index].running -= 1
                    return nil
                }
                pending[index].candidates[next].started = true
                return pending[index].candidates[next]
            }
            guard let job else { return }
            let result = await verifier.check(job.outcome)
            var actions = Actions()
            let finished = state.withLock { pending -> Bool in
                guard let index = pending.firstIndex(where: { $0.nonce == nonce }),
                    let kept = pending[index].candidates.firstIndex(where: { $0.token == job.token })
                else { return true }  // the entry is gone: its redirects were answered when it was removed
                let verdicts = pending[index].candidates.remove(at: kept).verdicts
                switch result {
                case .failure(let refusal):
                    actions.logs.append((verifier, refusal.rawValue))
                    actions.refuse(verdicts)
                    return false
                case .success(let outcome):
                    guard pending[index].isAlive else {
                        actions.refuse(verdicts + pending.remove(at: index).waitingVerdicts)
                        return true
                    }
                    let entry = pending.remove(at: index)
                    actions.deliveries.append((entry.deliver, outcome))
                    actions.verdicts += verdicts.map { ($0, true) }
                    actions.refuse(entry.waitingVerdicts)
                    return true
                }
            }
            perform(actions)
            if finished { return }
        }
    }

    /// Removes the entry and queues its delivery of `outcome`; `false` when it no longer waits.
    private func finish(_ nonce: RedirectNonce, with outcome: RedirectOutcome, _ actions: inout Actions) -> Bool {
        let found = state.withLock { pending -> Pending? in
            guard let index = pending.firstIndex(where: { $0.nonce == nonce }) else { return nil }
            return pending.remove(at: index)
        }
        guard let entry = found else { return false }
        guard entry.isAlive else {
            actions.refuse(entry.waitingVerdicts)
            return false
        }
        // Redirects that arrived while the check ran would have got the same answer (a signal check does not
        // depend on the redirect): the attempt finished for them too.
        actions.verdicts += entry.signals.map { ($0, true) }
        actions.refuse(entry.candidates.flatMap(\.verdicts))
        actions.deliveries.append((entry.deliver, outcome))
        return true
    }
}

/// One verdict for a redirect handed to several attempts: `true` as soon as one of them accepts it, `false` once
/// all refused.
private final class VerdictJoin: Sendable {
    private let state: Locked<(remaining: Int, done: Bool)>
    private let verdict: RedirectRegistry.Verdict

    init(count: Int, _ verdict: @escaping RedirectRegistry.Verdict) {
        state = Locked((count, false))
        self.verdict = verdict
    }

    /// Records one attempt's answer.
    func report(_ accepted: Bool) {
        let call: Bool = state.withLock { state in
            guard !state.done else { return false }
            state.remaining -= 1
            if accepted || state.remaining == 0 {
                state.done = true
                return true
            }
            return false
        }
        if call { verdict(accepted) }
    }
}
