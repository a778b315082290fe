import Foundation
import TestSupport

/// Locates the repository's fixtures (`Tests/Fixtures`, see its `INDEX.md`).
enum Fixtures {
    static let directory = Repository.url("Tests/Fixtures")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func allNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
    }
}
