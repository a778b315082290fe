import Foundation

/// Locates the shared fixtures (`../shared/fixtures` beside the repository).
enum Fixtures {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }   // Tests/IFTTTConnectSDKTests/Fixtures.swift -> repo
        return url.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }()

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func allNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
    }
}
