import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

@Suite("Sandbox: health, errors, persistence, seeds, faults, configuration")
struct SandboxInfrastructureTests {
    @Test func healthAndUnknownRoutes() async throws {
        try await SandboxTest.withDemo { client in
            let health = try await client.get("/health")
            #expect(health.status == 200)
            #expect(try health.json == ["status": "ok"])
            #expect(health.contentType?.hasPrefix("application/json") == true)

            for path in ["/nope", "/v2/nope", "/v2/connections"] {
                let unknown = try await client.get(path)
                #expect(unknown.status == 404, "\(path)")
                #expect(unknown.errorCode == "not_found", "\(path)")
                #expect(try unknown.json["type"] == "error")
            }
            // A documented path with another method is 405 with the path's methods (issue 30, as IFTTT answers).
            let delete = try await client.request("DELETE", "/v2/me")
            #expect(delete.status == 405)
            #expect(delete.headers.value(forHTTPHeaderField: "Allow") == "GET, HEAD")
        }
    }

    @Test func oversizedBodyIs413() async throws {
        try await SandboxTest.withDemo { client in
            let big = Data(repeating: UInt8(ascii: "a"), count: 1_048_576 + 10)
            let response = try await client.request(
                "PUT", "/v2/connections/gx-weekly-deals/user_connection", token: SandboxTest.aliceToken, body: big)
            #expect(response.status == 413)
            #expect(try response.json["type"] == "error")
            // The server still answers afterwards.
            #expect(try await client.get("/health").status == 200)
        }
    }

    @Test func stateSurvivesARestart() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let databasePath = directory.appendingPathComponent("nested/sandbox.sqlite").path
        let configuration = SandboxTest.configuration(databasePath: databasePath)

        let minted = try await SandboxServer.withRunning(configuration) { url in
            let client = Client(base: url)
            let disabled = try await client.post(
                "/v2/connections/gx-weekly-deals/disable", token: SandboxTest.aliceToken)
            #expect(disabled.status == 200)
            let minted = try await client.post(
                "/v2/user_token", query: ["user_id": "gx-user-1002", "access_token": "gx-access-token-bob"],
                serviceKey: SandboxTest.serviceKey)
            return try #require(try minted.json["user_token"]?.stringValue)
        }
        #expect(FileManager.default.fileExists(atPath: databasePath))

