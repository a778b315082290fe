import Foundation
import IFTTTConnectCore

// A synchronization run: the engine's effects and the run itself (refresh the Connections, upload).
extension Synchronizer {
    // MARK: - Engine effects

    func request(_ source: SynchronizationSource, completion: (@Sendable (SynchronizationResult) -> Void)?) {
        let ticket = nextTicket
        nextTicket += 1
        if let completion { completions[ticket] = completion }
        logger.log("synchronization requested: \(source.rawValue)")
        perform(engine.handle(.requested(ticket, source)))
    }

    func perform(_ effects: [SyncEngine.Effect]) {
        for effect in effects {
            switch effect {
            case .startRun(let plan):
                logger.log(
                    "synchronization \(plan.id) started (\(plan.sources.map(\.rawValue).sorted().joined(separator: ", ")))"
                )
                runs[plan.id] = Task {
                    let outcome = await self.execute(plan)
                    self.finish(plan.id, outcome)
                }
            case .cancelRun(let id):
                logger.log("synchronization \(id) cancelled")
                runs.removeValue(forKey: id)?.cancel()
            case .complete(let ticket, let result):
                completions.removeValue(forKey: ticket)?(result)
            case .notifyAuthenticationFailure:
                logger.log("the credentials were rejected (401); synchronization waits for new ones")
                hooks.withLock { $0 }.authenticationFailure?()
            }
        }
    }

    func finish(_ id: Int, _ outcome: SyncEngine.Outcome) {
        runs[id] = nil
        logger.log("synchronization \(id) finished: \(outcome)")
        perform(engine.handle(.runFinished(id: id, outcome)))
    }

    func isCurrent(_ plan: SyncEngine.Plan) -> Bool {
        engine.currentRunId == plan.id && !Task.isCancelled
    }

    func execute(_ plan: SyncEngine.Plan) async -> SyncEngine.Outcome {
        // A store that could not open is retried on every run; while crossings cannot be stored, the run fails
        // (after refreshing the Connections, so geofences are still monitored and crossings wait in memory).
        let stored = await session?.retryStorage() ?? (openStore() != nil)
        let cannotStore = store == nil || !stored
        if cannotStore {
            logger.log(
                "synchronization fails: crossings cannot be stored (\(storeError.map { "\($0)" } ?? "the store refused a crossing"))"
            )
        }
        guard let saved = vault.read(), let token = saved.userToken, !token.isEmpty else {
            logger.log("no user token saved: nothing to synchronize")
            return .finished(cannotStore ? .failed : .noData)
        }
        var changed = false
        var failed = false
        if plan.refreshConnections, let network {
            let credentials = ConnectionCredentials(userToken: token, inviteCode: saved.inviteCode)
            // One write for the whole refresh, also when it ends early.
            defer { if changed { persistRegistry() } }
            for stored in registry.all where stored.needsSynchronization {
                guard isCurrent(plan) else { return .finished(.failed) }
                do throws(ConnectAPIError) {
                    let connection = try await network.fetchConnection(for: stored.id, credentialProvider: credentials)
                    guard isCurrent(plan), registry.connections[stored.id] != nil else { return .finished(.failed) }
                    if store(StoredConnection(connection), persist: false) { changed = true }
                } catch .authenticationFailure {
                    return .authenticationFailure
                } catch .cancelled {
                    return .finished(.failed)
                } catch {
                    logger.log("Connection \(stored.id) could not be refreshed: \(error)")
                    failed = true
                }
            }
            if changed { await applyGeofences() }
        }
        guard isCurrent(plan) else { return .finished(.failed) }
        var uploaded = 0
        if let uploader {
            var report = await uploader.uploadPending()
            if report.next == .busy {
                // Another upload (from a cancelled run or another caller) is in flight: wait for it, then upload.
                logger.log("the uploader is busy; waiting for the upload in flight")
                await uploader.waitUntilIdle()
                guard isCurrent(plan) else { return .finished(.failed) }
                report = await uploader.uploadPending()
                if report.next == .busy { return .finished(.failed) }
            }
            uploaded = report.uploaded + report.rejected
            switch report.error?.code {
            case .authenticationFailure?: return .authenticationFailure
            case .missingCredentials?, nil: break
            case .cancelled?: return .finished(.failed)
            default: failed = true
            }
        }
        if failed || cannotStore { return .finished(.failed) }
        return .finished(changed || uploaded > 0 ? .newData : .noData)
    }
}
