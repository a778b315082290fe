import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// The launch path reads the registry with the SDK's JSON parser; it must read exactly what `JSONDecoder` reads.
@Suite("Connections registry at launch")
struct RegistryLoadTests {
    @Test func theFastReadEqualsTheCodableRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var registry = ConnectionsRegistry(directory: directory)
        try registry.add(ids: ["never_fetched"])
        var fetched = StoredConnection(id: "fetched")
        fetched.status = "disabled"
        fetched.hasLocationTriggers = false
        try registry.update(fetched)
        var withRegions = StoredConnection(id: "regions")
        withRegions.hasLocationTriggers = true
        withRegions.regions = [
            .init(
                triggerSubscriptionId: "a_b", latitude: 37.123456789, longitude: -122.5, radius: 150.25, transitions: 3),
            .init(triggerSubscriptionId: "c", latitude: -1e-7, longitude: 179.9999, radius: 100, transitions: 1),
        ]
        try registry.update(withRegions)
        try registry.setActive(true)

        let data = try #require(try ProtectedFile.read(registry.url))
        let fast = try #require(ConnectionsRegistry.File(fast: data))
        let codable = try JSONDecoder().decode(ConnectionsRegistry.File.self, from: data)
        #expect(fast.connections == codable.connections)
        #expect(fast.active == codable.active && fast.version == codable.version)
        var reloaded = ConnectionsRegistry(directory: directory)
        reloaded.load()
        #expect(reloaded.all == registry.all)
        #expect(reloaded.isActive)
    }

    @Test func anUnexpectedShapeFallsBackToTheCodableRead() throws {
        // A boolean written as a string: the fast read declines, JSONDecoder decides (and rejects it).
        let odd = Data(#"{"version":1,"active":"true","connections":[]}"#.utf8)
        #expect(ConnectionsRegistry.File(fast: odd) == nil)
        #expect(ConnectionsRegistry.File(fast: Data("not json".utf8)) == nil)
        let extra = Data(
            #"{"version":1,"active":false,"connections":[{"id":"x","status":"enabled","regions":[],"future":1}]}"#.utf8)
        #expect(ConnectionsRegistry.File(fast: extra)?.connections.map(\.id) == ["x"])
    }
}