        try await SandboxServer.withRunning(configuration) { url in
            let client = Client(base: url)
            // The disable survived (the demo seed is not re-applied to a non-empty database) ...
            let json = try await client.get("/v2/connections/gx-weekly-deals", token: SandboxTest.aliceToken).json
            #expect(json["user_status"] == "disabled")
            #expect(json["enabled_count"] == 0)
            // ... and so did the minted token.
            #expect(try await client.get("/v2/me", token: minted).json["user_login"] == "bob")
        }
    }

    @Test func seedExampleFromTheDocsLoads() async throws {
        let file = SandboxTest.docsDirectory.appendingPathComponent("examples/seed-example.json")
        let seed = try SeedData.load(contentsOf: file)
        #expect(seed.connections.map(\.id) == ["acme-sunset-lights"])

        let configuration = SandboxTest.configuration(seedFile: file, seedsDemoData: false)
        try await SandboxServer.withRunning(configuration) { url in
            let client = Client(base: url)
            let response = try await client.get("/v2/connections/acme-sunset-lights", token: "example-user-token-erin")
            #expect(response.status == 200)
            let json = try response.json
            #expect(json["user_status"] == "enabled")
            let services = try #require(json["services"]?.arrayValue)
            #expect(services.map { $0["service_id"] } == ["acme_lights", "weather"])
            #expect(services[1]["color_icon_url"] == "https://example.com/icons/weather.png")
            #expect(services[0]["service_short_name"] == "Acme Lights")
            let userFeature = try #require(json["user_connection"]?["user_features"]?[0])
            #expect(userFeature["id"] == "erin-sunset-porch")  // deterministic id for a seed without ids
            #expect(userFeature["user_feature_triggers"]?[0]?["id"] == "erin-ft-sunset")
            #expect(userFeature["user_feature_triggers"]?[0]?["user_fields"]?[0]?["field_type"] == "LOCATION_POINT")

            // The demo data was not loaded.
            #expect(try await client.get("/v2/connections/gx-weekly-deals").status == 404)
            // The example's service key and partner account work.
            let token = try await client.post(
                "/v2/user_token", query: ["user_id": "acme-42", "access_token": "acme-access-token-erin"],
                serviceKey: "example-service-key-acme")
            #expect(token.status == 200)
            let options = try await client.get(
                "/v2/connections/acme-sunset-lights/actions/acme_lights.turn_on_light/field_options",
                query: ["user_id": "acme-42"], serviceKey: "example-service-key-acme")
            #expect(try options.json["options"]?["light"]?.arrayValue?.count == 2)
        }
    }

    @Test func seedFileUpsertsOnTopOfTheDemo() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("seed.json")
        let seed = """
            {"users": [{"id": "dave", "email": "dave@example.com", "tokens": ["token-dave"]}],
             "partner_accounts": [{"service_id": "grocery_express", "partner_user_id": "gx-user-1003",
                                   "access_token": "gx-access-token-dave", "user_id": "dave"}],
             "services": [{"id": "email", "name": "Mail", "brand_color": "#123456"}]}
            """
        try Data(seed.utf8).write(to: file)
        try await SandboxServer.withRunning(SandboxTest.configuration(seedFile: file)) { url in
            let client = Client(base: url)
            let me = try await client.get(
                "/v2/me", query: ["user_id": "gx-user-1003"],
                serviceKey: SandboxTest.serviceKey
            ).json
            #expect(me["user_login"] == "dave")
            let json = try await client.get("/v2/connections/gx-weekly-deals").json
            #expect(json["services"]?.first(where: "service_id", is: "email")?["service_name"] == "Mail")
            #expect(try await client.get("/v2/me", token: SandboxTest.aliceToken).json["user_login"] == "alice")
        }
    }

    @Test func badSeedFilesAreReported() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let missing = directory.appendingPathComponent("missing.json")
        #expect(throws: SandboxError.seedFileNotFound(path: missing.path)) {
            try SeedData.load(contentsOf: missing)
        }

        let notJSON = directory.appendingPathComponent("broken.json")
        try Data("{\"services\": [".utf8).write(to: notJSON)
        do {
            _ = try SeedData.load(contentsOf: notJSON)
            Issue.record("expected an error")
        } catch {
            guard case .malformedSeedFile(let path, let problem) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == notJSON.path)
            #expect(problem.contains("not valid JSON"))
            #expect(error.description.contains("broken.json"))
        }

        /// The problem `SeedData.load` reports for a seed file holding `text`, or `nil` (recorded) when it loads.
        func problem(ofSeed text: String, named name: String) throws -> String? {
            let file = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            do {
                _ = try SeedData.load(contentsOf: file)
                Issue.record("expected an error for \(name)")
            } catch {
                guard case .malformedSeedFile(_, let problem) = error else {
                    Issue.record("unexpected \(error)")
                    return nil
                }
                return problem
            }
            return nil
        }

        let wrongShape = try problem(
            ofSeed: #"{"services": [{"id": "x", "name": "X", "brand_color": 5}]}"#, named: "shape.json")
        #expect(wrongShape?.contains("services[0].brand_color") == true)

        // A step filed in the wrong list names the list, the index and the id key it lacks.
        let wrongKind = try problem(
            ofSeed: #"""
                {"connections": [{"id": "c", "name": "C", "primary_service_id": "grocery_express", "features": [
                  {"id": "f", "title": "F", "feature_triggers": [
                    {"id": "t1", "trigger_id": "t", "service_id": "grocery_express"},
                    {"id": "a1", "action_id": "a", "service_id": "grocery_express"}]}]}]}
                """#, named: "kind.json")
        #expect(wrongKind?.contains("connections[0].features[0].feature_triggers[1]") == true, "\(wrongKind ?? "")")
        #expect(wrongKind?.contains(#"a step in feature_triggers needs "trigger_id""#) == true, "\(wrongKind ?? "")")
        let wrongUserKind = try problem(
            ofSeed: #"""
                {"user_connections": [{"user_id": "alice", "connection_id": "gx-weekly-deals", "user_features": [
                  {"feature_id": "f", "user_feature_queries": [{"feature_action_id": "a1"}]}]}]}
                """#, named: "user-kind.json")
        #expect(wrongUserKind?.contains("user_features[0].user_feature_queries[0]") == true, "\(wrongUserKind ?? "")")
        #expect(
            wrongUserKind?.contains(#"an entry of user_feature_queries needs "feature_query_id""#) == true,
            "\(wrongUserKind ?? "")")

        let inconsistent = directory.appendingPathComponent("inconsistent.json")
        try Data(#"{"user_connections": [{"user_id": "nobody", "connection_id": "gx-weekly-deals"}]}"#.utf8)
            .write(to: inconsistent)
        await #expect(throws: SandboxError.self) {
            try await SandboxServer.withRunning(SandboxTest.configuration(seedFile: inconsistent)) { _ in }
        }
        do {
            try await SandboxServer.withRunning(SandboxTest.configuration(seedFile: inconsistent)) { _ in }
        } catch let error as SandboxError {
            #expect(error.description.contains("nobody"))
            #expect(error.description.contains("inconsistent.json"))
        }

        let badColor = SeedData(services: [.init(id: "s", name: "S", brandColor: "red")])
        #expect(throws: SandboxError.self) { try badColor.validate(source: "test") }
    }

    @Test func faultInjectionIsReproducible() async throws {
        func statuses(seed: UInt64) async throws -> [Int] {
            let configuration = SandboxTest.configuration(failRate: 0.5, randomSeed: seed)
            return try await SandboxServer.withRunning(configuration) { url in
                let client = Client(base: url)
                var statuses: [Int] = []
                for _ in 0..<24 {
                    let response = try await client.get("/v2/me")
                    if response.status == 503 {
                        #expect(response.errorCode == "service_unavailable")
                    }
                    statuses.append(response.status)
                }
                // Health checks are never failed.
                for _ in 0..<5 { #expect(try await client.get("/health").status == 200) }
                return statuses
            }
        }
        let first = try await statuses(seed: 42)
        let second = try await statuses(seed: 42)
        #expect(first == second)
        #expect(first.contains(503) && first.contains(200))
        #expect(Set(first).isSubset(of: [200, 503]))
        let other = try await statuses(seed: 7)
        #expect(other != first)
    }

    @Test func failRateOneFailsEveryAPIRequest() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration(failRate: 1)) { url in
            let client = Client(base: url)
            let connection = try await client.get("/v2/connections/gx-weekly-deals")
            #expect(connection.status == 503)
            #expect(connection.errorCode == "service_unavailable")
            #expect(try await client.get("/v2/account/find", query: ["email": "alice@example.com"]).status == 503)
            #expect(try await client.get("/health").status == 200)
        }
    }

    @Test func latencyIsAdded() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration(latency: 150)) { url in
            let client = Client(base: url)
            let clock = ContinuousClock()
            let api = try await clock.measure { _ = try await client.get("/v2/me") }
            #expect(api >= .milliseconds(150))
        }
    }

    @Test func badConfigurationIsRejected() async throws {
        func problem(_ configuration: SandboxConfiguration) -> SandboxError? {
            do {
                try configuration.validate()
                return nil
            } catch {
                return error
            }
        }
        #expect(problem(SandboxConfiguration()) == nil)
        let failRate = problem(SandboxConfiguration(failRate: 1.5))
        #expect(failRate == .invalidConfiguration(parameter: "failRate", message: "must be between 0 and 1 (got 1.5)"))
        #expect(problem(SandboxConfiguration(failRate: -0.1)) != nil)
        #expect(problem(SandboxConfiguration(failRate: .nan)) != nil)
        guard case .invalidConfiguration("latency", _) = problem(SandboxConfiguration(latency: -1)) else {
            Issue.record("negative latency accepted")
            return
        }
        guard case .invalidConfiguration("port", let message) = problem(SandboxConfiguration(port: 70000)) else {
            Issue.record("port 70000 accepted")
            return
        }
        #expect(message.contains("70000"))
        #expect(problem(SandboxConfiguration(port: -1)) != nil)
        #expect(problem(SandboxConfiguration(host: "")) != nil)

        await #expect(throws: SandboxError.self) {
            try await SandboxServer.withRunning(SandboxTest.configuration(failRate: 2)) { _ in }
        }
    }

    @Test func defaultDatabasePath() {
        #if os(Linux)
        #expect(
            SandboxConfiguration.defaultDatabasePath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
                == "/data/ifttt-connect/sandbox.sqlite")
        #expect(
            SandboxConfiguration.defaultDatabasePath(environment: ["HOME": "/home/u"])
                == "/home/u/.local/share/ifttt-connect/sandbox.sqlite")
        #endif
        #expect(SandboxConfiguration(databasePath: "/tmp/x.sqlite").resolvedDatabasePath == "/tmp/x.sqlite")
    }

    @Test func portInUseIsReported() async throws {
        try await SandboxTest.withDemo { client in
            let port = try #require(client.base.port)
            await #expect(throws: SandboxError.self) {
                try await SandboxServer.withRunning(
                    SandboxConfiguration(
                        port: port, databasePath: SandboxConfiguration.inMemoryDatabasePath,
                        logger: SandboxTest.logger)
                ) { _ in }
            }
        }
    }

    @Test func demoSeedRoundTripsThroughTheStore() async throws {
        let demo = try SeedData.demo()
        #expect(demo.services.map(\.id) == ["grocery_express", "location", "if_notifications", "email"])
        #expect(demo.users.map(\.id) == ["alice", "bob", "carol"])
        let store = try SandboxStore(path: SandboxConfiguration.inMemoryDatabasePath)
        #expect(try await store.isEmpty())
        try await store.load(demo, source: "demo")
        let exported = try await store.exportSeed()
        #expect(exported.connections.count == 4)
        #expect(exported.userConnections.count == 3)
        let other = try SandboxStore(path: SandboxConfiguration.inMemoryDatabasePath)
        try await other.load(exported, source: "export")
        #expect(try await other.exportSeed() == exported)
        // The export is valid seed JSON.
        let reparsed = try SeedData.decode(exported.jsonData(), path: "export")
        #expect(reparsed == exported)
    }
}
