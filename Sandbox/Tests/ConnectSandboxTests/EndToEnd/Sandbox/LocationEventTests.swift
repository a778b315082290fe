@testable import ConnectCLI
@testable import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK
import NIOConcurrencyHelpers
import Testing

@Suite("Sandbox: POST and GET /v1/location_events")
struct LocationEventTests {
    static func event(
        _ id: String = UUID().uuidString, type: String = "entry", at: String = "2026-05-01T09:00:00+0000",
        subscription: String = "alice-arrive-trigger-1"
    ) -> JSONValue {
        [
            "record_id": .string(id), "region_type": "geo", "occurred_at": .string(at), "event_type": .string(type),
            "channel_id": "941030000", "trigger_subscription_id": .string(subscription), "installation_id": "install-1",
        ]
    }

    @Test func validBatchesAreRecordedOnceInOrder() async throws {
        try await SandboxTest.withDemo { client in
            let a = UUID().uuidString
            let b = UUID().uuidString
            let body = JSONValue.array([Self.event(a), Self.event(b, type: "exit", at: "2026-05-01T09:05:00Z")])
                .serializedData()
            // Only Authorization and Content-Type, as the SDK sends them.
            let first = try await client.post("/v1/location_events", token: SandboxTest.aliceToken, body: body)
            #expect(first.status == 200)
            #expect(try first.json["recorded"] == 2)
            let again = try await client.post("/v1/location_events", token: SandboxTest.aliceToken, body: body)
            #expect(again.status == 200)
            #expect(try again.json["recorded"] == 0)
            #expect(try again.json["duplicates"] == 2)

            let events = try await LocationTest.serverEvents(root: client.base)
            #expect(events.map(\.record_id) == [a, b])
            #expect(events.map(\.event_type) == ["entry", "exit"])
            #expect(events.map(\.deliveries) == [2, 2])
            #expect(events[1].occurred_at == "2026-05-01T09:05:00Z")
            // Per user: bob sees none of alice's events.
            #expect(try await LocationTest.serverEvents(root: client.base, token: SandboxTest.bobToken).isEmpty)
            let filtered = try await client.get(
                "/v1/location_events", query: ["trigger_subscription_id": "nope"],
                token: SandboxTest.aliceToken)
            #expect(try filtered.json["data"] == [])
        }
    }

