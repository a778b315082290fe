import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// `POST /v2/sdk/events` (the SDK's analytics, spec §5) and `GET /sandbox/sdk_events` (what was recorded, for
/// tests and demos: a service key, `IFTTT-Service-Key`, lists the events about its own service's Connections, those
/// whose `properties.object_id` names one, and those about no known Connection; never another service's: issue 30,
/// hole 8).
///
/// Posting needs no credentials, as IFTTT's does not, so it is bounded: at most ``maximumProperties`` properties of
/// at most ``maximumPropertyLength`` characters each per event, and the sandbox keeps the newest
/// ``SandboxStore/maximumStoredSDKEvents`` events.
///
/// The body must be `{"events": [event, …]}` with 1…100 events, each
/// `{"name": "sdk.<pageviewed|statechange|click|impression>", "timestamp": "<epoch ms as a string>",
/// "properties": {string: string}}`; `properties.state`, when present, must be one of the states of §5.2. The
/// `IFTTT-SDK-Anonymous-Id` header is required. A body that is not JSON is a 400, one that breaks the schema a 422
/// listing every problem; valid batches are stored whole and answered with 204.
struct SDKEventRoutes: SandboxRoutes {
    let env: RouteEnvironment

    /// The most events accepted in one request (the SDK sends at most 10).
    static let maximumBatch = 100
    /// The most properties of one event (the SDK sends about ten).
    static let maximumProperties = 32
    /// The longest property name or value, in characters.
    static let maximumPropertyLength = 256
    /// Valid event names.
    static let names: Set<String> = ["sdk.pageviewed", "sdk.statechange", "sdk.click", "sdk.impression"]
    /// Valid `state` values (spec §5.2).
    static let states: Set<String> = [
        "created", "signed_in", "connected", "updated", "enabled", "disabled", "deleted",
        "services_checked", "config_checked", "verified",
    ]

    static let anonymousIdHeader = HeaderName("IFTTT-SDK-Anonymous-Id")!
    static let versionHeader = HeaderName("IFTTT-SDK-Version")!
    static let platformHeader = HeaderName("IFTTT-SDK-Platform")!

    func register(on router: SandboxRouter) {
        router.post("/v2/sdk/events") { request, _ in
            var request = request
            guard let anonymousId = request.header(Self.anonymousIdHeader) else {
                throw APIError.badRequest(
                    "The IFTTT-SDK-Anonymous-Id header is required.",
                    details: [.init(parameter: "IFTTT-SDK-Anonymous-Id", message: "is required")])
            }
            let data = try await request.bodyData()
            let body: JSONValue
            do {
                body = try JSONValue.decodeSorted(from: data)
            } catch {
                throw APIError.badRequest("The request body is not JSON.")
            }
            let events = try Self.validate(body)
            try await env.store.recordSDKEvents(
                events, anonymousId: anonymousId,
                sdkVersion: request.header(Self.versionHeader),
                platform: request.header(Self.platformHeader))
            return JSONResponse.empty()
        }

        router.get("/sandbox/sdk_events") { request, _ in
            // A service key lists its own service's events only: those about its Connections (`object_id`).
            let serviceId = try await env.authenticator.authenticate(request, policy: .serviceOnly).service?.id ?? ""

            let anonymousId = request.query("anonymous_id")
            let name = request.query("name")
            let page = try ListPage(request, kind: "sdk_events")  // `limit`, `cursor`: see ListPage
            let store = env.store
            guard let limit = page.limit else {
                return try await JSONResponse.streamedList(
                    fetch: { after in
                        try await store.sdkEvents(
                            anonymousId: anonymousId, name: name, serviceId: serviceId, after: after,
                            limit: ListPage.chunkSize)
                    },
                    render: { $0.json.serialized() })
            }
            let records = try await store.sdkEvents(
                anonymousId: anonymousId, name: name, serviceId: serviceId, after: page.after, limit: limit)
            return JSONResponse.page(
                records.items.map(\.json), next: records.nextAfter, kind: "sdk_events", paged: true)
        }
    }

    /// Checks a body against the schema of spec §5.2 and returns its events, or throws a 422 listing every problem.
    static func validate(_ body: JSONValue) throws -> [IncomingSDKEvent] {
        guard case .object = body, let list = body["events"] else {
            throw APIError.unprocessable(
                "The body must be an object with an events array.",
                details: [.init(parameter: "/events", message: "is required")])
        }
        guard case .array(let items) = list else {
            throw APIError.unprocessable(
                "events must be an array.", details: [.init(parameter: "/events", message: "is not an array")])
        }
        guard (1...maximumBatch).contains(items.count) else {
            throw APIError.unprocessable(
                "events must hold 1 to \(maximumBatch) events.",
                details: [.init(parameter: "/events", message: "has \(items.count) events")])
        }
        var problems: [APIError.Detail] = []
        var events: [IncomingSDKEvent] = []
        for (index, item) in items.enumerated() {
            let path = "/events/\(index)"
            func problem(_ key: String, _ message: String) {
                problems.append(.init(parameter: "\(path)/\(key)", message: message))
            }
            guard case .object = item else {
                problems.append(.init(parameter: path, message: "is not an object"))
                continue
            }
            let name = item["name"]?.stringValue
            if name == nil {
                problem("name", "is required and must be a string")
            } else if let name, !names.contains(name) {
                problem("name", "is not one of \(names.sorted().joined(separator: ", "))")
            }
            let timestamp = item["timestamp"]?.stringValue
            if let timestamp, !timestamp.isEmpty, timestamp.allSatisfy(\.isASCII), timestamp.allSatisfy(\.isNumber) {
            } else {
                problem("timestamp", "must be epoch milliseconds as a string of digits")
            }
            var properties: [String: String] = [:]
            switch item["properties"] {
            case .object(let object)?:
                if object.members.count > maximumProperties {
                    problem("properties", "has more than \(maximumProperties) members")
                }
                for member in object.members {
                    if member.key.count > maximumPropertyLength
                        || (member.value.stringValue?.count ?? 0) > maximumPropertyLength
                    {
                        problem(
                            "properties/\(RequestBody.pointerEscaped(String(member.key.prefix(64))))",
                            "is longer than \(maximumPropertyLength) characters")
                        continue
                    }
                    guard let value = member.value.stringValue else {
                        problem("properties/\(RequestBody.pointerEscaped(member.key))", "must be a string")
                        continue
                    }
                    properties[member.key] = value
                }
                if let state = properties["state"], !states.contains(state) {
                    problem("properties/state", "is not a known state")
                }
            case nil:
                problem("properties", "is required")
            default:
                problem("properties", "must be an object")
            }
            if let name, let timestamp {
                events.append(IncomingSDKEvent(name: name, timestamp: timestamp, properties: properties))
            }
        }
        guard problems.isEmpty else { throw APIError.unprocessable("Some events are invalid.", details: problems) }
        return events
    }
}
