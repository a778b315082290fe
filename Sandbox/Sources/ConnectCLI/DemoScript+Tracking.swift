import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Sandbox) import IFTTTConnectSDK

extension DemoScript {
    /// Step 6: the SDK's analytics reach the sandbox over HTTP, and nothing does after the opt-out.
    func trackingSteps(_ steps: DemoSteps) async {
        steps.section("6. Analytics (POST /v2/sdk/events)")
        var connection: Connection?
        await steps.check("fetch gx-weekly-deals for the events") {
            let fetched = try await controller.fetchConnection(
                for: "gx-weekly-deals", credentialProvider: ConnectionCredentials.anonymous)
            connection = fetched
            return "\"\(fetched.name)\""
        }
        guard let connection else { return }
        let now = Date()
        let events: [AnalyticsEvent] = [
            .impression(of: connection, hostName: "Grocery Express", at: now),
            .click(.connection(connection), connectionId: connection.id, at: now),
            .stateChange(of: connection, to: .created, at: now),
        ]
        for (title, enabled) in [("three events are recorded", true), ("opt-out: queued events never leave", false)] {
            await steps.check(title) {
                let anonymousId = UUID().uuidString
                let network = ConnectionNetworkController.Configuration(
                    transport: URLSessionTransport(), connectBaseURL: root.appendingPathComponent("v2"),
                    locationBaseURL: root.appendingPathComponent("v1"), anonymousId: anonymousId)
                let analyticsSwitch = AnalyticsSwitch()
                let uploader = AnalyticsUploader(network: network, analyticsSwitch: analyticsSwitch)
                for event in events { await uploader.track(event) }
                if !enabled { analyticsSwitch.isEnabled = false }
                await uploader.flush()
                await uploader.waitUntilIdle()
                let names = try await recordedEventNames(anonymousId: anonymousId)
                let expected = enabled ? events.map(\.name.rawValue) : []
                guard names == expected else {
                    throw DemoFailure("the sandbox recorded \(names), expected \(expected)")
                }
                return names.isEmpty ? "none recorded" : names.joined(separator: ", ")
            }
        }
    }

    /// The names of the events `GET /sandbox/sdk_events` lists for `anonymousId` (the listing needs a service key).
    private func recordedEventNames(anonymousId: String) async throws -> [String] {
        var components = URLComponents(
            url: root.appendingPathComponent("sandbox/sdk_events"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "anonymous_id", value: anonymousId)]
        guard let url = components?.url else { throw DemoFailure("bad listing URL") }
        // The SDK's transport, as every other step of the demo: its own session and timeout, no shared state.
        let request = HTTPRequest(
            method: "GET", url: url,
            headers: ["IFTTT-Service-Key": "sandbox-service-key-grocery-express", "Accept": "application/json"],
            timeout: 10)
        let response = try await URLSessionTransport().send(request)
        guard response.statusCode == 200 else {
            throw DemoFailure("GET /sandbox/sdk_events answered \(response.statusCode)")
        }
        let body = try JSONDecoder().decode(JSONValue.self, from: response.body)
        guard case .array(let items)? = body["data"] else {
            throw DemoFailure("unexpected listing body")
        }
        return items.compactMap { item -> String? in
            guard case .string(let name)? = item["name"] else { return nil }
            return name
        }
    }
}
