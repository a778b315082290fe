import Foundation
import Testing
import IFTTTConnectSDK
@testable import IFTTTConnectLocation

/// The static API touches process-wide state, so these tests run one at a time.
@Suite("ConnectButtonController static synchronization API", .serialized)
@MainActor
struct SynchronizationFacadeTests {
    @Test func theStaticAPIIsAFacadeOverTheSharedSynchronizer() async throws {
        let h = SyncHarness()
        defer { h.cleanUp(); ConnectButtonController.outcomeObserver = nil }
        h.api.setConnection("gx", triggers: [SynchronizerTests.home])
        let lines = Recorder<String>()
        ConnectButtonController.synchronizer = h.synchronizer
        ConnectButtonController.synchronizationLoggingEnabled = true
        ConnectButtonController.synchronizationLoggingHandler = { lines.append($0) }
        let authFailures = Counter()
        ConnectButtonController.authenticationFailureHandler = { authFailures.increment() }

        ConnectButtonController.initialize(options: InitializerOptions(enableSDKBackgroundProcess: true))
        #expect(ConnectButtonController.outcomeObserver != nil)
        ConnectButtonController.setup(with: SynchronizerTests.credentials, lifecycleSynchronizationOptions: [.applicationDidEnterBackground])
        ConnectButtonController.activate(connections: ["gx"])
        let fetches = Recorder<SynchronizationResult>()
        ConnectButtonController.performFetchWithCompletionHandler { fetches.append($0) }
        let successes = Recorder<Bool>()
        ConnectButtonController.startBackgroundProcess { successes.append($0) }
        await h.synchronizer.waitUntilIdle()
        #expect(fetches.values.count == 1)
        #expect(successes.values.count == 1)
        #expect(await h.platformGeofences() == ["ifttt_home_arrive"])
        #expect(h.scheduler.registrationCount == 1)

        // The geofence switch: synchronous, persisted, no synchronization.
        let requests = h.api.requests.count
        #expect(ConnectButtonController.geofencesEnabled(for: "gx"))
        ConnectButtonController.setGeofencesEnabled(enabled: false, for: "gx")
        #expect(!ConnectButtonController.geofencesEnabled(for: "gx"))
        await h.synchronizer.waitUntilIdle()
        #expect(await h.platformGeofences().isEmpty)
        #expect(h.api.requests.count == requests)
        ConnectButtonController.setGeofencesEnabled(enabled: true, for: "gx")
        ConnectButtonController.update()
        await h.synchronizer.waitUntilIdle()
        #expect(await h.platformGeofences() == ["ifttt_home_arrive"])

        // Deactivate: completions still run, exactly once.
        ConnectButtonController.deactivate()
        let pushes = Recorder<SynchronizationResult>()
        ConnectButtonController.didReceiveSilentRemoteNotification { pushes.append($0) }
        ConnectButtonController.performFetchWithCompletionHandler { pushes.append($0) }
        ConnectButtonController.stopCurrentSynchronization()
        await h.synchronizer.waitUntilIdle()
        #expect(pushes.values == [.noData, .noData])
        #expect(await h.platformGeofences().isEmpty)
        #expect(!lines.values.isEmpty)
        #expect(!lines.values.contains { $0.contains(SyncHarness.token) })
        #expect(authFailures.count == 0)
    }
}
