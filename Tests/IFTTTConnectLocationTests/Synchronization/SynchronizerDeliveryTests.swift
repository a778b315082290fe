import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation
@_spi(Sandbox) @testable import IFTTTConnectTesting

@Suite("Synchronizer: nothing reported unstored, presence across relaunches and toggles, refusals reported")
struct SynchronizerDeliveryTests {
    static let credentials = ConnectionCredentials(userToken: SyncHarness.token)
    static let home = FakeIFTTT.Trigger(id: "home_arrive", latitude: 37.7749, longitude: -122.4194)

    func activated(_ h: SyncHarness) async {
        h.api.setConnection("gx", triggers: [Self.home])
        await h.synchronizer.setup(with: Self.credentials)
        await h.synchronizer.activate(connections: ["gx"])
        await h.synchronizer.waitUntilIdle()
    }

    func listen(_ h: SyncHarness) -> Recorder<LocationEvent> {
        let reports = Recorder<LocationEvent>()
        h.synchronizer.setLocationEventReportedClosure { $0.forEach(reports.append) }
        return reports
    }

    func reported(_ reports: Recorder<LocationEvent>) -> [String] {
        reports.values.compactMap {
            if case .reported(let region) = $0 {
                "\(region.triggerSubscriptionId) \(region.kind.rawValue)"
            } else {
                nil
            }
        }
    }

    func uploadedKinds(_ h: SyncHarness) -> [String] {
        h.api.requests(to: "/v1/location_events").flatMap { request -> [String] in
            let items = (try? JSONSerialization.jsonObject(with: request.body ?? Data()) as? [[String: Any]]) ?? []
            return items.map {
                "\($0["trigger_subscription_id"] as? String ?? "?") \($0["event_type"] as? String ?? "?")"
            }
        }
    }

    // MARK: 2. Nothing is reported that was not stored

    @Test func aStoreThatCannotOpenReportsNothingFailsAndIsRetried() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        // Given a journal that cannot be opened (its lock file is a directory)
        let lock = h.directory.appendingPathComponent("events.lock")
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
        let reports = listen(h)
        let lines = Recorder<String>()
        h.synchronizer.logger.isEnabled = true
        h.synchronizer.logger.customHandler = { lines.append($0) }
        await activated(h)

