import Foundation
import Testing
import TestSupport

/// A tiny file-based snapshot helper. References live in `__Snapshots__/<suite>/<name>` beside this file.
///
/// * A missing reference is recorded and the test fails (run again to pass).
/// * A different output fails the test and writes the actual output to `<name>.actual` in the temporary
///   directory for diffing.
/// * `SNAPSHOT_RECORD=1 swift test` re-records every reference (and fails, so a recording run is never green).
enum SnapshotAssertion {
    static let root = Repository.url("Tests/IFTTTConnectSDKTests/__Snapshots__")

    static var isRecording: Bool { ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" }

    static func assertMatches(
        _ actual: String, named name: String, in suite: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let directory = root.appendingPathComponent(suite, isDirectory: true)
        let url = directory.appendingPathComponent(name)
        let existing = try? String(contentsOf: url, encoding: .utf8)
        if isRecording || existing == nil {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            do {
                try actual.write(to: url, atomically: true, encoding: .utf8)
                Issue.record(
                    "Recorded snapshot \(suite)/\(name); run the tests again without SNAPSHOT_RECORD",
                    sourceLocation: sourceLocation)
            } catch {
                Issue.record("Could not record \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let existing, existing != actual else { return }
        let actualURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(suite)-\(name).actual")
        try? actual.write(to: actualURL, atomically: true, encoding: .utf8)
        let old = existing.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
            zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
        let expected = line < old.count ? String(old[line]) : "<end>"
        let got = line < new.count ? String(new[line]) : "<end>"
        Issue.record(
            """
            Snapshot \(suite)/\(name) differs at line \(line + 1):
              expected: \(expected)
              actual:   \(got)
            Actual output: \(actualURL.path). Re-record with SNAPSHOT_RECORD=1.
            """, sourceLocation: sourceLocation)
    }
}
