import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectLocation

@Suite("SyncEngine: when to sync, coalescing, exactly-once completions")
struct SyncEngineTests {
    func completions(_ effects: [SyncEngine.Effect]) -> [SyncEngine.Ticket: SynchronizationResult] {
        var result: [SyncEngine.Ticket: SynchronizationResult] = [:]
        for case .complete(let ticket, let value) in effects {
            #expect(result[ticket] == nil, "ticket \(ticket) completed twice")
            result[ticket] = value
        }
        return result
    }

    func plans(_ effects: [SyncEngine.Effect]) -> [SyncEngine.Plan] {
        effects.compactMap { if case .startRun(let plan) = $0 { return plan } else { return nil } }
    }

    @Test func inactiveRequestsCompleteAtOnceWithNoData() {
        var engine = SyncEngine()
        #expect(engine.handle(.requested(1, .backgroundFetch)) == [.complete(1, .noData)])
        _ = engine.handle(.activated)
        _ = engine.handle(.deactivated)
        #expect(engine.handle(.requested(2, .silentPushNotification)) == [.complete(2, .noData)])
    }

    @Test func requestsDuringARunShareTheNextRunAndEachCompletesOnce() {
        var engine = SyncEngine()
        _ = engine.handle(.activated)
        let first = plans(engine.handle(.requested(1, .regionEvent)))
        #expect(first.count == 1 && first[0].refreshConnections)
        #expect(engine.handle(.requested(2, .connectionEnabled)).isEmpty)
        #expect(engine.handle(.requested(3, .connectionShown)).isEmpty)
        let end1 = engine.handle(.runFinished(id: first[0].id, .finished(.newData)))
        #expect(completions(end1) == [1: .newData])
        let second = plans(end1)
        #expect(second.count == 1)
        #expect(second[0].sources == [.connectionEnabled, .connectionShown])
        #expect(!second[0].refreshConnections)  // both carried fresh data from the button
        let end2 = engine.handle(.runFinished(id: second[0].id, .finished(.noData)))
        #expect(completions(end2) == [2: .noData, 3: .noData])
        #expect(engine.currentRunId == nil)
    }

    @Test func stopCancelsTheRunCompletesEverythingOnceAndIgnoresTheLateFinish() {
        var engine = SyncEngine()
        _ = engine.handle(.activated)
        let run = plans(engine.handle(.requested(1, .externalBackgroundProcess)))[0]
        _ = engine.handle(.requested(2, .backgroundFetch))
        let stop = engine.handle(.stopRequested)
        #expect(stop.first == .cancelRun(id: run.id))
        #expect(completions(stop) == [1: .failed, 2: .failed])
        #expect(engine.handle(.runFinished(id: run.id, .finished(.newData))).isEmpty)
        #expect(engine.handle(.stopRequested).isEmpty)
    }

    @Test func deactivationCompletesRunningAndWaitingWithNoData() {
        var engine = SyncEngine()
        _ = engine.handle(.activated)
        let run = plans(engine.handle(.requested(1, .backgroundFetch)))[0]
        _ = engine.handle(.requested(2, .silentPushNotification))
        let effects = engine.handle(.deactivated)
        #expect(effects.contains(.cancelRun(id: run.id)))
        #expect(completions(effects) == [1: .noData, 2: .noData])
        #expect(engine.handle(.runFinished(id: run.id, .finished(.failed))).isEmpty)
    }

    @Test func authenticationFailureFailsEverythingNotifiesOnceAndSuspendsUntilNewCredentials() {
        var engine = SyncEngine()
        _ = engine.handle(.activated)
        let run = plans(engine.handle(.requested(1, .forceUpdate)))[0]
        _ = engine.handle(.requested(2, .backgroundFetch))
        let effects = engine.handle(.runFinished(id: run.id, .authenticationFailure))
        #expect(completions(effects) == [1: .failed, 2: .failed])
        #expect(effects.filter { $0 == .notifyAuthenticationFailure }.count == 1)
        #expect(plans(effects).isEmpty)
        #expect(engine.handle(.requested(3, .regionEvent)) == [.complete(3, .failed)])
        _ = engine.handle(.credentialsUpdated)
        #expect(plans(engine.handle(.requested(4, .regionEvent))).count == 1)
    }

    @Test func lifecycleRequestsFollowTheOptions() {
        var engine = SyncEngine()
        _ = engine.handle(.activated)
        _ = engine.handle(.lifecycleOptionsChanged([.applicationDidEnterBackground]))
        #expect(engine.handle(.requested(1, .appDidBecomeActive)) == [.complete(1, .noData)])
        #expect(plans(engine.handle(.requested(2, .appDidEnterBackground))).count == 1)
        _ = engine.handle(.lifecycleOptionsChanged(.none))
        #expect(engine.handle(.requested(3, .appDidEnterBackground)) == [.complete(3, .noData)])
    }

    /// 2,000 random steps: every ticket is completed exactly once, never before it was requested, and at most
    /// one run is in progress.
    @Test func randomSequencesCompleteEveryTicketExactlyOnce() {
        var rng = SplitMix64(seed: 42)
        var engine = SyncEngine()
        var requested = Set<SyncEngine.Ticket>()
        var completed = Set<SyncEngine.Ticket>()
        var running: [Int] = []
        var next: SyncEngine.Ticket = 1
        func apply(_ effects: [SyncEngine.Effect]) {
            for effect in effects {
                switch effect {
                case .complete(let ticket, _):
                    #expect(requested.contains(ticket))
                    #expect(completed.insert(ticket).inserted, "ticket \(ticket) completed twice")
                case .startRun(let plan):
                    #expect(running.isEmpty, "a run started while another was running")
                    running = [plan.id]
                case .cancelRun(let id):
                    running.removeAll { $0 == id }
                case .notifyAuthenticationFailure:
                    break
                }
            }
        }
        for _ in 0..<2000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: apply(engine.handle(.activated))
            case 1: if Int.random(in: 0..<4, using: &rng) == 0 { apply(engine.handle(.deactivated)) }
            case 2: apply(engine.handle(.stopRequested))
            case 3: apply(engine.handle(.credentialsUpdated))
            case 4, 5, 6:
                requested.insert(next)
                let source = SynchronizationSource.allCases.randomElement(using: &rng)!
                apply(engine.handle(.requested(next, source)))
                next += 1
            default:
                // Finish the current run, or a stale one.
                let id = Int.random(in: 0..<3, using: &rng) == 0 ? 999_999 : (engine.currentRunId ?? 0)
                let outcome: SyncEngine.Outcome = [
                    .finished(.newData), .finished(.noData), .finished(.failed), .authenticationFailure,
                ]
                .randomElement(using: &rng)!
                if id == engine.currentRunId { running = [] }
                apply(engine.handle(.runFinished(id: id, outcome)))
            }
            #expect(completed.isSubset(of: requested))
        }
        apply(engine.handle(.deactivated))
        #expect(completed == requested)
    }
}
