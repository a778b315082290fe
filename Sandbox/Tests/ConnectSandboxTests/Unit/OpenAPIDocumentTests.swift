@testable import ConnectSandbox
import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

/// The sandbox is checked against its OpenAPI document (`Sandbox/openapi.json`): the route table here, the answers by
/// schemathesis (`scripts/checks/68-schemathesis.sh`).
@Suite("The OpenAPI document and the sandbox's routes")
struct OpenAPIDocumentTests {
    /// Routes the sandbox serves that IFTTT's API does not have, each with its reason.
    static let sandboxOnly: [String: String] = [
        "GET /openapi.json": "this document",
        "GET /sandbox/sdk_events": "lists the SDK's analytics events",
        "GET /sandbox/dispatches": "lists what IFTTT would have sent services (runs, trigger tests)",
        "POST /sandbox/reset": "puts the state back to the seed between test runs",
        "GET /connect/{}/complete": "where a Connect URL without redirect_uri ends (IFTTT ends on its own site)",
    ]
    /// Route prefixes outside the API: the activation pages' form steps, the partner's pages, assets, the playground.
    static let otherPrefixes = ["/access/api/{}/", "/partner/", "/assets/", "/playground"]

    static func normalized(_ path: String) -> String {
        path.replacingOccurrences(of: #"\{[^}]*\}"#, with: "{}", options: .regularExpression)
    }

    static func document() throws -> JSONValue {
        let data = try #require(OpenAPIRoutes.document)
        return try JSONValue.decodeSorted(from: data)
    }

    /// "METHOD /path" of every operation of the document.
    static func operations(_ document: JSONValue) throws -> Set<String> {
        let paths = try #require(document["paths"]?.objectValue)
        var out = Set<String>()
        for (path, item) in paths.members {
            for method in ["get", "put", "post", "delete", "patch"] where item[method] != nil {
                out.insert("\(method.uppercased()) \(normalized(path))")
            }
        }
        return out
    }

    static func routes() throws -> Set<String> {
        let store = try SandboxStore(path: SandboxConfiguration.inMemoryDatabasePath)
        let router = SandboxServer.makeRouter(
            environment: RouteEnvironment(store: store, urls: SandboxURLs(), logger: SandboxTest.logger),
            injector: FaultInjector(latency: 0, failRate: 0, seed: 1))
        return Set(router.routes.map { "\($0.method) \(normalized($0.path.description))" })
    }

    @Test func everyDocumentedOperationIsServedAndEveryAPIRouteIsDocumented() throws {
        let documented = try Self.operations(try Self.document())
        let served = try Self.routes()
        #expect(documented.subtracting(served).sorted() == [], "documented but not served")
        let undocumented = served.subtracting(documented).filter { route in
            let path = String(route.drop { $0 != " " }.dropFirst())
            return Self.sandboxOnly[route] == nil && !Self.otherPrefixes.contains { path.hasPrefix($0) }
        }
        #expect(undocumented.sorted() == [], "served but neither documented nor listed as sandbox-only")
        #expect(documented.count >= 27)
    }

    @Test func everyOperationCitesItsSource() throws {
        let document = try Self.document()
        #expect(document["openapi"] == "3.1.0")
        let paths = try #require(document["paths"]?.objectValue)
        for (path, item) in paths.members {
            for method in ["get", "put", "post"] {
                guard let operation = item[method] else { continue }
                let description = operation["description"]?.stringValue ?? ""
                #expect(description.contains("Source: "), "\(method) \(path)")
                #expect(operation["x-source"]?.objectValue?.count ?? 0 > 0, "\(method) \(path)")
                #expect(operation["responses"]?.objectValue?.count ?? 0 > 0, "\(method) \(path)")
            }
        }
    }

    @Test func theSandboxServesTheDocument() async throws {
        try await SandboxTest.withDemo { client in
            let response = try await client.get("/openapi.json")
            #expect(response.status == 200)
            #expect(response.contentType == "application/json; charset=utf-8")
            #expect(response.data == OpenAPIRoutes.document)
        }
        // The committed Sandbox/openapi.json is the bundled document.
        let committed = SandboxTest.repository("Sandbox/openapi.json")
        #expect(try Data(contentsOf: committed) == OpenAPIRoutes.document)
    }

    /// The document's pattern for `occurred_at` admits exactly the strings the server reads (a JSON Schema pattern
    /// matches the whole string here: it is anchored at both ends): the shapes the SDKs send, the calendar's edges,
    /// and 20,000 strings drawn near the grammar. Before, the pattern admitted only days 1-28 and the server read
    /// strings through `DateFormatter`s the pattern did not describe, so schemathesis found strings one took and the
    /// other refused.
    @Test func theOccurredAtPatternAdmitsExactlyWhatTheServerReads() throws {
        let document = try Self.document()
        let pattern = try #require(
            document["components"]?["schemas"]?["LocationEvent"]?["properties"]?["occurred_at"]?["pattern"]?
                .stringValue)
        let regex = try NSRegularExpression(pattern: pattern)
        func patternAdmits(_ text: String) -> Bool {
            let whole = NSRange(text.startIndex..., in: text)
            return regex.firstMatch(in: text, range: whole).map { $0.range == whole } ?? false
        }
        var samples = [
            "2021-10-25T18:03:20+0000", "2020-12-08T10:15:30-08:00", "2020-12-08T10:15Z", "2024-02-29T00:00:00Z",
            "2000-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-02-29T00:00:00Z", "0004-02-29T00:00:00Z",
            "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999+23:59", "2026-04-31T00:00:00Z",
            "2026-11-20T10:00:00.1234567890Z", "2026-11-20T10:00:00Z\n", "2026-11-20T10:00+00:00", "",
        ]
        var random = SeededRandom(seed: 37)
        func pick(_ choices: [String]) -> String { choices[Int(random.next() % UInt64(choices.count))] }
        func number(_ range: ClosedRange<Int>, width: Int) -> String {
            let value = range.lowerBound + Int(random.next() % UInt64(range.count))
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        for _ in 0..<20_000 {
            let year = pick([
                "0000", "0001", "1900", "2000", "2024", "2026", "2100", "0400", number(0...9999, width: 4),
            ])
            let date = "\(year)-\(number(0...13, width: 2))-\(number(0...32, width: 2))"
            let time = "\(number(0...24, width: 2)):\(number(0...60, width: 2))"
            let seconds = pick([
                "", ":\(number(0...60, width: 2))", ":00.\(number(0...999, width: 3))", ":00.5", ":00.",
            ])
            let zone = pick(["Z", "+0000", "-08:00", "+2400", "+05:60", "+05:3", "", " "])
            samples.append("\(date)\(pick(["T", "t", " "]))\(time)\(seconds)\(zone)")
        }
        var admitted = 0
        for text in samples {
            let read = LocationEventRoutes.parseTimestamp(text) != nil
            #expect(patternAdmits(text) == read, "\(text): the pattern says \(patternAdmits(text)), the server \(read)")
            if read { admitted += 1 }
        }
        // Both sides of the line are exercised.
        #expect(admitted > 500)
        #expect(samples.count - admitted > 500)
    }

    /// The legacy applet switches read `{"user_id": ...}` from a JSON body and ignore JSON that is not an object, as
    /// the document says; bytes that are not JSON at all are refused as every JSON body of the API is. Before, they
    /// were ignored and the switch answered 200, a request the document refuses (schemathesis's
    /// negative_data_rejection).
    @Test func theLegacyAppletSwitchesRefuseABodyThatIsNotJSON() async throws {
        try await SandboxTest.withDemo { client in
            let path = "/v1/services/grocery_express/applets/gx-weekly-deals/enable"
            let garbage = try await client.post(path, token: SandboxTest.aliceToken, body: Data([0x00, 0x7B]))
            #expect(garbage.status == 400, "\(String(decoding: garbage.data, as: UTF8.self))")
            #expect(garbage.errorCode == "invalid_parameters")
            for body in ["5", "[1]", "null", "\"text\"", "  "] {
                let ignored = try await client.post(path, token: SandboxTest.aliceToken, body: Data(body.utf8))
                #expect(ignored.status == 200, "\(body): \(String(decoding: ignored.data, as: UTF8.self))")
            }
            let withUser = try await client.post(
                path, serviceKey: SandboxTest.serviceKey, body: Data(#"{"user_id": "gx-user-1001"}"#.utf8))
            #expect(withUser.status == 200, "\(String(decoding: withUser.data, as: UTF8.self))")
        }
    }

    /// `PUT .../user_connection` reads its body as the document's `UserConnectionUpdate` states it: members the
    /// document lets a client omit or send as null are taken, a user step naming a second kind of feature step, or one
    /// filed in another kind's list, is refused. Before, the document required `enabled`, `user_fields` and `value` and
    /// said nothing of the step kinds, so schemathesis found bodies each side judged differently.
    @Test func theUserConnectionUpdateIsReadAsTheDocumentStatesIt() async throws {
        let document = try Self.document()
        let update = try #require(document["components"]?["schemas"]?["UserFeatureUpdate"])
        #expect(update["required"] == ["feature_id"])
        let query = try #require(document["components"]?["schemas"]?["UserQueryUpdate"])
        #expect(query["required"] == ["feature_query_id"])
        #expect(query["properties"]?["feature_trigger_id"]?["type"] == "null")
        try await SandboxTest.withDemo { client in
            func put(_ body: String) async throws -> SandboxResponse {
                try await client.request(
                    "PUT", "/v2/connections/gx-weekly-deals/user_connection", query: ["user_id": "gx-user-1001"],
                    serviceKey: SandboxTest.serviceKey, body: Data(body.utf8))
            }
            let nulls = try await put(
                #"{"user_features": [{"feature_id": "weekly-deals-email", "enabled": null, "user_fields": null, "#
                    + #""user_feature_triggers": [{"feature_trigger_id": "ft-weekly-deals", "feature_query_id": null, "#
                    + #""user_fields": [{"field_id": "store", "value": "store-2001-mission", "field_type": null}]}], "#
                    + #""user_feature_queries": null, "user_feature_actions": null}]}"#)
            #expect(nulls.status == 200, "\(String(decoding: nulls.data, as: UTF8.self))")
            let twoKinds = try await put(
                #"{"user_features": [{"feature_id": "weekly-deals-email", "user_feature_triggers": "#
                    + #"[{"feature_trigger_id": "ft-weekly-deals", "feature_action_id": "x"}]}]}"#)
            #expect(twoKinds.status == 400, "\(String(decoding: twoKinds.data, as: UTF8.self))")
            let wrongList = try await put(
                #"{"user_features": [{"feature_id": "weekly-deals-email", "user_feature_triggers": "#
                    + #"[{"feature_query_id": "ft-weekly-deals"}]}]}"#)
            #expect(wrongList.status == 400, "\(String(decoding: wrongList.data, as: UTF8.self))")
        }
    }
}
