import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

@Suite("Synchronizer: registry, geofences, completions, 401, cancellation, logging, background task")
struct SynchronizerTests {
    static let credentials = ConnectionCredentials(userToken: SyncHarness.token, inviteCode: "invite-SECRET-77")
    static let home = FakeIFTTT.Trigger(id: "home_arrive", latitude: 37.7749, longitude: -122.4194)
    static let store = FakeIFTTT.Trigger(id: "store_enter", latitude: 37.8249, longitude: -122.4194)

    /// Setup, activate with one Connection with two geofences, and wait until the first run is over.
    func activated(_ h: SyncHarness) async {
        h.api.setConnection("gx", triggers: [Self.home, Self.store])
        await h.synchronizer.setup(with: Self.credentials)
        await h.synchronizer.activate(connections: ["gx"])
        await h.synchronizer.waitUntilIdle()
    }

    @Test func activateFetchesWithTheSavedTokenAndRegistersTheGeofences() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        let fetches = h.api.requests(to: "/v2/connections/gx")
        #expect(fetches.count == 1)
        // setup + activate on a fresh install keeps the token just given (W-9)
        #expect(fetches.first?.headers["Authorization"] == "Bearer \(SyncHarness.token)")
        #expect(fetches.first?.headers["IFTTT-Invite-Code"] == "invite-SECRET-77")
        #expect(await h.platformGeofences() == ["ifttt_home_arrive", "ifttt_store_enter"])
        let stored = await h.synchronizer.storedConnections
        #expect(stored.map(\.id) == ["gx"])
        #expect(stored.first?.hasLocationTriggers == true)
    }

    @Test func aCrossingIsRecordedReportedAndUploaded() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let reports = Recorder<LocationEvent>()
        h.synchronizer.setLocationEventReportedClosure { $0.forEach(reports.append) }
        await activated(h)
        await h.move(37.70, -122.4194, after: 10)  // outside both
        await h.move(37.7749, -122.4194, after: 60)  // enter home
        let uploads = h.api.requests(to: "/v1/location_events")
        #expect(uploads.count == 1)
        #expect(
            uploads.first.map {
                String(decoding: $0.body ?? Data(), as: UTF8.self).contains(#""trigger_subscription_id":"home_arrive""#)
            } == true)
        let kinds = reports.values.map { event -> String in
            switch event {
            case .reported: return "reported"
            case .uploadAttempted: return "attempted"
            case .uploadSuccessful: return "succeeded"
            case .uploadFailed: return "failed"
            }
        }
        #expect(kinds == ["reported", "attempted", "succeeded"])
        #expect(reports.values.allSatisfy { $0.regionEvent.triggerSubscriptionId == "home_arrive" })
    }

    /// The uploader returns each request's progress to the engine as it goes: the app hears of an attempt before its
    /// request is sent, and of its success once the server answered.
    @Test func anAttemptIsReportedBeforeItsRequestIsSentAndItsSuccessAfterTheAnswer() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let seen = Recorder<String>()
        let api = h.api
        h.synchronizer.setLocationEventReportedClosure { events in
            let sent = api.requests(to: "/v1/location_events").count
            for event in events {
                switch event {
                case .uploadAttempted: seen.append("attempted, \(sent) sent")
                case .uploadSuccessful: seen.append("succeeded, \(sent) sent")
                default: break
                }
            }
        }
        await activated(h)
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)
        #expect(seen.values == ["attempted, 0 sent", "succeeded, 1 sent"])
    }

    /// The uploader takes the token from the engine, which reads it when the upload begins: credentials saved while
    /// the run fetched its Connections are the ones the upload sends.
    @Test func credentialsSavedWhileARunFetchesAreTheOnesItsUploadSends() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        h.api.holdRequests = true
        for (latitude, seconds) in [(37.70, 10.0), (37.7749, 60)] {  // outside, then into home
            h.clock.advance(seconds)
            await h.monitor.move(
                to: LocationFix(latitude: latitude, longitude: -122.4194, horizontalAccuracy: 5, timestamp: h.clock.now)
            )
        }
        await h.api.waitForHeld(1)
        #expect(h.api.requests.last?.url.path.hasSuffix("/v2/connections/gx") == true)  // the run fetches first
        await h.synchronizer.update(with: ConnectionCredentials(userToken: "tok-NEW-81", inviteCode: nil))
        h.api.releaseAll()
        await h.synchronizer.waitUntilIdle()
        let uploads = h.api.requests(to: "/v1/location_events")
        #expect(uploads.first?.headers["Authorization"] == "Bearer tok-NEW-81")
    }

    @Test func uploadFailureIsReportedAndTheEventStays() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let reports = Recorder<LocationEvent>()
        h.synchronizer.setLocationEventReportedClosure { $0.forEach(reports.append) }
        await activated(h)
        h.api.uploadStatus = 500
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)
        #expect(
            reports.values.last.map { if case .uploadFailed(_, .networkError, _) = $0 { true } else { false } } == true)
        #expect(try await LocationEventStore(directory: h.directory).pending(now: h.clock.now).count == 1)
    }

    @Test func completionsRunExactlyOnceWhenCoalesced() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        h.api.holdRequests = true
        let results = Recorder<(Int, SynchronizationResult)>()
        for i in 0..<4 {
            await h.synchronizer.synchronize(source: i == 0 ? .backgroundFetch : .silentPushNotification) {
                results.append((i, $0))
            }
        }
        await h.api.waitForHeld(1)
        #expect(results.values.isEmpty)
        h.api.releaseAll()
        await h.synchronizer.waitUntilIdle()
        #expect(results.values.map(\.0).sorted() == [0, 1, 2, 3])
        // The three that waited shared one run: two fetches in total, not four.
        #expect(h.api.requests(to: "/v2/connections/gx").count == 1 + 2)
    }

    @Test func completionsRunExactlyOnceAfterDeactivate() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        h.api.holdRequests = true
        let results = Recorder<SynchronizationResult>()
        await h.synchronizer.synchronize(source: .backgroundFetch) { results.append($0) }
        await h.api.waitForHeld(1)
        await h.synchronizer.deactivate()  // completes the running one
        await h.synchronizer.synchronize(source: .backgroundFetch) { results.append($0) }  // after deactivate
        await h.synchronizer.synchronize(source: .silentPushNotification) { results.append($0) }
        await h.synchronizer.waitUntilIdle()
        #expect(results.values == [.noData, .noData, .noData])
        #expect(h.api.cancelledCount == 1)
        #expect(await h.platformGeofences().isEmpty)
        #expect(await h.synchronizer.storedConnections.isEmpty)
    }

    @Test func stopCancelsTheInFlightRequestAndCompletesOnce() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        h.api.holdRequests = true
        let results = Recorder<SynchronizationResult>()
        await h.synchronizer.synchronize(source: .externalBackgroundProcess) { results.append($0) }
        await h.synchronizer.synchronize(source: .backgroundFetch) { results.append($0) }  // waits behind it
        await h.api.waitForHeld(1)
        await h.synchronizer.stopCurrentSynchronization()
        await h.synchronizer.waitUntilIdle()
        #expect(h.api.cancelledCount == 1)  // the request itself was cancelled
        #expect(h.api.heldCount == 0)
        #expect(results.values == [.failed, .failed])
        h.api.releaseAll()  // nothing left to answer; no second completion
        await h.synchronizer.waitUntilIdle()
        #expect(results.values.count == 2)
    }

    @Test func theGeofenceSwitchSurvivesARefreshAndARelaunch() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        #expect(h.synchronizer.geofenceToggles.isEnabled("gx"))
        try h.synchronizer.geofenceToggles.setEnabled(false, for: "gx")
        await h.synchronizer.geofenceSwitchesChanged()
        #expect(await h.platformGeofences().isEmpty)
        // A refresh fetches the Connection again: the switch stays off.
        #expect(await h.synchronizer.synchronize(source: .forceUpdate) != .failed)
        #expect(h.api.requests(to: "/v2/connections/gx").count == 2)
        #expect(!h.synchronizer.geofenceToggles.isEnabled("gx"))
        #expect(await h.platformGeofences().isEmpty)
        // A relaunch reads it back, and monitors nothing for gx.
        let again = h.relaunched()
        await again.synchronizer.start()
        #expect(!again.synchronizer.geofenceToggles.isEnabled("gx"))
        #expect(await again.synchronizer.storedConnections.map(\.id) == ["gx"])
        #expect(await again.platformGeofences().isEmpty)
        try again.synchronizer.geofenceToggles.setEnabled(true, for: "gx")
        await again.synchronizer.geofenceSwitchesChanged()
        #expect(await again.platformGeofences() == ["ifttt_home_arrive", "ifttt_store_enter"])
    }

    @Test func relaunchKeepsConnectionsActivationAndCredentials() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        let again = h.relaunched()
        #expect(await again.synchronizer.synchronize(source: .backgroundFetch) == .noData)
        #expect(await again.synchronizer.isActive)
        #expect(
            h.api.requests(to: "/v2/connections/gx").last?.headers["Authorization"] == "Bearer \(SyncHarness.token)")
    }

    @Test func aCredentialFromAnEarlierInstallationIsIgnored() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let keychain = FileSecureStore(directory: h.directory.appendingPathComponent("keychain"))
        var old = CredentialVault(store: keychain, directory: h.directory.appendingPathComponent("old-install"))
        try old.write(userToken: "from-old-install", inviteCode: nil)
        var fresh = CredentialVault(store: keychain, directory: h.directory.appendingPathComponent("new-install"))
        #expect(fresh.read() == nil)
        try fresh.write(userToken: "new", inviteCode: nil)
        var reread = CredentialVault(store: keychain, directory: h.directory.appendingPathComponent("new-install"))
        #expect(reread.read()?.userToken == "new")
    }

    @Test func a401OnUploadKeepsTheEventsAndCallsTheHandlerOnce() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let failures = Counter()
        h.synchronizer.setAuthenticationFailureHandler { failures.increment() }
        await activated(h)
        h.api.uploadStatus = 401
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)
        #expect(failures.count == 1)
        #expect(try await LocationEventStore(directory: h.directory).pending(now: h.clock.now).count == 1)
        #expect(await h.synchronizer.storedConnections.map(\.id) == ["gx"])
        #expect(await h.platformGeofences() == ["ifttt_home_arrive", "ifttt_store_enter"])
        // Suspended until new credentials: no request is sent, the completion still runs once.
        let before = h.api.requests.count
        #expect(await h.synchronizer.synchronize(source: .backgroundFetch) == .failed)
        #expect(h.api.requests.count == before)
        // New credentials resume: the kept event is uploaded.
        h.api.uploadStatus = 200
        await h.synchronizer.update(with: ConnectionCredentials(userToken: "tok-NEW"))
        await h.synchronizer.waitUntilIdle()
        #expect(h.api.requests(to: "/v1/location_events").last?.headers["Authorization"] == "Bearer tok-NEW")
        #expect(try await LocationEventStore(directory: h.directory).pending(now: h.clock.now).isEmpty)
    }

    @Test func a401OnRefreshCallsTheHandlerAndDeletesNothing() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let failures = Counter()
        h.synchronizer.setAuthenticationFailureHandler { failures.increment() }
        await activated(h)
        h.api.fetchStatus = 401
        #expect(await h.synchronizer.synchronize(source: .forceUpdate) == .failed)
        #expect(failures.count == 1)
        #expect(await h.synchronizer.storedConnections.map(\.id) == ["gx"])
        #expect(await h.platformGeofences().count == 2)
        #expect(h.api.requests(to: "/v1/location_events").isEmpty)
    }

    @Test func logLinesNeverContainTheToken() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let lines = Recorder<String>()
        h.synchronizer.logger.isEnabled = true
        h.synchronizer.logger.customHandler = { lines.append($0) }
        await activated(h)
        // A transport error that echoes the token and the Authorization header.
        h.api.failWithDescription = "proxy refused Authorization: Bearer \(SyncHarness.token) for invite-SECRET-77"
        _ = await h.synchronizer.synchronize(source: .forceUpdate)
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)
        #expect(lines.values.count > 5)
        #expect(lines.values.contains { $0.contains("<redacted>") })
        #expect(!lines.values.contains { $0.contains(SyncHarness.token) || $0.contains("invite-SECRET-77") })
        h.synchronizer.logger.isEnabled = false
        let count = lines.values.count
        _ = await h.synchronizer.synchronize(source: .forceUpdate)
        #expect(lines.values.count == count)
    }

    @Test func connectButtonOutcomesUpdateTheRegistry() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        let other = try FakeIFTTT.connection(
            "other", triggers: [FakeIFTTT.Trigger(id: "gym", latitude: 40.0, longitude: -75.0)])
        // Activation through the button: stored with the redirect's token, geofences registered, synced without refetching.
        let fetchesBefore = h.api.requests(to: "/v2/connections/gx").count
        await h.synchronizer.handle(
            .activated(
                ConnectionActivation(userToken: "tok-from-redirect", connection: other),
                credentials: ConnectionCredentials()))
        await h.synchronizer.waitUntilIdle()
        #expect(await h.synchronizer.storedConnections.map(\.id) == ["gx", "other"])
        #expect(await h.platformGeofences().contains("ifttt_gym"))
        #expect(h.api.requests(to: "/v2/connections/gx").count == fetchesBefore)
        // Deactivation through the button removes it.
        await h.synchronizer.handle(
            .deactivated(
                try FakeIFTTT.connection("other", status: "disabled", triggers: []),
                credentials: ConnectionCredentials()))
        await h.synchronizer.waitUntilIdle()
        #expect(await h.synchronizer.storedConnections.map(\.id) == ["gx"])
        #expect(!(await h.platformGeofences().contains("ifttt_gym")))
        // A Connection shown on a button without location triggers is not stored.
        await h.synchronizer.handle(
            .connectionShown(try FakeIFTTT.connection("plain", triggers: []), credentials: ConnectionCredentials()))
        #expect(await h.synchronizer.storedConnections.map(\.id) == ["gx"])
        // The token from the redirect is used from now on.
        _ = await h.synchronizer.synchronize(source: .forceUpdate)
        #expect(h.api.requests(to: "/v2/connections/gx").last?.headers["Authorization"] == "Bearer tok-from-redirect")
    }

    @Test func outcomesAreIgnoredWhileInactive() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let connection = try FakeIFTTT.connection("gx", triggers: [Self.home])
        await h.synchronizer.handle(
            .activated(
                ConnectionActivation(userToken: "t", connection: connection), credentials: ConnectionCredentials()))
        #expect(await h.synchronizer.storedConnections.isEmpty)
        #expect(h.api.requests.isEmpty)
    }

    @Test func theBackgroundTaskIsRegisteredOnceScheduledAnHourLaterAndCompletedOnce() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let launches = Counter()
        let expirations = Counter()
        h.synchronizer.setBackgroundProcessHandlers(
            launch: { launches.increment() }, expiration: { expirations.increment() })
        h.synchronizer.initialize(options: InitializerOptions(enableSDKBackgroundProcess: true))
        h.synchronizer.initialize(options: InitializerOptions(enableSDKBackgroundProcess: true))  // W-13d
        #expect(h.scheduler.registrationCount == 1)
        await activated(h)
        h.synchronizer.applicationDidEnterBackground()
        await h.synchronizer.waitUntilIdle()
        let request = try #require(h.scheduler.submittedRequests.last)
        #expect(request.identifier == "com.ifttt.ifttt.synchronization_scheduler")
        #expect(request.earliestBeginDate == h.clock.now.addingTimeInterval(3600))
        #expect(request.requiresNetworkConnectivity)

        // Launched: runs a sync, completes once, schedules the next one; a late expiration changes nothing.
        let task = FakeBackgroundTask()
        h.scheduler.launch(Synchronizer.Configuration.backgroundTaskIdentifier, task: task)
        await h.synchronizer.waitUntilIdle()
        #expect(task.completions == [true])
        task.expire()
        await h.synchronizer.waitUntilIdle()
        #expect(task.completions == [true])
        #expect(launches.count == 1 && expirations.count == 1)
        #expect(h.scheduler.submittedRequests.count == 2)

        // Expiring during the run: cancelled, completed once with false.
        h.api.holdRequests = true
        let slow = FakeBackgroundTask()
        h.scheduler.launch(Synchronizer.Configuration.backgroundTaskIdentifier, task: slow)
        await h.api.waitForHeld(1)
        slow.expire()
        await h.synchronizer.waitUntilIdle()
        #expect(slow.completions == [false])
        #expect(h.api.cancelledCount == 1)
    }
}
