import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// The static API touches process-wide state, so these tests run one at a time.
@Suite("ConnectButtonController static synchronization API", .serialized)
@MainActor
struct SynchronizationFacadeTests {
    @Test func theFirstUseOfTheSharedSynchronizerOffTheMainThreadDoesNotWaitForTheMainThread() {
        let previous = ConnectButtonController.synchronizer
        defer { ConnectButtonController.synchronizer = previous }
        ConnectButtonController.resetSharedSynchronizer()
        let created = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = ConnectButtonController.synchronizer
            created.signal()
        }
        // The main thread waits for the other thread; a first use that waited for the main thread would deadlock.
        #expect(created.wait(timeout: .now() + 10) == .success)
    }

    @Test func theStaticAPIIsAFacadeOverTheSharedSynchronizer() async throws {
        let h = SyncHarness()
        defer {
            h.cleanUp()
            ConnectButtonController.stopObservingButtonOutcomes()
        }
        h.api.setConnection("gx", triggers: [SynchronizerTests.home])
        let lines = Recorder<String>()
        ConnectButtonController.synchronizer = h.synchronizer
        ConnectButtonController.synchronizationLoggingEnabled = true
        ConnectButtonController.synchronizationLoggingHandler = { lines.append($0) }
        let authFailures = Counter()
        ConnectButtonController.authenticationFailureHandler = { authFailures.increment() }

        ConnectButtonController.initialize(options: InitializerOptions(enableSDKBackgroundProcess: true))
        #expect(ConnectButtonOutcomes.shared.observerCount == 1)
        ConnectButtonController.setup(
            with: SynchronizerTests.credentials, lifecycleSynchronizationOptions: [.applicationDidEnterBackground])
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

    /// Runs after every block already queued on the main queue: completions the synchronizer handed to the
    /// main queue before it went idle have run when this returns (the main queue is first in, first out).
    nonisolated static func drainMainQueue() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }

    @Test func theStaticAPIRunsFromAnyThreadAndCompletesOnTheMainQueue() async throws {
        let h = SyncHarness()
        defer {
            h.cleanUp()
            ConnectButtonController.stopObservingButtonOutcomes()
        }
        h.api.setConnection("gx", triggers: [SynchronizerTests.home])
        ConnectButtonController.synchronizer = h.synchronizer
        // Called from a background thread, as an app's background task or its expiration handler would.
        let onMain = Recorder<Bool>()
        let successes = Recorder<Bool>()
        let fetches = Recorder<SynchronizationResult>()
        await Task.detached {
            #expect(!isOnMainQueue())
            ConnectButtonController.initialize(options: .standard)
            ConnectButtonController.setupSDKBackgroundProcess()
            ConnectButtonController.setup(with: SynchronizerTests.credentials)
            ConnectButtonController.activate(connections: ["gx"], lifecycleSynchronizationOptions: .none)
            ConnectButtonController.startBackgroundProcess { success in
                onMain.append(isOnMainQueue())
                successes.append(success)
            }
            ConnectButtonController.performFetchWithCompletionHandler { result in
                onMain.append(isOnMainQueue())
                fetches.append(result)
            }
            ConnectButtonController.stopCurrentSynchronization()
        }.value
        await h.synchronizer.waitUntilIdle()
        await Self.drainMainQueue()
        #expect(successes.values.count == 1)
        #expect(fetches.values.count == 1)
        #expect(onMain.values == [true, true])
        #expect(ConnectButtonOutcomes.shared.observerCount == 1)  // installed on the main queue
        #expect(h.scheduler.registrationCount == 1)  // setupSDKBackgroundProcess registered once
        // The lifecycle options given to activate apply: with `.none`, becoming active does not synchronize.
        let requests = h.api.requests.count
        h.synchronizer.applicationDidBecomeActive()
        await h.synchronizer.waitUntilIdle()
        #expect(h.api.requests.count == requests)
        ConnectButtonController.activate(connections: nil, lifecycleSynchronizationOptions: .all)
        await h.synchronizer.waitUntilIdle()
        let afterActivation = h.api.requests.count
        h.synchronizer.applicationDidBecomeActive()
        await h.synchronizer.waitUntilIdle()
        #expect(h.api.requests.count > afterActivation)
    }

    @Test func theAuthenticationFailureHandlerRunsOnTheMainQueueAndThe28LogHandlerReceivesLines() async throws {
        let h = SyncHarness()
        defer {
            h.cleanUp()
            ConnectButtonController.authenticationFailureHandler = nil
            ConnectButtonController.synchnronizationLoggingHandler = nil
        }
        h.api.setConnection("gx", triggers: [SynchronizerTests.home])
        h.api.fetchStatus = 401
        ConnectButtonController.synchronizer = h.synchronizer
        let calls = Recorder<Bool>()
        let lines = Recorder<String>()
        ConnectButtonController.synchronizationLoggingEnabled = true
        ConnectButtonController.synchnronizationLoggingHandler = { lines.append($0) }
        #expect(ConnectButtonController.synchnronizationLoggingHandler != nil)
        ConnectButtonController.authenticationFailureHandler = { calls.append(isOnMainQueue()) }
        #expect(ConnectButtonController.authenticationFailureHandler != nil)
        ConnectButtonController.initialize()
        ConnectButtonController.setup(with: SynchronizerTests.credentials)
        ConnectButtonController.activate(connections: ["gx"])
        await h.synchronizer.waitUntilIdle()
        await Self.drainMainQueue()
        #expect(calls.values == [true])
        #expect(!lines.values.isEmpty)
    }

    @Test func commandsGivenFromOneThreadRunInTheOrderGiven() async {
        // The static API relies on this: each command is a task isolated to the engine's actor, enqueued on it when
        // created, and synchronous, so commands run one at a time in the order given, with no queue of their own.
        let h = SyncHarness()
        defer { h.cleanUp() }
        let order = Recorder<Int>()
        for index in 0..<2_000 { h.synchronizer.engine.enqueue { _ in order.append(index) } }
        await h.synchronizer.waitUntilIdle()
        #expect(order.values == Array(0..<2_000))
    }

    @Test func backgroundProcessClosuresRunOneAtATimeOffTheMainQueue() async throws {
        let h = SyncHarness()
        defer {
            h.cleanUp()
            ConnectButtonController.setBackgroundProcessClosures(launchHandler: nil, expirationHandler: nil)
        }
        ConnectButtonController.synchronizer = h.synchronizer
        ConnectButtonController.setupSDKBackgroundProcess()
        let calls = Recorder<String>()
        let launch: VoidClosure = { calls.append(isOnMainQueue() ? "launch on main" : "launch") }
        let expiration: VoidClosure = { calls.append(isOnMainQueue() ? "expiration on main" : "expiration") }
        ConnectButtonController.setBackgroundProcessClosures(launchHandler: launch, expirationHandler: expiration)
        let task = FakeBackgroundTask()
        h.scheduler.launch(Synchronizer.Configuration.backgroundTaskIdentifier, task: task)
        task.expire()
        await h.synchronizer.waitUntilIdle()  // the closures run on the engine's actor, before this returns
        #expect(calls.values == ["launch", "expiration"])
        #expect(task.completions.count == 1)
    }
}

@Suite("MainActorRegionMonitor: a region monitor created on the main actor")
struct MainActorRegionMonitorTests {
    @Test func itCreatesTheMonitorOnceOnTheMainActorAndForwardsToIt() async {
        let made = Counter()
        let monitor = MainActorRegionMonitor {
            made.increment()
            return SimulatedRegionMonitor()
        }
        #expect(await monitor.maximumRegionCount == 20)
        let region = MonitoredRegion(
            identifier: "ifttt_a", center: Coordinate(latitude: 37.78, longitude: -122.4), radius: 150,
            notifyOnEntry: true, notifyOnExit: true)
        await monitor.startMonitoring(region)
        #expect(await monitor.monitoredRegions() == [region])
        await monitor.stopMonitoring(identifier: "ifttt_a")
        #expect(await monitor.monitoredRegions().isEmpty)
        #expect(made.count == 1)
    }
}
