@testable import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `POST /v2/sdk/events` validation and recording, and the SDK's analytics end to end (spec §5, W-14).
@Suite("Analytics events: sandbox and SDK end to end")
struct SDKEventsTests {
    static let headers = ["IFTTT-SDK-Anonymous-Id": "test-anon", "Content-Type": "application/json"]

    static func event(
        _ name: String = "sdk.click", timestamp: JSONValue = "1700000000000",
        properties: JSONValue = ["location_type": "connect_button", "object_id": "c"]
    ) -> JSONValue {
        ["name": .string(name), "timestamp": timestamp, "properties": properties]
    }

    @Test func validBatchIsRecordedAndListed() async throws {
        try await SandboxTest.withDemo { client in
            let body: JSONValue = [
                "events": [Self.event(), Self.event("sdk.statechange", properties: ["state": "created"])]
            ]
            let response = try await client.request(
                "POST", "v2/sdk/events", headers: Self.headers, body: body.serializedData())
            #expect(response.status == 204)
            let list = try await client.get(
                "sandbox/sdk_events", query: ["anonymous_id": "test-anon"], serviceKey: SandboxTest.serviceKey
            ).json
            let items = try #require(list["data"]?.arrayValue)
            #expect(items.map { $0["name"]?.stringValue } == ["sdk.click", "sdk.statechange"])
            #expect(items[1]["properties"]?["state"] == "created")
            #expect(items[0]["batch"] == items[1]["batch"])
            let other = try await client.get(
                "sandbox/sdk_events", query: ["anonymous_id": "someone-else"], serviceKey: SandboxTest.serviceKey
            ).json
            #expect(other["data"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test(arguments: [
        ("not json", 400),
        (#"{"events": []}"#, 422),
        (#"{"events": {}}"#, 422),
        (#"{"nothing": 1}"#, 422),
        (#"[1, 2]"#, 422),
        (#"{"events": [{"name": "sdk.unknown", "timestamp": "1", "properties": {}}]}"#, 422),
        (#"{"events": [{"name": "sdk.click", "timestamp": 1700000000000, "properties": {}}]}"#, 422),
        (#"{"events": [{"name": "sdk.click", "timestamp": "12a", "properties": {}}]}"#, 422),
        (#"{"events": [{"name": "sdk.click", "timestamp": "1", "properties": {"object_id": 3}}]}"#, 422),
        (#"{"events": [{"name": "sdk.click", "timestamp": "1"}]}"#, 422),
        (#"{"events": [{"name": "sdk.statechange", "timestamp": "1", "properties": {"state": "exploded"}}]}"#, 422),
        (#"{"events": [7]}"#, 422),
    ])
    func malformedBodiesAreRejectedWithTheEnvelope(body: String, status: Int) async throws {
        try await SandboxTest.withDemo { client in
            let response = try await client.request(
                "POST", "v2/sdk/events", headers: Self.headers, body: Data(body.utf8))
            #expect(response.status == status)
            #expect(response.errorCode == "invalid_parameters")
            #expect(try response.json["type"] == "error")
            let list = try await client.get("sandbox/sdk_events", serviceKey: SandboxTest.serviceKey).json
            #expect(list["data"]?.arrayValue?.isEmpty == true, "nothing of a rejected batch is recorded")
        }
    }

    @Test func theAnonymousIdHeaderIsRequired() async throws {
        try await SandboxTest.withDemo { client in
            let body: JSONValue = ["events": [Self.event()]]
            let response = try await client.post("v2/sdk/events", body: body.serializedData())
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_parameters")
        }
    }

    /// Drives a real controller (impression, tap, email step, email confirmed) against the sandbox and returns
    /// the uploader once its events were handed over.
    @MainActor
    static func driveController(url: URL, anonymousId: String, analyticsSwitch: AnalyticsSwitch) async throws
        -> AnalyticsUploader
    {
        let network = ConnectionNetworkController.Configuration(
            connectBaseURL: url.appendingPathComponent("v2"), locationBaseURL: url.appendingPathComponent("v1"),
            anonymousId: anonymousId, timeout: 10, callbackQueue: nil)
        let uploader = AnalyticsUploader(network: network, analyticsSwitch: analyticsSwitch)
        var configuration = ConnectButtonController.Configuration(
            networkController: ConnectionNetworkController(configuration: network),
            urlOpener: RecordingURLOpener(openSucceeds: false),
            webAuthenticationSession: RecordingWebSession())
        configuration.analyticsUploader = uploader
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(),
            connectionConfiguration: ConnectionConfiguration(
                connectionId: "gx-weekly-deals", suggestedUserEmail: "",
                credentialProvider: ConnectionCredentials(partnerBackend: PartnerBackend { nil }),
                redirectURL: URL(string: "groceryexpress://connect_callback")!),
            delegate: nil, configuration: configuration)
        var events = controller.events().makeAsyncIterator()
        while let event = await events.next() {
            if case .impression = event.kind { break }
        }
        controller.toggle()
        controller.confirmEmail("someone.new@example.com")
        while let event = await events.next() {
            if case .userIdentified = event.kind { break }
        }
        controller.cancelActivation()
        await controller.waitForAnalytics()
        return uploader
    }

    static func recorded(_ url: URL, anonymousId: String) async throws -> [JSONValue] {
        let list = try await Client(base: url).get(
            "sandbox/sdk_events", query: ["anonymous_id": anonymousId], serviceKey: SandboxTest.serviceKey
        ).json
        return list["data"]?.arrayValue ?? []
    }

    @Test func controllerEventsReachTheSandboxOverHTTP() async throws {
        try await withSandbox { url, _ in
            let anonymousId = "e2e-\(UUID().uuidString)"
            let uploader = try await Self.driveController(
                url: url, anonymousId: anonymousId, analyticsSwitch: AnalyticsSwitch())
            for _ in 0..<10 where await !uploader.pendingEvents.isEmpty {
                await uploader.flush()
                await uploader.waitUntilIdle()
            }
            #expect(await uploader.pendingEvents.isEmpty)
            let events = try await Self.recorded(url, anonymousId: anonymousId)
            #expect(
                events.map { $0["name"]?.stringValue ?? "" } == [
                    "sdk.impression", "sdk.click", "sdk.impression", "sdk.click",
                ])
            #expect(events[0]["properties"]?["object_type"] == "connection")
            #expect(events[0]["properties"]?["object_id"] == "gx-weekly-deals")
            #expect(events[0]["properties"]?["location_type"] == "connect_button")
            #expect(events[1]["properties"]?["location_id"] == "gx-weekly-deals")
            #expect(events[2]["properties"]?["object_type"] == "connection_email")
            #expect(events[3]["properties"]?["object_type"] == "connection_email")
            #expect(events.allSatisfy { $0["platform"] != nil && $0["sdk_version"] != nil })
            let text = JSONValue.array(events).serialized()
            #expect(!text.contains("example.com"), "no email is ever sent")
        }
    }

    @Test func optOutSendsNothingAndDropsTheQueue() async throws {
        try await withSandbox { url, _ in
            let anonymousId = "e2e-\(UUID().uuidString)"
            let analyticsSwitch = AnalyticsSwitch()
            let uploader = try await Self.driveController(
                url: url, anonymousId: anonymousId, analyticsSwitch: analyticsSwitch)
            #expect(await uploader.pendingEvents.count == 4)
            analyticsSwitch.isEnabled = false
            #expect(await uploader.pendingEvents.isEmpty, "turning analytics off drops what is queued at once")
            await uploader.track(.pageView(connectionId: "gx-weekly-deals", at: Date()))
            await uploader.flush()
            await uploader.waitUntilIdle()
            #expect(await uploader.pendingEvents.isEmpty)
            #expect(try await Self.recorded(url, anonymousId: anonymousId).isEmpty)
        }
    }

    @Test func staticSwitchIsTheSharedSwitch() async throws {
        let value = false
        let before = ConnectButtonController.analyticsEnabled
        defer { ConnectButtonController.analyticsEnabled = before }
        let uploader = AnalyticsUploader(
            network: .init(connectBaseURL: URL(string: "http://127.0.0.1:9")!, anonymousId: "static"),
            analyticsSwitch: .shared)
        ConnectButtonController.analyticsEnabled = true
        await uploader.track(.pageView(connectionId: "c", at: Date()))
        #expect(await uploader.pendingEvents.count == 1)
        ConnectButtonController.analyticsEnabled = value
        #expect(AnalyticsSwitch.shared.isEnabled == value)
        #expect(await uploader.pendingEvents.isEmpty)
    }

    @Test func funnelEventsMapToTheEventsOfSpec53() throws {
        let json = """
            {"type":"connection","id":"c1","name":"n","description":"d","url":"https://ifttt.com/c1","user_status":"enabled",
             "services":[{"service_id":"s","service_name":"S","service_short_name":"s","monochrome_icon_url":"https://x/i.png",
                          "brand_color":"#112233","url":"https://x","is_primary":true}]}
            """
        let data = Data(json.utf8)
        let connection = try Connection.decode(from: data)
        #expect(connection.status == .enabled)
        let time = Date(timeIntervalSince1970: 1)
        let created = ConnectButtonController.analyticsEvents(
            for: .activated, connection: connection, connectionId: "c1",
            priorStatus: .initial, hostName: nil, at: time)
        #expect(created.map(\.name) == [AnalyticsEvent.Name.stateChange, .pageViewed])
        #expect(created.first?.state == .created)
        let enabled = ConnectButtonController.analyticsEvents(
            for: .activated, connection: connection, connectionId: "c1",
            priorStatus: .disabled, hostName: nil, at: time)
        #expect(enabled.first?.state == .enabled)
        #expect(
            ConnectButtonController.analyticsEvents(
                for: .stepTimedOut, connection: connection, connectionId: "c1",
                hostName: nil, at: time
            ).isEmpty)
    }
}
