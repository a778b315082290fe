import Foundation

/// The synchronization engine: decides when a synchronization runs, coalesces requests, and settles every
/// request exactly once.
///
/// A pure state machine: ``handle(_:)`` takes an ``Event`` and returns ``Effect``s for a shell (the
/// ``Synchronizer``) to perform. Every request carries a ``Ticket``; each ticket appears in exactly one
/// ``Effect/complete(_:_:)``, whatever happens: the request is refused, its run finishes, is stopped or
/// cancelled by deactivation, or it waited behind a run that failed.
///
/// Rules:
/// 1. While inactive (before `activate`, after `deactivate`), a request completes at once with
///    ``SynchronizationResult/noData``.
/// 2. A lifecycle request whose option is off completes at once with ``SynchronizationResult/noData``.
/// 3. After a 401, requests complete at once with ``SynchronizationResult/failed`` until new credentials.
/// 4. One run at a time. Requests that arrive during a run wait; all of them share the next single run
///    (coalescing), and each is completed with that run's result.
/// 5. Stopping cancels the current run and completes its tickets and the waiting ones with
///    ``SynchronizationResult/failed``; the run's late finish is ignored.
/// 6. A run that ends with a 401 completes its tickets and the waiting ones with
///    ``SynchronizationResult/failed`` and asks the shell to notify the host app.
@_spi(Sandbox) public struct SyncEngine: Sendable {
    /// Identifies one request.
    public typealias Ticket = UInt64

    /// What a run does.
    public struct Plan: Sendable, Hashable {
        /// The run's id, echoed in ``Event/runFinished(id:_:)``.
        public let id: Int
        /// Whether the stored Connections are fetched again (false when every request carried fresh data).
        public let refreshConnections: Bool
        /// Why the run happens.
        public let sources: Set<SynchronizationSource>
    }

    /// How a run ended, as the shell reports it.
    public enum Outcome: Sendable, Hashable {
        /// The run finished with this result.
        case finished(SynchronizationResult)
        /// The API answered 401.
        case authenticationFailure
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        /// Synchronization was activated.
        case activated
        /// Synchronization was deactivated.
        case deactivated
        /// The lifecycle options changed.
        case lifecycleOptionsChanged(ApplicationLifecycleSynchronizationOptions)
        /// New credentials arrived (clears a 401).
        case credentialsUpdated
        /// A synchronization was requested.
        case requested(Ticket, SynchronizationSource)
        /// The run with this id ended.
        case runFinished(id: Int, Outcome)
        /// The host app asked to stop the current synchronization.
        case stopRequested
    }

    /// What the shell must do.
    public enum Effect: Sendable, Hashable {
        /// Start a run.
        case startRun(Plan)
        /// Cancel the run with this id (its requests are already completed).
        case cancelRun(id: Int)
        /// Complete a request; each ticket appears exactly once.
        case complete(Ticket, SynchronizationResult)
        /// Tell the host app that the credentials were rejected.
        case notifyAuthenticationFailure
    }

    private struct Run: Sendable {
        var plan: Plan
        var tickets: [Ticket]
    }

    /// Whether synchronization is active.
    public private(set) var isActive = false
    /// The lifecycle events that run a synchronization.
    public private(set) var lifecycleOptions: ApplicationLifecycleSynchronizationOptions = .all
    /// Whether a 401 suspended synchronization until new credentials.
    public private(set) var isSuspendedForAuthentication = false
    private var running: Run?
    private var waiting: [Ticket] = []
    private var waitingSources: Set<SynchronizationSource> = []
    private var nextRunId = 1

    /// Creates an inactive engine.
    public init() {}

    /// The id of the run in progress, if any.
    public var currentRunId: Int? { running?.plan.id }
    /// The tickets waiting for the next run.
    public var waitingTickets: [Ticket] { waiting }

    /// Handles one event and returns the effects to perform, in order.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .activated:
            isActive = true
            return []
        case .deactivated:
            isActive = false
            isSuspendedForAuthentication = false
            return settleEverything(with: .noData)
        case .lifecycleOptionsChanged(let options):
            lifecycleOptions = options
            return []
        case .credentialsUpdated:
            isSuspendedForAuthentication = false
            return []
        case .requested(let ticket, let source):
            return request(ticket, source)
        case .runFinished(let id, let outcome):
            guard let run = running, run.plan.id == id else { return [] }  // stopped or deactivated earlier
            running = nil
            switch outcome {
            case .finished(let result):
                var effects = run.tickets.map { Effect.complete($0, result) }
                if !waiting.isEmpty { effects += startRun(tickets: waiting, sources: waitingSources) }
                return effects
            case .authenticationFailure:
                isSuspendedForAuthentication = true
                var effects = run.tickets.map { Effect.complete($0, .failed) }
                effects += takeWaiting().map { Effect.complete($0, .failed) }
                effects.append(.notifyAuthenticationFailure)
                return effects
            }
        case .stopRequested:
            return settleEverything(with: .failed)
        }
    }

    private mutating func request(_ ticket: Ticket, _ source: SynchronizationSource) -> [Effect] {
        guard isActive else { return [.complete(ticket, .noData)] }
        switch source {
        case .appDidBecomeActive where !lifecycleOptions.contains(.applicationDidBecomeActive),
            .appDidEnterBackground where !lifecycleOptions.contains(.applicationDidEnterBackground):
            return [.complete(ticket, .noData)]
        default:
            break
        }
        if isSuspendedForAuthentication { return [.complete(ticket, .failed)] }
        if running != nil {
            waiting.append(ticket)
            waitingSources.insert(source)
            return []
        }
        return startRun(tickets: [ticket], sources: [source])
    }

    private mutating func startRun(tickets: [Ticket], sources: Set<SynchronizationSource>) -> [Effect] {
        waiting = []
        waitingSources = []
        let plan = Plan(
            id: nextRunId, refreshConnections: sources.contains { !$0.carriesFreshConnection }, sources: sources)
        nextRunId += 1
        running = Run(plan: plan, tickets: tickets)
        return [.startRun(plan)]
    }

    private mutating func takeWaiting() -> [Ticket] {
        defer {
            waiting = []
            waitingSources = []
        }
        return waiting
    }

    private mutating func settleEverything(with result: SynchronizationResult) -> [Effect] {
        var effects: [Effect] = []
        if let run = running {
            running = nil
            effects.append(.cancelRun(id: run.plan.id))
            effects += run.tickets.map { .complete($0, result) }
        }
        effects += takeWaiting().map { .complete($0, result) }
        return effects
    }
}
