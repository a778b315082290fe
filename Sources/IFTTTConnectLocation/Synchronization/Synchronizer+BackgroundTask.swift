import Foundation
import IFTTTConnectCore

// The SDK background task: scheduling it and running a synchronization when the system launches it.
extension Synchronizer {
    // MARK: - Background task

    /// Submits the SDK background task one interval from now, when it is enabled, registered, synchronization
    /// is active and a token is saved; otherwise cancels it.
    func scheduleBackgroundTask() {
        guard let scheduler = configuration.taskScheduler, options.enableSDKBackgroundProcess else { return }
        guard engine.isActive, vault.read()?.userToken?.isEmpty == false else {
            scheduler.cancel(identifier: Configuration.backgroundTaskIdentifier)
            return
        }
        let request = BackgroundTaskRequest(
            identifier: Configuration.backgroundTaskIdentifier,
            earliestBeginDate: configuration.clock.now.addingTimeInterval(configuration.backgroundTaskInterval),
            requiresNetworkConnectivity: true, requiresExternalPower: false)
        do { try scheduler.submit(request) } catch {
            logger.log("the background task could not be submitted: \(error)")
        }
    }

    /// Runs a synchronization for a background task the system launched; the task is completed exactly once,
    /// when the synchronization ends or when its time expires, whichever comes first.
    nonisolated func handleBackgroundTask(_ task: any BackgroundTask) {
        let once = OnceFlag()
        let hooks = self.hooks.withLock { $0 }
        task.setExpirationHandler { [weak self] in
            hooks.backgroundExpiration?()
            self?.submit { $0.stopCurrentSynchronization() }
            if once.claim() { task.setTaskCompleted(success: false) }
        }
        hooks.backgroundLaunch?()
        submit { synchronizer in
            await synchronizer.synchronize(source: .internalBackgroundProcess) { [weak synchronizer] result in
                if once.claim() { task.setTaskCompleted(success: result != .failed) }
                synchronizer?.submit { $0.scheduleBackgroundTask() }
            }
        }
    }
}