    @Test func invalidEventsAre422AndNothingIsRecorded() async throws {
        try await SandboxTest.withDemo { client in
            let cases: [(JSONValue, String)] = [
                (Self.event(type: "region_enter"), "/0/event_type"),
                (Self.event(at: "yesterday"), "/0/occurred_at"),
                (Self.event("not-a-uuid"), "/0/record_id"),
                (
                    Self.event(subscription: "alice-deals-trigger-1").replacing("channel_id", with: "123"),
                    "/0/channel_id"
                ),
                (Self.event().replacing("region_type", with: "beacon"), "/0/region_type"),
                (Self.event().replacing("installation_id", with: .null), "/0/installation_id"),
            ]
            for (event, parameter) in cases {
                let body = JSONValue.array([Self.event(), event]).serializedData()
                let response = try await client.post("/v1/location_events", token: SandboxTest.aliceToken, body: body)
                #expect(response.status == 422, "\(parameter)")
                #expect(response.errorCode == "invalid_parameters")
                let details = try response.json["details"]?.arrayValue ?? []
                #expect(
                    details.map { $0["parameter"]?.stringValue } == [
                        parameter.replacingOccurrences(of: "/0/", with: "/1/")
                    ])
            }
            #expect(
                try await client.post(
                    "/v1/location_events", token: SandboxTest.aliceToken,
                    body: Data(#"{"record_id": "x"}"#.utf8)
                ).status == 400)
            #expect(
                try await client.post("/v1/location_events", body: JSONValue.array([Self.event()]).serializedData())
                    .status == 401)
            #expect(
                try await client.post(
                    "/v1/location_events", token: "revoked",
                    body: JSONValue.array([Self.event()]).serializedData()
                ).status == 401)
            #expect(
                try await client.post(
                    "/v1/location_events", serviceKey: SandboxTest.serviceKey,
                    body: JSONValue.array([Self.event()]).serializedData()
                ).status == 403)
            #expect(try await client.get("/v1/location_events").status == 401)
            #expect(try await LocationTest.serverEvents(root: client.base).isEmpty)
        }
    }

    @Test func theExampleRouteIsTheDemoRoute() throws {
        #expect(try String(contentsOf: LocationTest.storeTripGPX, encoding: .utf8) == LocationTrip.demoGPX)
    }

    @Test func aSimulatedTripEndsWithExactlyTheExpectedEventsOnceEachInOrder() async throws {
        try await SandboxTest.withDemo(pending: [("alice", "gx-store-visits")]) { client in
            let visits = try await LocationTrip.configureStoreVisits(root: client.base)
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let route = try Route(gpx: Data(contentsOf: LocationTest.storeTripGPX))
            let trip = LocationTrip(
                root: client.base, token: SandboxTest.aliceToken,
                connectionIds: ["gx-arrive-store", "gx-store-visits"], route: route, storeDirectory: directory)
            let outcome = try await trip.run(log: { _ in })
            #expect(Set(outcome.geofences.map(\.triggerSubscriptionId)) == ["alice-arrive-trigger-1", visits])
            let expected = [
                "\(visits) entry 2026-05-01T09:11:00+0000", "\(visits) exit 2026-05-01T09:16:00+0000",
                "alice-arrive-trigger-1 entry 2026-05-01T09:26:30+0000",
            ]
            #expect(
                outcome.acknowledged.map { "\($0.triggerSubscriptionId) \($0.eventType) \($0.occurredAt)" } == expected)
            #expect(outcome.uploaded.map(\.recordId) == outcome.recorded.map(\.recordId))
            let server = try await LocationTest.serverEvents(root: client.base)
            #expect(server.map(\.record_id) == outcome.recorded.map(\.recordId.uuidString))
            #expect(server.allSatisfy { $0.deliveries == 1 })
            #expect(try await LocationEventStore(directory: directory).pending(now: Date()).isEmpty)
        }
    }

    /// The trip runs what an app runs: the public `Synchronizer` with the simulated monitor, over loopback HTTP to the
    /// sandbox. Its storage is the synchronizer's own: the next launch of a synchronizer on it finds the Connections
    /// activated, the credentials saved and nothing left to upload; the sandbox holds each crossing once, in order.
    @Test func aTripRunsTheSynchronizerAppsRun() async throws {
        try await SandboxTest.withDemo(pending: [("alice", "gx-store-visits")]) { client in
            let visits = try await LocationTrip.configureStoreVisits(root: client.base)
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let route = try Route(gpx: Data(contentsOf: LocationTest.storeTripGPX))
            let trip = LocationTrip(
                root: client.base, token: SandboxTest.aliceToken,
                connectionIds: ["gx-arrive-store", "gx-store-visits"], route: route, storeDirectory: directory)
            let lines = NIOLockedValueBox<[String]>([])
            let outcome = try await trip.run(log: { line in lines.withLockedValue { $0.append(line) } })
            #expect(outcome.recorded.count == 3)
            #expect(outcome.uploaded.map(\.recordId) == outcome.recorded.map(\.recordId))

            // The next launch of an app's synchronizer on the same storage
            var configuration = Synchronizer.Configuration(
                regionMonitor: SimulatedRegionMonitor(), storageDirectory: directory,
                secureStore: FileSecureStore(directory: directory))
            configuration.useServer(at: client.base)
            let relaunched = Synchronizer(configuration: configuration)
            await relaunched.start()
            #expect(await relaunched.isActive)
            #expect(await relaunched.storedConnections.map(\.id) == ["gx-arrive-store", "gx-store-visits"])
            #expect(
                Set(await relaunched.monitoredRegions.map(\.identifier))
                    == ["ifttt_alice-arrive-trigger-1", "ifttt_\(visits)"])
            let store = try #require(await relaunched.eventStore)
            #expect(try await store.pending(now: try #require(route.fixes.last).timestamp).isEmpty)
            let server = try await LocationTest.serverEvents(root: client.base)
            #expect(server.map(\.record_id) == outcome.recorded.map(\.recordId.uuidString))
            #expect(server.allSatisfy { $0.deliveries == 1 })
            #expect(!lines.withLockedValue { $0 }.joined().contains(SandboxTest.aliceToken))
        }
    }

    @Test func theSimulateCommandEndsWithTheAcknowledgedEventsAsJSON() async throws {
        let executable = try LocationTest.executable()
        try await SandboxTest.withDemo { client in
            let child = try ChildProcess(
                executable: executable,
                arguments: [
                    "location", "simulate", "--gpx", LocationTest.storeTripGPX.path, "--connection", "gx-arrive-store",
                    "--api", client.base.absoluteString, "--json",
                ])
            let (status, _) = await child.finish()
            #expect(status == 0)
            let output = child.lines.joined(separator: "\n")
            #expect(output.contains("Regions monitored (1):"))
            #expect(output.contains("ifttt_alice-arrive-trigger-1"))
            #expect(output.contains("Events recorded (1):"))
            #expect(output.contains("Events uploaded: 1 in 1 request(s)"))
            #expect(!output.contains(SandboxTest.aliceToken))
            let last = try #require(child.lines.last)
            let events = try JSONDecoder().decode([LocationTrip.ServerEvent].self, from: Data(last.utf8))
            #expect(
                events.map { "\($0.triggerSubscriptionId) \($0.eventType) \($0.occurredAt)" }
                    == ["alice-arrive-trigger-1 entry 2026-05-01T09:26:30+0000"])
            #expect(UUID(uuidString: try #require(events.first).recordId) != nil)
        }
    }
}

extension JSONValue {
    /// A copy of this object with `key` set to `value`.
    func replacing(_ key: String, with value: JSONValue) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }
}
