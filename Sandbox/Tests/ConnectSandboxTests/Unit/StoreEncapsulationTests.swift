import Foundation
import Testing

/// `SandboxStore.database` belongs to `Store/`: the routes, the seed code and the tests go through the store's methods,
/// as GRDB's own demo keeps its writer private. Swift has no access level for a folder, so this test is the fence: it
/// fails on any use of the database outside `Sandbox/Sources/ConnectSandbox/Store/`.
@Suite("The store's database stays in Store/")
struct StoreEncapsulationTests {
    @Test func nothingOutsideStoreTouchesTheDatabase() throws {
        // `database.read`, `database.write`, `store.database`, ...: a use of the store's database connection.
        let use = #/(\bdatabase\s*\.\s*(read|write|add|close)\b)|(\.database\b(?!\())/#
        let roots = ["Sandbox/Sources", "Sandbox/Tests", "Sandbox/Benchmarks"].map(SandboxTest.repository)
        let store = SandboxTest.repository("Sandbox/Sources/ConnectSandbox/Store").path + "/"
        var offenders: [String] = []
        var scanned = 0
        for root in roots {
            guard let files = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let relative as String in files where relative.hasSuffix(".swift") {
                let path = root.appendingPathComponent(relative).path
                guard !path.hasPrefix(store), !path.contains("/.build/"), path != #filePath else { continue }
                scanned += 1
                let text = try String(contentsOfFile: path, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains(use) && !line.contains("case .database") {
                    offenders.append("\(relative):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(scanned > 50)
        #expect(offenders.isEmpty, "the store's database used outside Store/:\n\(offenders.joined(separator: "\n"))")
    }
}
