import Foundation

/// Locates the repository's fixtures (`Tests/Fixtures`, see its `INDEX.md`).
enum Fixtures {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }  // Tests/IFTTTConnectSDKTests/Fixtures.swift -> Tests
        return url.appendingPathComponent("Fixtures")
    }()

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func allNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
    }
}