        // When the device enters home
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)

        // Then nothing is reported as recorded, synchronization fails, and the host app hears why
        #expect(reported(reports).isEmpty)
        #expect(await h.synchronizer.storageError?.code == .storage)
        #expect(await h.synchronizer.synchronize(source: .forceUpdate) == .failed)
        #expect(lines.values.contains { $0.contains("event store cannot be opened") })
        #expect(lines.values.contains { $0.contains("synchronization fails: crossings cannot be stored") })
        #expect(h.api.requests(to: "/v1/location_events").isEmpty)

        // When the disk recovers, the next run opens the store, stores the waiting crossing, reports and uploads it
        try FileManager.default.removeItem(at: lock)
        #expect(await h.synchronizer.synchronize(source: .forceUpdate) == .newData)
        #expect(reported(reports) == ["home_arrive entry"])
        #expect(await h.synchronizer.storageError == nil)
        #expect(uploadedKinds(h) == ["home_arrive entry"])
    }

    @Test func aStoreThatCannotOpenIsRetriedOnTheNextCrossing() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        let lock = h.directory.appendingPathComponent("events.lock")
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
        let reports = listen(h)
        let lines = Recorder<String>()
        h.synchronizer.logger.isEnabled = true
        h.synchronizer.logger.customHandler = { lines.append($0) }
        await activated(h)
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)
        #expect(reported(reports).isEmpty)
        try FileManager.default.removeItem(at: lock)
        await h.move(37.70, -122.4194, after: 60)  // the exit: the store opens, both are stored in order
        #expect(reported(reports) == ["home_arrive entry", "home_arrive exit"])
        let pendingOrUploaded = uploadedKinds(h)
        #expect(pendingOrUploaded == ["home_arrive entry", "home_arrive exit"])
    }

    // MARK: 3. Presence survives relaunches and toggles

    @Test func aRelaunchInsideRecordsNothingAndARealExitRecordsOne() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)  // enter home
        #expect(uploadedKinds(h) == ["home_arrive entry"])

        // When the app is relaunched while the device is still inside (the platform asks the state afresh)
        let monitor = SimulatedRegionMonitor()
        h.clock.advance(600)
        await monitor.move(
            to: LocationFix(latitude: 37.7750, longitude: -122.4194, horizontalAccuracy: 5, timestamp: h.clock.now))
        let again = SyncHarness(
            directory: h.directory, api: h.api, monitor: monitor, clock: h.clock, scheduler: h.scheduler)
        let reports = listen(again)
        await again.synchronizer.start()
        await again.synchronizer.waitUntilIdle()
        #expect(await again.platformGeofences() == ["ifttt_home_arrive"])

        // Then nothing new is recorded; and a real exit afterwards records exactly one exit
        #expect(reported(reports).isEmpty)
        await again.move(37.70, -122.4194, after: 60)
        #expect(reported(reports) == ["home_arrive exit"])
        #expect(uploadedKinds(h) == ["home_arrive entry", "home_arrive exit"])
    }

    @Test func turningGeofencesOffAndOnInsideRecordsNoFalseEntry() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        let reports = listen(h)
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)  // enter home
        #expect(reported(reports) == ["home_arrive entry"])

        try h.synchronizer.geofenceToggles.setEnabled(false, for: "gx")
        await h.synchronizer.geofenceSwitchesChanged()
        #expect(await h.platformGeofences().isEmpty)
        try h.synchronizer.geofenceToggles.setEnabled(true, for: "gx")
        await h.synchronizer.geofenceSwitchesChanged()
        await h.synchronizer.waitUntilIdle()
        #expect(await h.platformGeofences() == ["ifttt_home_arrive"])
        #expect(reported(reports) == ["home_arrive entry"])  // no false entry

        await h.move(37.70, -122.4194, after: 60)
        #expect(reported(reports) == ["home_arrive entry", "home_arrive exit"])
        #expect(uploadedKinds(h) == ["home_arrive entry", "home_arrive exit"])
    }

    // MARK: 1. Refusals reach the host app in the 2.8 shape

    @Test func aRefusedEventIsReportedAsFailedWithItsReasonAndDoesNotBlock() async throws {
        let h = SyncHarness()
        defer { h.cleanUp() }
        await activated(h)
        let reports = listen(h)
        let lines = Recorder<String>()
        h.synchronizer.logger.isEnabled = true
        h.synchronizer.logger.customHandler = { lines.append($0) }
        h.api.uploadStatus = 422
        await h.move(37.70, -122.4194, after: 10)
        await h.move(37.7749, -122.4194, after: 60)
        let refusals = reports.values.compactMap(\.rejection)
        #expect(refusals.count == 1)
        #expect(refusals.first?.statusCode == 422)
        #expect(reports.values.contains { if case .uploadFailed(_, .networkError, _) = $0 { true } else { false } })
        #expect(lines.values.contains { $0.contains("moved to the dead-letter area") })
        let store = try #require(await h.synchronizer.eventStore)
        #expect(try await store.pending(now: h.clock.now).isEmpty)
        #expect(try await store.deadLetters().count == 1)
        // The next crossing is delivered: nothing is stuck behind the refused one
        h.api.uploadStatus = 200
        await h.move(37.70, -122.4194, after: 60)
        #expect(
            reports.values.contains {
                if case .uploadSuccessful(let region, _) = $0 { region.kind == .exit } else { false }
            })
        #expect(try await store.pending(now: h.clock.now).isEmpty)
    }
}
